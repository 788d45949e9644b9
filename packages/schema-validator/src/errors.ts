// The validator's errors: unusable schemas (dialect, references, limits) and failed or aborted validations.
import { McpError } from '@mcpc/jsonrpc';
import { brand } from './brand.js';
import { SchemaErrorCode } from './codes.js';
import type { PatternAbortReason } from './pattern.js';
import type { ValidationIssue } from './result.js';

/**
 * A schema that cannot be used: malformed keyword values, colliding `$id`s or anchors, a pattern that is
 * not ECMA-262, a `$ref` cycle that never reaches the instance. Thrown by `compile`, never by `validate`.
 * `schemaPath` is where in the document the problem is, when there is one place.
 */
export class SchemaError extends McpError {
  static {
    brand(this, 'SchemaError');
  }
  readonly schemaPath: string | undefined;

  constructor(message: string, options?: { code?: string; schemaPath?: string; cause?: unknown }) {
    super(message, { code: options?.code ?? SchemaErrorCode.Invalid, cause: options?.cause });
    this.schemaPath = options?.schemaPath;
  }
}

/** The schema (or `options.dialect`) names a JSON Schema dialect this package does not implement. */
export class UnsupportedDialectError extends SchemaError {
  static {
    brand(this, 'UnsupportedDialectError');
  }
  /** The `$schema` URI (or dialect name) as written. */
  readonly dialect: string;
  /** The dialects that are supported, by their `$schema` URI. */
  readonly supported: readonly string[];

  constructor(dialect: string, supported: readonly string[], schemaPath?: string) {
    super(`the JSON Schema dialect "${dialect}" is not supported (supported: ${supported.join(', ')})`, {
      code: SchemaErrorCode.UnsupportedDialect,
      ...(schemaPath === undefined ? {} : { schemaPath }),
    });
    this.dialect = dialect;
    this.supported = supported;
  }
}

/**
 * A `$ref` (or `$dynamicRef`, `$recursiveRef`, `$schema`) that does not resolve inside the document or the
 * `resources` the caller supplied. Nothing is ever fetched, so such a schema is refused at compile time
 * rather than being treated as permissive. `external` is true when the reference names another resource
 * (a network URI, another file), false when it points into a resource that is present but lacks the target.
 */
export class SchemaReferenceError extends SchemaError {
  static {
    brand(this, 'SchemaReferenceError');
  }
  /** The reference as written in the schema. */
  readonly ref: string;
  /** The reference resolved against its base URI. */
  readonly uri: string;
  readonly external: boolean;

  constructor(ref: string, uri: string, external: boolean, schemaPath: string) {
    super(
      external
        ? `$ref "${ref}" at ${schemaPath} names a resource the schema does not contain (${uri}); references are never fetched — pass the document in \`resources\``
        : `$ref "${ref}" at ${schemaPath} does not resolve: ${uri} has no such location`,
      { code: SchemaErrorCode.UnresolvedRef, schemaPath },
    );
    this.ref = ref;
    this.uri = uri;
    this.external = external;
  }
}

/** A schema past one of the compile-time `limits` (size, depth, pattern length, reference chain). */
export class SchemaLimitError extends SchemaError {
  static {
    brand(this, 'SchemaLimitError');
  }
  /** Which limit: `'maxSchemaNodes'`, `'maxSchemaDepth'`, `'maxPatternLength'`, `'maxRefChain'`. */
  readonly limit: string;
  readonly value: number;

  constructor(limit: string, value: number, message: string, schemaPath?: string) {
    super(message, { code: SchemaErrorCode.Limit, ...(schemaPath === undefined ? {} : { schemaPath }) });
    this.limit = limit;
    this.value = value;
  }
}

/** An instance that does not satisfy its schema, thrown by `validateOrThrow`. */
export class ValidationError extends McpError {
  static {
    brand(this, 'ValidationError');
  }
  readonly errors: readonly ValidationIssue[];
  /** The annotation-only keywords the schema uses (see `ValidationResult.partial`). */
  readonly partial: readonly string[];

  constructor(
    errors: readonly ValidationIssue[],
    partial: readonly string[],
    what = 'value',
    code: SchemaErrorCode = SchemaErrorCode.ValidationFailed,
  ) {
    const first = errors[0];
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    super(
      first === undefined
        ? `the ${what} does not match its schema`
        : `the ${what} does not match its schema: ${first.instancePath || '(root)'} ${first.message}${more}`,
      { code },
    );
    this.errors = errors;
    this.partial = partial;
  }
}

/**
 * Thrown by `validateOrThrow` when the evaluation passed a run-time limit (`limits.maxEvaluationSteps`,
 * `limits.maxRefDepth`): the value could not be validated, which says nothing about it. A
 * `ValidationError` (`validate` and `isValid` report the same as a failed result), with its own code.
 */
export class EvaluationLimitError extends ValidationError {
  static {
    brand(this, 'EvaluationLimitError');
  }
  /** `'maxEvaluationSteps'` or `'maxRefDepth'`. */
  readonly limit: string;
  readonly value: number;

  constructor(
    limit: string,
    value: number,
    errors: readonly ValidationIssue[],
    partial: readonly string[],
    what = 'value',
  ) {
    super(errors, partial, what, SchemaErrorCode.EvaluationLimit);
    this.message = `the ${what} could not be validated: ${errors[0]?.message ?? `limits.${limit} was passed`}`;
    this.limit = limit;
    this.value = value;
  }
}

/**
 * Thrown by `validateOrThrow` when a `pattern` or `patternProperties` check could not answer: `reason`
 * says why (`'timeout'`: past `patternBudgetMs`, counted in steps; `'budget'`: past `validationBudgetMs`;
 * `'overflow'`: the match needed more backtracking memory than a check may use, or overflowed V8's stack;
 * `'too-costly'`: a pattern past its bound the bounded matchers cannot read). The value could not be validated, which says nothing
 * about it. A `ValidationError` (`validate` and `isValid` report the same as a failed result).
 */
export class PatternCheckError extends ValidationError {
  static {
    brand(this, 'PatternCheckError');
  }
  readonly reason: PatternAbortReason;

  constructor(
    reason: PatternAbortReason,
    errors: readonly ValidationIssue[],
    partial: readonly string[],
    what = 'value',
  ) {
    super(errors, partial, what, SchemaErrorCode.PatternUnchecked);
    this.message = `the ${what} could not be validated: ${errors[0]?.message ?? 'a pattern check could not finish'}`;
    this.reason = reason;
  }
}

// This package's errors in `AnyMcpcError` (see @mcpc/jsonrpc's `McpcErrors`).
declare module '@mcpc/jsonrpc' {
  interface McpcErrors {
    '@mcpc/schema-validator.EvaluationLimitError': EvaluationLimitError & {
      readonly code: typeof SchemaErrorCode.EvaluationLimit;
    };
    '@mcpc/schema-validator.PatternCheckError': PatternCheckError & {
      readonly code: typeof SchemaErrorCode.PatternUnchecked;
    };
    '@mcpc/schema-validator.SchemaError': SchemaError & {
      readonly code:
        | typeof SchemaErrorCode.Invalid
        | typeof SchemaErrorCode.DuplicateId
        | typeof SchemaErrorCode.DuplicateAnchor
        | typeof SchemaErrorCode.RefCycle
        | typeof SchemaErrorCode.PatternUnbounded
        | typeof SchemaErrorCode.UnsupportedVocabulary;
    };
    '@mcpc/schema-validator.SchemaLimitError': SchemaLimitError & { readonly code: typeof SchemaErrorCode.Limit };
    '@mcpc/schema-validator.SchemaReferenceError': SchemaReferenceError & {
      readonly code: typeof SchemaErrorCode.UnresolvedRef;
    };
    '@mcpc/schema-validator.UnsupportedDialectError': UnsupportedDialectError & {
      readonly code: typeof SchemaErrorCode.UnsupportedDialect;
    };
    '@mcpc/schema-validator.ValidationError': ValidationError & {
      readonly code: typeof SchemaErrorCode.ValidationFailed;
    };
  }
}
