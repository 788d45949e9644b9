// A standing differential check: generated 2020-12 schemas and instances, validated here and by @hyperjump/json-schema.
//
// @hyperjump/json-schema is an independent implementation; any disagreement fails with the seed and the counterexample.
// Generation stays inside what both implement identically: no `format` (an annotation here, an assertion option there),
// no remote references, no unknown keywords, patterns from a fixed list. `DIFF_SEED` and `DIFF_RUNS` in the environment
// explore further; a failure names the seed and the shrunk counterexample, so it replays with `DIFF_SEED=<seed>`.

import fc from 'fast-check';
import type * as HyperjumpModule from '@hyperjump/json-schema/draft-2020-12';
import type { SchemaObject } from '@hyperjump/json-schema/draft-2020-12';
import { describe, expect, it } from 'vitest';
import { compile } from '../src/index.js';
import type { JsonValue } from '../src/index.js';

const SEED = Number(process.env.DIFF_SEED ?? 20260728);
const RUNS = Number(process.env.DIFF_RUNS ?? 2000);
const INSTANCES_PER_SCHEMA = 6;

type Schema = boolean | { [keyword: string]: JsonValue };

/**
 * Disagreements that are the other implementation's bugs, each with the reason. A case matches when
 * `matches` says so; it is then skipped, not counted as agreement.
 */
const KNOWN_DIFFERENCES: readonly { reason: string; matches: (schema: Schema, instance: JsonValue) => boolean }[] = [
  {
    reason:
      'hyperjump decides multipleOf by comparing the JS remainder with 0 or the divisor within 1.19e-7; for a negative ' +
      'number the remainder is negative, so -2 is not a multiple of 0.1 there (it is: -2 = -20 × 0.1)',
    matches: (schema, instance) =>
      multipleOfs(schema).some((m) => !Number.isInteger(m)) && numbers(instance).some((n) => n < 0),
  },
  {
    reason:
      'the same absolute tolerance counts any remainder below 1.19e-7 as zero there: every number is a multiple of 1e-9, ' +
      'and 1.5e-9 is a multiple of 0.1',
    matches: (schema, instance) => {
      const ms = multipleOfs(schema);
      return (
        ms.some((m) => m < 1.1920929e-7) ||
        (ms.length > 0 && numbers(instance).some((n) => n !== 0 && Math.abs(n) < 1.1920929e-7))
      );
    },
  },
];

/** Every value of `key` in a JSON value, and every number in it. */
function collect(value: JsonValue, keep: (key: string | undefined, v: JsonValue) => boolean): JsonValue[] {
  const out: JsonValue[] = [];
  const pending: [string | undefined, JsonValue][] = [[undefined, value]];
  for (let top = pending.pop(); top !== undefined; top = pending.pop()) {
    const [key, v] = top;
    if (keep(key, v)) out.push(v);
    if (Array.isArray(v)) for (const x of v as JsonValue[]) pending.push([undefined, x]);
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) pending.push([k, x]);
  }
  return out;
}
const multipleOfs = (schema: Schema): number[] =>
  collect(schema, (k, v) => k === 'multipleOf' && typeof v === 'number') as number[];
const numbers = (instance: JsonValue): number[] => collect(instance, (_k, v) => typeof v === 'number') as number[];

const KEYS = ['a', 'b', 'c'];
const STRINGS = ['', 'a', 'b', 'ab', 'ba', 'abc', 'aaa'];
const NUMBERS = [-2, -1, -0.5, 0, 0.1, 0.25, 0.3, 0.5, 1, 1.5, 2, 3, 4, 10, 1.5e-9, 1000000000000000.25];
const PATTERNS = ['^a', 'b$', '^[ab]*$', 'a{2}', '^$'];

const instanceArb: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<JsonValue>(null, true, false),
    fc.constantFrom(...NUMBERS),
    fc.constantFrom(...STRINGS),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const small = fc.integer({ min: 0, max: 3 });
const names = fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 3 });

/** Keywords that assert on the instance itself. */
const assertion: fc.Arbitrary<Record<string, JsonValue>> = fc.oneof(
  fc.record({
    type: fc.oneof(
      fc.constantFrom('null', 'boolean', 'object', 'array', 'number', 'string', 'integer'),
      fc.uniqueArray(fc.constantFrom('string', 'number', 'integer', 'array', 'object', 'null'), {
        minLength: 1,
        maxLength: 3,
      }),
    ),
  }),
  fc.record({ enum: fc.array(instanceArb, { minLength: 1, maxLength: 3 }) }),
  fc.record({ const: instanceArb }),
  fc.record({ minimum: fc.constantFrom(...NUMBERS) }),
  fc.record({ exclusiveMaximum: fc.constantFrom(...NUMBERS) }),
  fc.record({ multipleOf: fc.constantFrom(0.1, 0.25, 0.5, 1, 2, 3, 1e-9) }),
  fc.record({ minLength: small }),
  fc.record({ maxLength: small }),
  fc.record({ pattern: fc.constantFrom(...PATTERNS) }),
  fc.record({ minItems: small }),
  fc.record({ maxItems: small }),
  fc.record({ uniqueItems: fc.boolean() }),
  fc.record({ minProperties: small }),
  fc.record({ maxProperties: small }),
  fc.record({ required: names }),
  fc.record({ dependentRequired: fc.dictionary(fc.constantFrom(...KEYS), names, { maxKeys: 2 }) }),
);

/** Schemas; `withRefs` adds references to the root's `$defs` and to the root itself. */
const schemaArbitrary = (withRefs: boolean): fc.Arbitrary<Schema> =>
  fc.letrec<{ schema: Schema; object: Record<string, JsonValue> }>((tie) => {
    const sub = tie('schema') as fc.Arbitrary<JsonValue>;
    const subs = fc.array(sub, { minLength: 1, maxLength: 3 });
    const refs: fc.Arbitrary<Record<string, JsonValue>>[] = withRefs
      ? [
          fc.record({ $ref: fc.constantFrom('#/$defs/d', '#/$defs/e'), unevaluatedProperties: sub }),
          // References into the root's $defs (always present) and back to the root, below an applicator
          // that descends, so every cycle goes through the instance.
          fc.record({ $ref: fc.constantFrom('#/$defs/d', '#/$defs/e') }),
          // One target reached twice at one location: what the evaluator memoises.
          fc.record(
            { allOf: fc.constant([{ $ref: '#/$defs/d' }, { $ref: '#/$defs/d' }]), unevaluatedProperties: sub },
            { requiredKeys: ['allOf'] },
          ),
          fc.record({
            anyOf: fc.constant([{ $ref: '#/$defs/d' }, { $ref: '#/$defs/e' }]),
            oneOf: fc.constant([{ $ref: '#/$defs/d' }, true]),
          }),
          fc.record({ items: fc.constant({ $ref: '#' }) }),
          fc.record({ properties: fc.record({ a: fc.constant({ $ref: '#' }) }) }),
        ]
      : [];
    const keyword: fc.Arbitrary<Record<string, JsonValue>> = fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      assertion,
      fc.record({ properties: fc.dictionary(fc.constantFrom(...KEYS), sub, { maxKeys: 2 }) }),
      fc.record({ patternProperties: fc.dictionary(fc.constantFrom(...PATTERNS), sub, { maxKeys: 2 }) }),
      fc.record({ additionalProperties: sub }),
      fc.record({ propertyNames: sub }),
      fc.record({ dependentSchemas: fc.dictionary(fc.constantFrom(...KEYS), sub, { maxKeys: 2 }) }),
      fc.record({ prefixItems: subs }),
      fc.record({ items: sub }),
      fc.record({ contains: sub, minContains: small, maxContains: small }, { requiredKeys: ['contains'] }),
      fc.record({ allOf: subs }),
      fc.record({ anyOf: subs }),
      fc.record({ oneOf: subs }),
      fc.record({ not: sub }),
      fc.record({ if: sub, then: sub, else: sub }, { requiredKeys: ['if'] }),
      fc.record({ unevaluatedProperties: sub }),
      fc.record({ unevaluatedItems: sub }),
      // The unevaluated keywords beside the in-place applicators whose annotations they read.
      fc.record({ anyOf: subs, unevaluatedProperties: sub }),
      fc.record({ oneOf: subs, unevaluatedItems: sub }),
      fc.record({ allOf: subs, unevaluatedProperties: sub }),
      fc.record(
        { if: sub, then: sub, else: sub, unevaluatedProperties: sub },
        { requiredKeys: ['if', 'unevaluatedProperties'] },
      ),
      fc.record({ prefixItems: subs, contains: sub, unevaluatedItems: sub }, { requiredKeys: ['unevaluatedItems'] }),
      ...refs,
    );
    return {
      object: fc
        .array(keyword, { maxLength: 3 })
        .map((parts) => Object.assign({}, ...parts) as Record<string, JsonValue>),
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.boolean(),
        tie('object') as fc.Arbitrary<Schema>,
      ),
    };
  }).schema;

/** A root: the generated schema plus the $defs its references name (themselves without references). */
const rootArb = fc
  .record({ body: schemaArbitrary(true), d: schemaArbitrary(false), e: fc.array(assertion, { maxLength: 2 }) })
  .map(({ body, d, e }) => {
    const $defs = { d, e: Object.assign({}, ...e) as Record<string, JsonValue> };
    return typeof body === 'boolean' ? { allOf: [body], $defs } : { ...body, $defs };
  });

type Hyperjump = typeof HyperjumpModule;

/** Loaded here rather than imported, so a broken install says what is missing. */
async function loadHyperjump(): Promise<Hyperjump> {
  try {
    return await import('@hyperjump/json-schema/draft-2020-12');
  } catch (cause) {
    throw new Error(
      '@hyperjump/json-schema could not be loaded; it needs its peer dependency @hyperjump/browser (^1.1.0) installed beside it ' +
        `(a devDependency of @mcpc/schema-validator): ${String(cause)}`,
      { cause },
    );
  }
}

let nextId = 0;

async function theirs(hyperjump: Hyperjump, schema: Schema, instances: readonly JsonValue[]): Promise<boolean[]> {
  const { registerSchema, unregisterSchema, validate: hyperjumpValidator } = hyperjump;
  // A fresh id per schema: hyperjump keeps registered schemas process-wide.
  const id = `https://mcpc.test/differential/${nextId++}`;
  registerSchema({
    ...(schema as SchemaObject),
    $id: id,
    $schema: 'https://json-schema.org/draft/2020-12/schema',
  } as SchemaObject);
  try {
    const v = await hyperjumpValidator(id);
    return instances.map((i) => v(i as never).valid);
  } finally {
    unregisterSchema(id);
  }
}

describe('differential check against @hyperjump/json-schema 1.18.0 (2020-12)', () => {
  it(`agrees on ${RUNS} generated schemas × ${INSTANCES_PER_SCHEMA} instances (seed ${SEED})`, async () => {
    const hyperjump = await loadHyperjump();
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        rootArb,
        fc.array(instanceArb, { minLength: INSTANCES_PER_SCHEMA, maxLength: INSTANCES_PER_SCHEMA }),
        async (schema, instances) => {
          const ours = compile(schema);
          const expected = await theirs(hyperjump, schema, instances);
          instances.forEach((instance, i) => {
            if (KNOWN_DIFFERENCES.some((k) => k.matches(schema, instance))) return;
            const mine = ours.isValid(instance);
            const full = ours.validate(instance).valid;
            compared++;
            if (mine !== expected[i] || full !== mine) {
              throw new Error(
                `disagreement (seed ${SEED}): mcpc isValid=${mine} validate=${full}, hyperjump=${String(expected[i])}\n` +
                  `schema: ${JSON.stringify(schema)}\ninstance: ${JSON.stringify(instance)}`,
              );
            }
          });
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: false },
    );
    expect(compared).toBeGreaterThan(RUNS * INSTANCES_PER_SCHEMA * 0.9);
  });
});
