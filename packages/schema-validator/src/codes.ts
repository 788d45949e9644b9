// The `code` strings of the errors @mcpc/schema-validator raises, one constant each: match on these, not on literals.

export const SchemaErrorCode = Object.freeze({
  /** `SchemaError`: a malformed keyword value, or another unusable schema. */
  Invalid: 'MCPC_SCHEMA_INVALID',
  /** `SchemaError`: two resources claim the same `$id`. */
  DuplicateId: 'MCPC_SCHEMA_DUPLICATE_ID',
  /** `SchemaError`: two anchors of one resource share a name. */
  DuplicateAnchor: 'MCPC_SCHEMA_DUPLICATE_ANCHOR',
  /** `SchemaError`: the meta-schema requires a vocabulary this package does not implement. */
  UnsupportedVocabulary: 'MCPC_SCHEMA_UNSUPPORTED_VOCABULARY',
  /** `SchemaError`: a `$ref` cycle that never reaches the instance. */
  RefCycle: 'MCPC_SCHEMA_REF_CYCLE',
  /** `SchemaError`: a pattern whose matching cannot be bounded. No longer raised (every pattern runs on counted steps); kept for code that checks it. */
  PatternUnbounded: 'MCPC_SCHEMA_PATTERN_UNBOUNDED',
  /** `UnsupportedDialectError`. */
  UnsupportedDialect: 'MCPC_SCHEMA_UNSUPPORTED_DIALECT',
  /** `SchemaReferenceError`. */
  UnresolvedRef: 'MCPC_SCHEMA_UNRESOLVED_REF',
  /** `SchemaLimitError`. */
  Limit: 'MCPC_SCHEMA_LIMIT',
  /** `ValidationError`: the instance does not satisfy its schema. */
  ValidationFailed: 'MCPC_VALIDATION_FAILED',
  /** `EvaluationLimitError`. */
  EvaluationLimit: 'MCPC_SCHEMA_EVALUATION_LIMIT',
  /** `PatternCheckError`. */
  PatternUnchecked: 'MCPC_SCHEMA_PATTERN_UNCHECKED',
} as const);
export type SchemaErrorCode = (typeof SchemaErrorCode)[keyof typeof SchemaErrorCode];
