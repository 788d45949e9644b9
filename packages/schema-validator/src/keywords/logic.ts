// In-place applicators: allOf, anyOf, oneOf, not, if/then/else.
//
// They apply subschemas to the same instance location, so their annotations (what they evaluated) count for the
// parent's unevaluated* keywords — but only the annotations of subschemas that passed.

import { malformed } from '../build.js';
import type { Build } from '../build.js';
import type { JsonValue } from '../json.js';
import { fail, mergeEvaluated, newEvaluated } from '../runtime.js';
import type { SchemaNode } from '../runtime.js';

function schemaArray(b: Build, kw: string): SchemaNode[] {
  const v = b.schema[kw];
  if (!Array.isArray(v) || v.length === 0) malformed(b, kw, 'a non-empty array of schemas');
  const nodes = v.map((s: JsonValue, i: number) => b.sub(s, `${kw}/${i}`));
  for (const n of nodes) b.inPlace(n);
  return nodes;
}

function compileAllOf(b: Build): void {
  const nodes = schemaArray(b, 'allOf');
  b.on('any', (data, ctx, path, ev, scope) => {
    let ok = true;
    for (const n of nodes) {
      if (!n.run(data, ctx, path, ev, scope)) {
        if (ctx.errors === null) return false;
        ok = false;
      }
    }
    return ok;
  });
}

function compileAnyOf(b: Build): void {
  const nodes = schemaArray(b, 'anyOf');
  const at = `${b.loc}/anyOf`;
  b.on('any', (data, ctx, path, ev, scope) => {
    const mark = ctx.errors?.length ?? 0;
    let ok = false;
    for (const n of nodes) {
      if (ev === null) {
        if (n.run(data, ctx, path, null, scope)) {
          ok = true;
          // Nothing to collect: the first passing branch decides.
          break;
        }
      } else {
        // Every branch is evaluated: each passing one contributes its annotations.
        const local = newEvaluated();
        if (n.run(data, ctx, path, local, scope)) {
          ok = true;
          mergeEvaluated(ev, local);
        }
      }
    }
    if (ok) {
      if (ctx.errors !== null) ctx.errors.length = mark;
      return true;
    }
    return fail(ctx, path, 'anyOf', at, 'must match at least one schema in anyOf');
  });
}

function compileOneOf(b: Build): void {
  const nodes = schemaArray(b, 'oneOf');
  const at = `${b.loc}/oneOf`;
  b.on('any', (data, ctx, path, ev, scope) => {
    const mark = ctx.errors?.length ?? 0;
    let passed = -1;
    let annotations = null;
    for (let i = 0; i < nodes.length; i++) {
      const local = ev === null ? null : newEvaluated();
      if ((nodes[i] as SchemaNode).run(data, ctx, path, local, scope)) {
        if (passed !== -1) {
          if (ctx.errors !== null) ctx.errors.length = mark;
          return fail(ctx, path, 'oneOf', at, `must match exactly one schema in oneOf (matches ${passed} and ${i})`);
        }
        passed = i;
        annotations = local;
      }
    }
    if (passed === -1) return fail(ctx, path, 'oneOf', at, 'must match exactly one schema in oneOf (matches none)');
    if (ctx.errors !== null) ctx.errors.length = mark;
    if (ev !== null && annotations !== null) mergeEvaluated(ev, annotations);
    return true;
  });
}

function compileNot(b: Build): void {
  const node = b.sub(b.schema.not as JsonValue, 'not');
  b.inPlace(node);
  const at = `${b.loc}/not`;
  b.on('any', (data, ctx, path, _ev, scope) => {
    const mark = ctx.errors?.length ?? 0;
    // `not` never passes annotations up: its subschema passing is the failure.
    const ok = node.run(data, ctx, path, null, scope);
    if (ctx.errors !== null) ctx.errors.length = mark;
    return !ok || fail(ctx, path, 'not', at, 'must not match the schema in not');
  });
}

function compileConditional(b: Build): void {
  const cond = b.sub(b.schema.if as JsonValue, 'if');
  b.inPlace(cond);
  const then = b.has('then') ? b.sub(b.schema.then as JsonValue, 'then') : undefined;
  const otherwise = b.has('else') ? b.sub(b.schema.else as JsonValue, 'else') : undefined;
  if (then !== undefined) b.inPlace(then);
  if (otherwise !== undefined) b.inPlace(otherwise);
  // Without then/else an `if` can only contribute annotations.
  b.on('any', (data, ctx, path, ev, scope) => {
    if (then === undefined && otherwise === undefined && ev === null) return true;
    const mark = ctx.errors?.length ?? 0;
    const local = ev === null ? null : newEvaluated();
    const holds = cond.run(data, ctx, path, local, scope);
    if (ctx.errors !== null) ctx.errors.length = mark;
    if (holds && ev !== null && local !== null) mergeEvaluated(ev, local);
    const next = holds ? then : otherwise;
    return next === undefined || next.run(data, ctx, path, ev, scope);
  });
}

export function compileLogic(b: Build): void {
  if (b.has('allOf')) compileAllOf(b);
  if (b.has('anyOf')) compileAnyOf(b);
  if (b.has('oneOf')) compileOneOf(b);
  if (b.has('not')) compileNot(b);
  if (b.has('if')) compileConditional(b);
}
