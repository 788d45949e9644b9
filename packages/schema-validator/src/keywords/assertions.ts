// The validation vocabulary: keywords that assert on the instance itself, without subschemas.

import { boundedValue, isNonNegativeInteger, malformed } from '../build.js';
import type { Build } from '../build.js';
import { canonicalKey, jsonEqual } from '../equal.js';
import type { JsonValue } from '../json.js';
import { multipleOfTest } from '../number.js';
import { fail, show } from '../runtime.js';

const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

function typeTest(name: string): (data: unknown) => boolean {
  switch (name) {
    case 'string':
      return (d) => typeof d === 'string';
    case 'number':
      return (d) => typeof d === 'number';
    case 'integer':
      return (d) => Number.isInteger(d);
    case 'boolean':
      return (d) => typeof d === 'boolean';
    case 'null':
      return (d) => d === null;
    case 'array':
      return (d) => Array.isArray(d);
    default:
      return (d) => typeof d === 'object' && d !== null && !Array.isArray(d);
  }
}

function compileType(b: Build): void {
  const t = b.schema.type;
  const names = Array.isArray(t) ? t : [t];
  if (names.length === 0 && Array.isArray(t)) malformed(b, 'type', 'a type name or a non-empty array of them');
  for (const n of names)
    if (typeof n !== 'string' || !TYPES.has(n))
      malformed(b, 'type', `one of ${[...TYPES].join(', ')} (or an array of them)`);
  const at = `${b.loc}/type`;
  const message = `must be ${(names as string[]).join(' or ')}`;
  const tests = (names as string[]).map(typeTest);
  const one = tests.length === 1 ? tests[0] : undefined;
  if (one !== undefined) {
    b.on('any', (data, ctx, path) => one(data) || fail(ctx, path, 'type', at, message));
  } else {
    b.on('any', (data, ctx, path) => {
      for (const test of tests) if (test(data)) return true;
      return fail(ctx, path, 'type', at, message);
    });
  }
}

function compileEnum(b: Build): void {
  const values = b.schema.enum;
  if (!Array.isArray(values)) malformed(b, 'enum', 'an array');
  boundedValue(b, 'enum', values);
  const at = `${b.loc}/enum`;
  const message =
    values.length === 1 ? `must be equal to ${show(values[0])}` : `must be equal to one of the allowed values`;
  const primitives = new Set<unknown>();
  const structured: JsonValue[] = [];
  for (const v of values as JsonValue[]) {
    if (typeof v === 'object' && v !== null) structured.push(v);
    else primitives.add(v);
  }
  // Large enums of objects compare by canonical key, once per instance, not value by value.
  const keys = structured.length > 8 ? new Set(structured.map(canonicalKey)) : undefined;
  b.on('any', (data, ctx, path) => {
    if (typeof data !== 'object' || data === null) return primitives.has(data) || fail(ctx, path, 'enum', at, message);
    if (keys !== undefined) return keys.has(canonicalKey(data)) || fail(ctx, path, 'enum', at, message);
    for (const v of structured) if (jsonEqual(v, data)) return true;
    return fail(ctx, path, 'enum', at, message);
  });
}

function compileConst(b: Build): void {
  const value = b.schema.const as JsonValue;
  boundedValue(b, 'const', value);
  const at = `${b.loc}/const`;
  const message = `must be equal to ${show(value)}`;
  if (typeof value !== 'object' || value === null) {
    b.on('any', (data, ctx, path) => data === value || fail(ctx, path, 'const', at, message));
  } else {
    b.on('any', (data, ctx, path) => jsonEqual(value, data) || fail(ctx, path, 'const', at, message));
  }
}

function compileNumbers(b: Build): void {
  const s = b.schema;
  const num = (kw: string): number | undefined => {
    if (!b.has(kw)) return undefined;
    const v = s[kw];
    if (typeof v !== 'number') malformed(b, kw, 'a number');
    return v;
  };
  const multipleOf = num('multipleOf');
  if (multipleOf !== undefined) {
    if (!(multipleOf > 0)) malformed(b, 'multipleOf', 'a number greater than 0');
    const at = `${b.loc}/multipleOf`;
    const isMultiple = multipleOfTest(multipleOf);
    b.on(
      'number',
      (d, ctx, path) =>
        isMultiple(d as number) || fail(ctx, path, 'multipleOf', at, `must be a multiple of ${multipleOf}`),
    );
  }
  const bound = (kw: string, ok: (d: number, limit: number) => boolean, op: string): void => {
    const limit = num(kw);
    if (limit === undefined) return;
    const at = `${b.loc}/${kw}`;
    const message = `must be ${op} ${limit}`;
    b.on('number', (d, ctx, path) => ok(d as number, limit) || fail(ctx, path, kw, at, message));
  };
  bound('maximum', (d, l) => d <= l, '<=');
  bound('minimum', (d, l) => d >= l, '>=');
  bound('exclusiveMaximum', (d, l) => d < l, '<');
  bound('exclusiveMinimum', (d, l) => d > l, '>');
}

/** Length in code points (JSON Schema counts characters, not UTF-16 units). */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const count = (b: Build, kw: string): number | undefined => {
  if (!b.has(kw)) return undefined;
  const v = b.schema[kw];
  if (!isNonNegativeInteger(v)) malformed(b, kw, 'a non-negative integer');
  return v;
};

function compileStrings(b: Build): void {
  const max = count(b, 'maxLength');
  if (max !== undefined) {
    const at = `${b.loc}/maxLength`;
    const message = `must not have more than ${max} characters`;
    // UTF-16 length bounds the code point count from above: most strings need no count.
    b.on(
      'string',
      (d, ctx, path) =>
        (d as string).length <= max || codePoints(d as string) <= max || fail(ctx, path, 'maxLength', at, message),
    );
  }
  const min = count(b, 'minLength');
  if (min !== undefined && min > 0) {
    const at = `${b.loc}/minLength`;
    const message = `must not have fewer than ${min} characters`;
    b.on(
      'string',
      (d, ctx, path) =>
        ((d as string).length >= min && codePoints(d as string) >= min) || fail(ctx, path, 'minLength', at, message),
    );
  }
  if (b.has('pattern')) {
    const test = b.pattern(b.schema.pattern as JsonValue, 'pattern');
    const at = `${b.loc}/pattern`;
    const source = b.schema.pattern as string;
    const message = `must match the pattern ${show(source)}`;
    b.on('string', (d, ctx, path) => test(d as string) || fail(ctx, path, 'pattern', at, message));
  }
}

function uniqueItems(items: readonly unknown[]): number | undefined {
  // Returns the index of the first duplicate: a hash set over canonical keys, O(total size).
  if (items.length < 2) return undefined;
  const primitives = new Set<unknown>();
  let keys: Set<string> | undefined;
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    if (typeof v !== 'object' || v === null) {
      if (primitives.has(v)) return i;
      primitives.add(v);
    } else {
      const k = canonicalKey(v);
      keys ??= new Set();
      if (keys.has(k)) return i;
      keys.add(k);
    }
  }
  return undefined;
}

function compileArrays(b: Build): void {
  const max = count(b, 'maxItems');
  if (max !== undefined) {
    const at = `${b.loc}/maxItems`;
    b.on(
      'array',
      (d, ctx, path) =>
        (d as unknown[]).length <= max || fail(ctx, path, 'maxItems', at, `must not have more than ${max} items`),
    );
  }
  const min = count(b, 'minItems');
  if (min !== undefined && min > 0) {
    const at = `${b.loc}/minItems`;
    b.on(
      'array',
      (d, ctx, path) =>
        (d as unknown[]).length >= min || fail(ctx, path, 'minItems', at, `must not have fewer than ${min} items`),
    );
  }
  if (b.has('uniqueItems')) {
    const v = b.schema.uniqueItems;
    if (typeof v !== 'boolean') malformed(b, 'uniqueItems', 'a boolean');
    if (v) {
      const at = `${b.loc}/uniqueItems`;
      b.on('array', (d, ctx, path) => {
        const dup = uniqueItems(d as unknown[]);
        return (
          dup === undefined ||
          fail(ctx, path, 'uniqueItems', at, `must not have duplicate items (item ${dup} repeats an earlier one)`)
        );
      });
    }
  }
}

function stringArray(b: Build, kw: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) malformed(b, kw, 'an array of strings');
  return value as string[];
}

function compileObjects(b: Build): void {
  const max = count(b, 'maxProperties');
  if (max !== undefined) {
    const at = `${b.loc}/maxProperties`;
    b.on(
      'object',
      (d, ctx, path) =>
        Object.keys(d as object).length <= max ||
        fail(ctx, path, 'maxProperties', at, `must not have more than ${max} properties`),
    );
  }
  const min = count(b, 'minProperties');
  if (min !== undefined && min > 0) {
    const at = `${b.loc}/minProperties`;
    b.on(
      'object',
      (d, ctx, path) =>
        Object.keys(d as object).length >= min ||
        fail(ctx, path, 'minProperties', at, `must not have fewer than ${min} properties`),
    );
  }
  if (b.has('required')) {
    const names = stringArray(b, 'required', b.schema.required);
    if (names.length > 0) {
      const at = `${b.loc}/required`;
      b.on('object', (d, ctx, path) => {
        let ok = true;
        for (const n of names) {
          if (!Object.prototype.hasOwnProperty.call(d, n)) {
            fail(ctx, path, 'required', at, `must have required property ${show(n)}`);
            if (ctx.errors === null) return false;
            ok = false;
          }
        }
        return ok;
      });
    }
  }
  if (b.dialect !== 'draft-07' && b.has('dependentRequired')) {
    const deps = b.schema.dependentRequired;
    if (typeof deps !== 'object' || deps === null || Array.isArray(deps))
      malformed(b, 'dependentRequired', 'an object');
    for (const [prop, names] of Object.entries(deps))
      dependentRequired(b, 'dependentRequired', prop, stringArray(b, 'dependentRequired', names));
  }
}

/** `dependentRequired` (and draft-07 `dependencies` with an array): present `prop` requires `names`. */
export function dependentRequired(b: Build, kw: string, prop: string, names: readonly string[]): void {
  if (names.length === 0) return;
  const at = `${b.loc}/${kw}`;
  b.on('object', (d, ctx, path) => {
    const has = (n: string): boolean => Object.prototype.hasOwnProperty.call(d, n);
    if (!has(prop)) return true;
    let ok = true;
    for (const n of names) {
      if (!has(n)) {
        fail(ctx, path, kw, at, `must have property ${show(n)} when property ${show(prop)} is present`);
        if (ctx.errors === null) return false;
        ok = false;
      }
    }
    return ok;
  });
}

export function compileAssertions(b: Build): void {
  if (b.has('type')) compileType(b);
  if (b.has('enum')) compileEnum(b);
  if (b.has('const')) compileConst(b);
  compileNumbers(b);
  compileStrings(b);
  compileArrays(b);
  compileObjects(b);
}
