// Hostile schemas: never written to, reference cycles and chains refused, limits and evaluation work bounded.
import { describe, expect, it } from 'vitest';
import { McpError } from '@mcpc/jsonrpc';
import {
  DEFAULT_LIMITS,
  EvaluationLimitError,
  SchemaError,
  SchemaLimitError,
  ValidationError,
  compile,
} from '../src/index.js';
import type { JsonValue } from '../src/index.js';

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
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
    expect(() =>
      compile({
        $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/a' }] } },
        $ref: '#/$defs/a',
      }),
    ).toThrow(/never end/);
    expect(() => compile({ $defs: { a: { $ref: '#/$defs/a' } }, properties: { x: { $ref: '#/$defs/a' } } })).toThrow(
      SchemaError,
    );
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

  it('compares values nested past the call stack correctly, under uniqueItems, const and enum', () => {
    const deep = (depth: number, leaf: JsonValue): JsonValue => {
      let v = leaf;
      for (let i = 0; i < depth; i++) v = [v];
      return v;
    };
    const a = deep(200_000, 1);
    // Equal in value, distinct objects: only a full comparison can tell.
    const b = deep(200_000, 1);
    const c = deep(200_000, 2);
    const unique = compile({ uniqueItems: true });
    expect(unique.validate([a, 1]).valid).toBe(true);
    expect(unique.isValid([a, c])).toBe(true);
    expect(unique.isValid([a, b])).toBe(false);
    expect(unique.validate([a, b]).errors[0]?.keyword).toBe('uniqueItems');
    const konst = compile({ const: deep(100, 'x') });
    expect(konst.isValid(deep(100, 'x'))).toBe(true);
    expect(konst.isValid(deep(100, 'y'))).toBe(false);
    expect(konst.isValid(deep(200_000, 'x'))).toBe(false);
    // Over eight structured values, enum compares canonical keys.
    const big = compile({ enum: Array.from({ length: 10 }, (_, i) => deep(100, i)) });
    expect(big.isValid(deep(100, 9))).toBe(true);
    expect(big.isValid(deep(200_000, 9))).toBe(false);
  });

  it('refuses const and enum values nested past maxSchemaDepth with a typed error', () => {
    let deep: JsonValue = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    for (const schema of [{ const: deep }, { enum: [deep] }, { properties: { a: { const: { x: deep } } } }]) {
      const e = thrown(() => compile(schema));
      expect(e).toBeInstanceOf(SchemaLimitError);
      expect((e as SchemaLimitError).code).toBe('MCPC_SCHEMA_LIMIT');
      expect((e as SchemaLimitError).limit).toBe('maxSchemaDepth');
    }
    expect((thrown(() => compile({ const: deep })) as SchemaLimitError).schemaPath).toBe('#/const');
    let ok: JsonValue = 1;
    for (let i = 0; i < 128; i++) ok = [ok];
    expect(compile({ const: ok }).isValid(structuredClone(ok))).toBe(true);
    expect(compile({ enum: [ok] }).isValid(structuredClone(ok))).toBe(true);
    expect(() => compile({ const: [ok] })).toThrow(SchemaLimitError);
    // Values the evaluator never reads are not bounded.
    expect(compile({ default: deep, examples: [deep] }).isValid(1)).toBe(true);
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

describe('bounded evaluation work', () => {
  /** Each level applies the next twice at the same instance location: 2^levels evaluations, naively. */
  const fanOut = (levels: number): { $ref: string; $defs: Record<string, JsonValue> } => {
    const $defs: Record<string, JsonValue> = { [`l${levels}`]: { type: 'integer' } };
    for (let i = 0; i < levels; i++)
      $defs[`l${i}`] = { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
    return { $ref: '#/$defs/l0', $defs };
  };
  /** The same under `unevaluatedProperties`: annotations are collected, so nothing is memoised. */
  const fanOutCollecting = (levels: number): JsonValue => ({ ...fanOut(levels), unevaluatedProperties: false });

  it('evaluates a reference reached by many in-place paths once per instance location', () => {
    const v = compile(fanOut(40));
    const started = performance.now();
    expect(v.isValid(1)).toBe(true);
    expect(v.validate(1)).toEqual({ valid: true, errors: [], partial: [] });
    expect(v.isValid('x')).toBe(false);
    const r = v.validate('x');
    expect(r.valid).toBe(false);
    // Every path reports the leaf's issue, as without memoising, up to maxErrors.
    expect(r.errors).toHaveLength(100);
    expect(r.errors[0]).toEqual({
      instancePath: '',
      keyword: 'type',
      schemaPath: '#/$defs/l40/type',
      message: 'must be integer',
    });
    expect(
      compile({ properties: { a: { $ref: '#/$defs/l0' } }, $defs: fanOut(40).$defs }).validate({ a: 1.5 }).errors[0]
        ?.instancePath,
    ).toBe('/a');
    // Generous: proves it does not take 2^40 evaluations.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('memoises per value and location: propertyNames runs its subschema on each name at one path', () => {
    const $defs = { n: { maxLength: 1 } };
    const v = compile({
      propertyNames: { $ref: '#/$defs/n' },
      allOf: [{ propertyNames: { $ref: '#/$defs/n' } }],
      $defs,
    });
    expect(v.isValid({ a: 1, b: 2 })).toBe(true);
    expect(v.isValid({ a: 1, bb: 2 })).toBe(false);
    expect(v.validate({ a: 1, bb: 2 }).errors.map((e) => [e.keyword, e.schemaPath])).toEqual([
      ['maxLength', '#/$defs/n/maxLength'],
      ['maxLength', '#/$defs/n/maxLength'],
    ]);
    // One value at two locations: each location reports its own issues.
    const items = compile({
      items: { allOf: [{ $ref: '#/$defs/i' }, { $ref: '#/$defs/i' }] },
      $defs: { i: { type: 'integer' } },
    });
    expect(items.validate([1.5, 1.5]).errors.map((e) => e.instancePath)).toEqual(['/0', '/0', '/1', '/1']);
    expect(items.isValid([1, 1.5])).toBe(false);
    // A shared target under unevaluatedProperties still contributes its annotations.
    const u = compile({
      allOf: [{ $ref: '#/$defs/p' }, { $ref: '#/$defs/p' }],
      unevaluatedProperties: false,
      $defs: { p: { properties: { a: true } } },
    });
    expect(u.isValid({ a: 1 })).toBe(true);
    expect(u.isValid({ a: 1, b: 1 })).toBe(false);
    // Found by the differential check: the shared target's annotations are needed where
    // unevaluatedProperties reads them, so it is not memoised there.
    const w = compile({
      $ref: '#/$defs/d',
      unevaluatedProperties: {
        if: false,
        else: { allOf: [{ $ref: '#/$defs/d' }, { $ref: '#/$defs/d' }] },
        unevaluatedProperties: false,
      },
      $defs: { d: { maxItems: 0, properties: { c: {} } } },
    });
    expect(w.isValid({ c: [null] })).toBe(true);
    expect(w.validate({ c: [null] }).valid).toBe(true);
  });

  it('ends fan-out that cannot be memoised with an issue naming maxEvaluationSteps', () => {
    const v = compile(fanOutCollecting(40));
    const started = performance.now();
    expect(v.isValid(1)).toBe(false);
    const r = v.validate(1);
    expect(r.valid).toBe(false);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.message).toMatch(/more than 10000000 references \(limits\.maxEvaluationSteps\)/);
    // A `not` cannot turn the aborted evaluation into a pass.
    const $defs = { ...fanOut(40).$defs, c: { $ref: '#/$defs/l0', unevaluatedProperties: false } };
    expect(compile({ not: { $ref: '#/$defs/c' }, $defs }).isValid(1)).toBe(false);
    // Generous: proves it does not hang (2^40 evaluations would take hours).
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('makes validateOrThrow throw a typed EvaluationLimitError, not a plain validation failure', () => {
    const e = thrown(() =>
      compile(fanOutCollecting(30), { limits: { maxEvaluationSteps: 1000 } }).validateOrThrow(1, 'tool output'),
    );
    expect(e).toBeInstanceOf(EvaluationLimitError);
    // Still a ValidationError (and an McpError) for callers that catch those.
    expect(e).toBeInstanceOf(ValidationError);
    expect(e).toBeInstanceOf(McpError);
    const l = e as EvaluationLimitError;
    expect(l.code).toBe('MCPC_SCHEMA_EVALUATION_LIMIT');
    expect(l.limit).toBe('maxEvaluationSteps');
    expect(l.value).toBe(1000);
    expect(l.message).toMatch(
      /^the tool output could not be validated: the evaluation followed more than 1000 references/,
    );
    let deep: unknown = [];
    for (let i = 0; i < 1000; i++) deep = [deep];
    const d = thrown(() => compile({ items: { $ref: '#' } }).validateOrThrow(deep)) as EvaluationLimitError;
    expect(d).toBeInstanceOf(EvaluationLimitError);
    expect([d.code, d.limit, d.value]).toEqual(['MCPC_SCHEMA_EVALUATION_LIMIT', 'maxRefDepth', 256]);
    // An invalid value is still an ordinary ValidationError.
    const v = thrown(() => compile(fanOut(3)).validateOrThrow('x'));
    expect(v).toBeInstanceOf(ValidationError);
    expect(v).not.toBeInstanceOf(EvaluationLimitError);
    expect((v as ValidationError).code).toBe('MCPC_VALIDATION_FAILED');
  });

  it('lets the bound be set, and leaves work under it alone', () => {
    expect(compile(fanOutCollecting(10)).isValid(1)).toBe(true);
    expect(compile(fanOutCollecting(10)).isValid('x')).toBe(false);
    const tight = compile(fanOutCollecting(10), { limits: { maxEvaluationSteps: 1000 } });
    expect(tight.isValid(1)).toBe(false);
    expect(tight.validate(1).errors[0]?.message).toMatch(/more than 1000 references/);
    expect(compile(fanOutCollecting(8), { limits: { maxEvaluationSteps: 1000 } }).isValid(1)).toBe(true);
    expect(DEFAULT_LIMITS.maxEvaluationSteps).toBe(10_000_000);
    expect(() => compile({}, { limits: { maxEvaluationSteps: 0 } })).toThrow(TypeError);
  });

  it('compiles many $dynamicRef sites across many resources in linear time and memory', () => {
    // ~1.1 MB: 2,900 resources, each declaring the anchor and holding 10 $dynamicRef sites. The cycle
    // check used to give every site an edge to every resource (29,000 × 2,900): 22 s and 850 MB.
    const $defs: Record<string, JsonValue> = {};
    for (let i = 0; i < 2900; i++) {
      const properties: Record<string, JsonValue> = {};
      for (let j = 0; j < 10; j++) properties[`p${j}`] = { $dynamicRef: '#node' };
      $defs[`r${i}`] = { $id: `urn:example:r${i}`, $dynamicAnchor: 'node', type: 'object', properties };
    }
    const schema = {
      $id: 'urn:example:root',
      $dynamicAnchor: 'node',
      $defs,
      properties: { x: { $ref: 'urn:example:r0' } },
    };
    const started = performance.now();
    const v = compile(schema);
    // Generous: proves the compile is not quadratic (it takes well under a second).
    expect(performance.now() - started).toBeLessThan(8000);
    // The outermost resource declaring the anchor (the root, which has no `type`) wins.
    expect(v.isValid({ x: { p0: 5 } })).toBe(true);
    expect(v.isValid({ x: 5 })).toBe(false);
    // Still a cycle when a dynamic reference can land back where it started.
    expect(() =>
      compile({
        $dynamicAnchor: 'n',
        $defs: { a: { $id: 'urn:a', $dynamicAnchor: 'n', allOf: [{ $dynamicRef: '#n' }] } },
        $ref: 'urn:a',
      }),
    ).toThrow(/refers to itself/);
  });
});

describe('reference chains', () => {
  const chain = (length: number): JsonValue => {
    const $defs: Record<string, JsonValue> = { [`d${length}`]: { type: 'string' } };
    for (let i = 1; i < length; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
    return { $ref: '#/$defs/d1', $defs };
  };

  it('refuses at compile time a chain of references longer than maxRefDepth (maxRefChain)', () => {
    const e = thrown(() => compile(chain(300)));
    expect(e).toBeInstanceOf(SchemaLimitError);
    expect((e as SchemaLimitError).code).toBe('MCPC_SCHEMA_LIMIT');
    expect((e as SchemaLimitError).limit).toBe('maxRefChain');
    expect((e as SchemaLimitError).value).toBe(256);
    expect((e as SchemaLimitError).message).toMatch(/chain of 257 references/);
    expect(() => compile(chain(11), { limits: { maxRefDepth: 10 } })).toThrow(SchemaLimitError);
    // Through in-place applicators too; a chain at the bound is fine and validates.
    const { $defs } = chain(11) as { $defs: JsonValue };
    expect(() =>
      compile({ allOf: [{ type: 'string' }, { $ref: '#/$defs/d1' }], $defs }, { limits: { maxRefDepth: 10 } }),
    ).toThrow(/maxRefDepth is 10/);
    const v = compile(chain(10), { limits: { maxRefDepth: 10 } });
    expect(v.isValid('x')).toBe(true);
    expect(v.isValid(1)).toBe(false);
    expect(compile(chain(200)).isValid('x')).toBe(true);
  });
});
