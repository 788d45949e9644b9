// Applicators over object members: properties, patternProperties, additionalProperties, propertyNames, dependencies.
//
// The first three take one pass over the instance's keys; the dependencies are dependentSchemas and draft-07's
// dependencies.

import { malformed } from '../build.js';
import type { Build } from '../build.js';
import { isObject } from '../json.js';
import type { JsonValue } from '../json.js';
import type { PatternTest } from '../pattern.js';
import { addProp, child, fail, show } from '../runtime.js';
import type { SchemaNode } from '../runtime.js';
import { escapeToken } from '../uri.js';
import { dependentRequired } from './assertions.js';

type Obj = Record<string, unknown>;

function members(b: Build, kw: string): [string, JsonValue][] {
  const v = b.schema[kw];
  if (!isObject(v)) malformed(b, kw, 'an object');
  return Object.entries(v);
}

function compileMembers(b: Build): void {
  const props = new Map<string, SchemaNode>();
  if (b.has('properties')) {
    for (const [name, s] of members(b, 'properties')) props.set(name, b.sub(s, `properties/${escapeToken(name)}`));
  }
  const patterns: { test: PatternTest; node: SchemaNode }[] = [];
  if (b.has('patternProperties')) {
    for (const [source, s] of members(b, 'patternProperties')) {
      patterns.push({
        test: b.pattern(source, `patternProperties/${escapeToken(source)}`),
        node: b.sub(s, `patternProperties/${escapeToken(source)}`),
      });
    }
  }
  const additional = b.has('additionalProperties')
    ? b.sub(b.schema.additionalProperties as JsonValue, 'additionalProperties')
    : undefined;
  if (props.size === 0 && patterns.length === 0 && additional === undefined) return;
  const additionalFalse = b.schema.additionalProperties === false;
  const addAt = `${b.loc}/additionalProperties`;
  const hasOwnProperty = Object.prototype.hasOwnProperty;

  if (patterns.length === 0 && additional === undefined) {
    // Only `properties`: look up the declared names, whatever else the instance carries.
    const declared = [...props];
    b.on('object', (data, ctx, path, ev, scope) => {
      const d = data as Obj;
      let ok = true;
      for (let i = 0; i < declared.length; i++) {
        const [key, node] = declared[i] as [string, SchemaNode];
        if (!hasOwnProperty.call(d, key)) continue;
        if (ev !== null) addProp(ev, key);
        if (!node.run(d[key], ctx, child(path, key), null, scope)) {
          if (ctx.errors === null) return false;
          ok = false;
        }
      }
      return ok;
    });
    return;
  }

  b.on('object', (data, ctx, path, ev, scope) => {
    const d = data as Obj;
    let ok = true;
    for (const key of Object.keys(d)) {
      let matched = false;
      const node = props.get(key);
      if (node !== undefined) {
        matched = true;
        if (!node.run(d[key], ctx, child(path, key), null, scope)) {
          if (ctx.errors === null) return false;
          ok = false;
        }
      }
      for (let i = 0; i < patterns.length; i++) {
        const p = patterns[i] as { test: PatternTest; node: SchemaNode };
        if (!p.test(key)) continue;
        matched = true;
        if (!p.node.run(d[key], ctx, child(path, key), null, scope)) {
          if (ctx.errors === null) return false;
          ok = false;
        }
      }
      if (!matched && additional !== undefined) {
        if (additionalFalse) {
          fail(ctx, path, 'additionalProperties', addAt, `must not have additional property ${show(key)}`);
          if (ctx.errors === null) return false;
          ok = false;
        } else if (!additional.run(d[key], ctx, child(path, key), null, scope)) {
          if (ctx.errors === null) return false;
          ok = false;
        }
        matched = true;
      }
      if (matched && ev !== null) addProp(ev, key);
    }
    return ok;
  });
}

function compilePropertyNames(b: Build): void {
  const node = b.sub(b.schema.propertyNames as JsonValue, 'propertyNames');
  b.on('object', (data, ctx, path, _ev, scope) => {
    let ok = true;
    for (const key of Object.keys(data as Obj)) {
      // The name is the instance here; an issue points at the object that has it.
      if (!node.run(key, ctx, path, null, scope)) {
        if (ctx.errors === null) return false;
        ok = false;
      }
    }
    return ok;
  });
}

function dependentSchema(b: Build, kw: string, prop: string, node: SchemaNode): void {
  b.inPlace(node);
  b.on(
    'object',
    (data, ctx, path, ev, scope) =>
      !Object.prototype.hasOwnProperty.call(data, prop) || node.run(data, ctx, path, ev, scope),
  );
}

function compileDependencies(b: Build): void {
  if (b.dialect !== 'draft-07' && b.has('dependentSchemas')) {
    for (const [prop, s] of members(b, 'dependentSchemas'))
      dependentSchema(b, 'dependentSchemas', prop, b.sub(s, `dependentSchemas/${escapeToken(prop)}`));
  }
  if (b.dialect === 'draft-07' && b.has('dependencies')) {
    for (const [prop, dep] of members(b, 'dependencies')) {
      if (Array.isArray(dep)) {
        if (!dep.every((n) => typeof n === 'string'))
          malformed(b, 'dependencies', 'an object of schemas or arrays of strings');
        dependentRequired(b, 'dependencies', prop, dep as string[]);
      } else {
        dependentSchema(b, 'dependencies', prop, b.sub(dep, `dependencies/${escapeToken(prop)}`));
      }
    }
  }
}

export function compileObjectApplicators(b: Build): void {
  compileMembers(b);
  if (b.has('propertyNames')) compilePropertyNames(b);
  compileDependencies(b);
}
