// Compile options and the limits that bound a hostile schema or instance, with their defaults.
import type { Dialect } from './dialect.js';
import type { JsonValue } from './json.js';

/** Bounds that keep a hostile schema or instance from exhausting memory, the stack or the event loop. */
export interface Limits {
  /** Subschemas one compile may visit, across the document and the resources it reaches. Default 50,000. */
  readonly maxSchemaNodes?: number;
  /** Nesting depth of subschemas inside one document, and of `const` and `enum` values. Default 128. */
  readonly maxSchemaDepth?: number;
  /** Longest `pattern` / `patternProperties` source, in UTF-16 units. Default 10,000. */
  readonly maxPatternLength?: number;
  /**
   * References (`$ref`, `$dynamicRef`, `$recursiveRef`) one evaluation may nest, and the longest chain of
   * references that apply to one instance location without descending into it (checked by `compile`:
   * `SchemaLimitError` with `limit: 'maxRefChain'`). Default 256.
   */
  readonly maxRefDepth?: number;
  /** Issues one `validate` reports at most. Default 100. */
  readonly maxErrors?: number;
  /**
   * References (`$ref`, `$dynamicRef`, `$recursiveRef`) one validation may follow in total. Bounds the
   * work of a schema whose references fan out where results cannot be memoised (`allOf` of two `$ref`s
   * to the next level, 40 levels deep under `unevaluatedProperties`, is 2⁴⁰ evaluations). Past it the
   * validation fails with an issue naming the limit. Default 10,000,000.
   */
  readonly maxEvaluationSteps?: number;
}

export interface CompileOptions {
  /**
   * How to read the schema: `'2020-12'`, `'2019-09'`, `'draft-07'` or a `$schema` URI of one of them.
   * Absent, the root's `$schema` decides, and without one MCP's default, 2020-12.
   */
  readonly dialect?: Dialect | (string & {});
  /**
   * Documents the host already holds, by URI, for `$ref`s that leave the schema (and for `$schema`
   * naming a custom meta-schema). Nothing is ever fetched. The three dialects' meta-schemas are built in.
   */
  readonly resources?: Readonly<Record<string, JsonValue>> | ReadonlyMap<string, JsonValue>;
  /**
   * Time one `pattern` check may take when the pattern is not provably cheap (see the README), in ms.
   * Past it the check fails with a `pattern` issue. Default 100. `Infinity` runs every pattern on the
   * calling thread with no deadline.
   */
  readonly patternBudgetMs?: number;
  /**
   * Time all the pattern checks of one `validate`/`isValid` may take together, in ms: a value with many
   * strings under a slow pattern pays this once, not `patternBudgetMs` per string (checks proven to take
   * microseconds are not timed). Past it the validation fails with a `pattern` issue (`validateOrThrow`:
   * `PatternCheckError`). Default 1000. `Infinity` leaves only the per-check budget.
   */
  readonly validationBudgetMs?: number;
  readonly limits?: Limits;
}

export interface ResolvedLimits {
  readonly maxSchemaNodes: number;
  readonly maxSchemaDepth: number;
  readonly maxPatternLength: number;
  readonly maxRefDepth: number;
  readonly maxErrors: number;
  readonly maxEvaluationSteps: number;
}

export const DEFAULT_LIMITS: ResolvedLimits = {
  maxSchemaNodes: 50_000,
  maxSchemaDepth: 128,
  maxPatternLength: 10_000,
  maxRefDepth: 256,
  maxErrors: 100,
  maxEvaluationSteps: 10_000_000,
};

export const DEFAULT_PATTERN_BUDGET_MS = 100;
export const DEFAULT_VALIDATION_BUDGET_MS = 1000;

export function resolveLimits(limits: Limits | undefined): ResolvedLimits {
  const pick = (name: keyof ResolvedLimits): number => {
    const v = limits?.[name];
    if (v === undefined) return DEFAULT_LIMITS[name];
    if (typeof v !== 'number' || !(v >= 1)) throw new TypeError(`limits.${name} must be a positive number`);
    return v;
  };
  return {
    maxSchemaNodes: pick('maxSchemaNodes'),
    maxSchemaDepth: pick('maxSchemaDepth'),
    maxPatternLength: pick('maxPatternLength'),
    maxRefDepth: pick('maxRefDepth'),
    maxErrors: pick('maxErrors'),
    maxEvaluationSteps: pick('maxEvaluationSteps'),
  };
}
