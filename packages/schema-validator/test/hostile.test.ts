import { describe, expect, it } from 'vitest';
import { SchemaError, SchemaLimitError, compile } from '../src/index.js';
import type { JsonValue } from '../src/index.js';

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}

const nested = (depth: number, leaf: JsonValue): JsonValue => {
  let s = leaf;
  for (let i = 0; i < depth; i++) s = { properties: { a: s } };
  return s;
};

describe('the caller’s schema', () => {
  const schema = {
    $id: 'https://example.com/tool.json',
    type: 'object',
    properties: { name: { $ref: '#/$defs/name' }, tags: { type: 'array', items: { $ref: 'item.json' } } },
    unevaluatedProperties: false,
    $defs: { name: { type: 'string', pattern: '^[a-z]+$' }, item: { $id: 'item.json', type: 'string' } },
  };

  it('is never written to', () => {
    const before = JSON.stringify(schema);
    const v = compile(schema);
    v.validate({ name: 'abc', tags: ['x'] });
    v.validate({ name: 1, extra: true });
    expect(JSON.stringify(schema)).toBe(before);
    const keys = (o: object): (string | symbol)[] => Reflect.ownKeys(o);
    expect(keys(schema)).toEqual(['$id', 'type', 'properties', 'unevaluatedProperties', '$defs']);
    expect(keys(schema.$defs.name)).toEqual(['type', 'pattern']);
  });

  it('may be frozen', () => {
    const frozen = deepFreeze(structuredClone(schema));
    const v = compile(frozen);
    expect(v.isValid({ name: 'abc', tags: ['x'] })).toBe(true);
    expect(v.isValid({ name: 'abc', tags: [1] })).toBe(false);
    expect(v.isValid({ name: 'abc', other: 1 })).toBe(false);
  });
});

describe('reference cycles', () => {
  it('refuses {"$ref": "#"} at compile time, with a clear error', () => {
    let error: unknown;
    try {
      compile({ $ref: '#' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).code).toBe('MCPC_SCHEMA_REF_CYCLE');
    expect((error as SchemaError).message).toMatch(/refers to itself without descending into the instance/);
  });

  it('refuses longer in-place cycles', () => {
    expect(() => compile({ $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' })).toThrow(/never end/);
    expect(() => compile({ $defs: { a: { $ref: '#/$defs/a' } }, properties: { x: { $ref: '#/$defs/a' } } })).toThrow(SchemaError);
  });

  it('accepts recursion that descends into the instance', () => {
    const tree = compile({ type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } });
    expect(tree.isValid({ children: [{ children: [] }] })).toBe(true);
    expect(tree.isValid({ children: [{ children: 1 }] })).toBe(false);
  });
});

describe('limits', () => {
  it('bounds the nesting depth of the schema', () => {
    expect(() => compile(nested(200, true))).toThrow(SchemaLimitError);
    expect(() => compile(nested(20, true), { limits: { maxSchemaDepth: 10 } })).toThrow(/nests deeper than 10/);
    expect(compile(nested(100, true)).isValid({})).toBe(true);
  });

  it('bounds the size of the schema', () => {
    const properties = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(() => compile({ properties }, { limits: { maxSchemaNodes: 1000 } })).toThrow(SchemaLimitError);
    expect(compile({ properties }).isValid({ p1: 'x' })).toBe(true);
  });

  it('ends recursion over a hostile, deeply nested instance with an issue, not a stack overflow', () => {
    const v = compile({ type: 'array', items: { $ref: '#' } });
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const r = v.validate(deep);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.message).toMatch(/nest deeper than 256/);
    expect(v.isValid(deep)).toBe(false);
    let ok: unknown = [];
    for (let i = 0; i < 100; i++) ok = [ok];
    expect(v.isValid(ok)).toBe(true);
  });

  it('reports a value too deep to compare instead of throwing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    // uniqueItems reads every item whole: this one nests past the stack.
    const r = compile({ uniqueItems: true }).validate([deep, 1]);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.message).toMatch(/nested too deeply/);
  });

  it('checks uniqueItems on a large array in linear time, by JSON equality', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => ({ id: i, tags: ['a', 'b'] }));
    const v = compile({ uniqueItems: true });
    const started = performance.now();
    expect(v.isValid(items)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(v.isValid([...items, { tags: ['a', 'b'], id: 5 }])).toBe(false);
    expect(v.isValid([1, 1.0])).toBe(false);
    expect(v.isValid([{}, []])).toBe(true);
    expect(v.isValid(['1', 1])).toBe(true);
  });

  it('caps the number of issues', () => {
    const v = compile({ items: { type: 'string' } }, { limits: { maxErrors: 3 } });
    expect(v.validate([1, 2, 3, 4, 5]).errors).toHaveLength(3);
  });
});
