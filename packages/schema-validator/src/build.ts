// The interface a keyword compiler sees while one subschema is compiled.
//
// It says where the subschema is, how to get nodes for its children and reference targets, and where to put its checks.

import type { Dialect, Vocabulary } from './dialect.js';
import { SchemaError, SchemaLimitError } from './errors.js';
import { nestsDeeperThan } from './json.js';
import type { JsonObject, JsonValue } from './json.js';
import type { PatternTest } from './pattern.js';
import type { SchemaInfo } from './registry.js';
import type { AnnotationKeyword } from './result.js';
import type { Check, SchemaNode } from './runtime.js';

/** Which instances a check applies to; checks for other types are never called. */
export type Bucket = 'any' | 'string' | 'number' | 'object' | 'array';

export interface Build {
  readonly schema: JsonObject;
  readonly info: SchemaInfo;
  readonly loc: string;
  readonly dialect: Dialect;
  readonly maxRefDepth: number;
  /** `limits.maxSchemaDepth`: also bounds the nesting of schema values such as `const` and `enum`. */
  readonly maxSchemaDepth: number;
  readonly maxEvaluationSteps: number;
  /** The keyword is present and its vocabulary is in force. */
  has(keyword: string): boolean;
  /** The node for a subschema at `loc + '/' + at`. */
  sub(value: JsonValue, at: string): SchemaNode;
  /**
   * Whether a reference to `node` should memoise its result (`keywords/memo.ts`): set once compiling is
   * done, true when several in-place paths may reach `node` and the schema uses no dynamic scope.
   */
  memoised(node: SchemaNode): { readonly on: boolean };
  /**
   * Records that `node` applies to the same instance location (for reference-cycle detection and the
   * reference-chain bound); `ref` when it is reached by following a reference.
   */
  inPlace(node: SchemaNode, ref?: boolean): void;
  /** Adds a check. `last` checks (the unevaluated keywords) run after all others of the subschema. */
  on(bucket: Bucket, check: Check): void;
  last(check: Check): void;
  /** A subschema with an `unevaluated*` keyword collects annotations from its in-place applicators. */
  collectsAnnotations(): void;
  /** A bounded matcher for a pattern; throws `SchemaError` when it is not an ECMA-262 pattern. */
  pattern(source: JsonValue, at: string): PatternTest;
  /** The node a reference resolves to (throws `SchemaReferenceError`), and the fragment it resolved. */
  ref(
    ref: string,
    at: string,
  ): { node: SchemaNode; value: JsonValue; info: SchemaInfo; fragment: string; plainName: boolean };
  /** Records the use of an annotation-only keyword: results are `partial`. */
  annotation(keyword: AnnotationKeyword): void;
  /**
   * Marks the compilation as using the dynamic scope (`$dynamicRef`, `$recursiveRef`); `name` is the
   * dynamic anchor a `$dynamicRef` may re-bind to.
   */
  usesDynamicScope(name: string | undefined): void;
}

export const VOCABULARY_OF = (dialect: Dialect, vocab: ReadonlySet<Vocabulary>, v: Vocabulary): boolean =>
  dialect === 'draft-07' || vocab.has(v);

/** Throws the error for a keyword whose value is not of the type JSON Schema gives it. */
export function malformed(b: Build, keyword: string, expected: string): never {
  throw new SchemaError(`${keyword} at ${b.loc} must be ${expected}`, { schemaPath: `${b.loc}/${keyword}` });
}

export const isNonNegativeInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * Refuses a schema value (`const`, `enum`) nested deeper than `limits.maxSchemaDepth`: it would be
 * printed in messages and compared against instances, and no real schema needs one.
 */
export function boundedValue(b: Build, keyword: string, value: JsonValue): void {
  // A value `maxSchemaDepth` deep as a whole sits one level down inside `enum`'s array.
  const max = keyword === 'enum' ? b.maxSchemaDepth + 1 : b.maxSchemaDepth;
  if (nestsDeeperThan(value, max)) {
    throw new SchemaLimitError(
      'maxSchemaDepth',
      b.maxSchemaDepth,
      `${keyword} at ${b.loc} nests deeper than ${b.maxSchemaDepth} levels`,
      `${b.loc}/${keyword}`,
    );
  }
}
