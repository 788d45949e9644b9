// The public entry of @mcpc/schema-validator.
export { compile, type Validator } from './validator.js';
export { SchemaCache } from './cache.js';
export type { CompileOptions, Limits } from './options.js';
export { DEFAULT_LIMITS, DEFAULT_PATTERN_BUDGET_MS, DEFAULT_VALIDATION_BUDGET_MS } from './options.js';
export type { ValidationResult, ValidationIssue, AnnotationKeyword } from './result.js';
export type { Dialect } from './dialect.js';
export { SUPPORTED_DIALECTS } from './dialect.js';
export type { JsonValue, JsonObject } from './json.js';
export {
  SchemaError,
  UnsupportedDialectError,
  SchemaReferenceError,
  SchemaLimitError,
  ValidationError,
  EvaluationLimitError,
  PatternCheckError,
} from './errors.js';
export { SchemaErrorCode } from './codes.js';
export { stopPatternWorker } from './pattern.js';
