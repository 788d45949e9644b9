// What a validation answers: whether the value is valid, the issues found, annotation-only keywords, undecided checks.
/** One way an instance fails its schema. */
export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) to the failing part of the instance; `''` is the whole instance. */
  readonly instancePath: string;
  /** The keyword that failed: `'type'`, `'required'`, `'pattern'`, … */
  readonly keyword: string;
  /**
   * Where the keyword is: `#` plus a JSON Pointer into the compiled document, or an absolute URI with a
   * pointer fragment for a keyword in one of the `resources`.
   */
  readonly schemaPath: string;
  /** What is wrong, in words; never quotes more than a short excerpt of the instance. */
  readonly message: string;
}

/** The annotation-only keywords a schema can use: present, they are not checked (see `partial`). */
export type AnnotationKeyword = 'format' | 'contentMediaType' | 'contentEncoding' | 'contentSchema';

export interface ValidationResult {
  readonly valid: boolean;
  /** Empty when `valid`. Capped at `limits.maxErrors`. */
  readonly errors: readonly ValidationIssue[];
  /**
   * The annotation-only keywords the schema uses (MCP treats `format` and the `content*` keywords as
   * annotations): data may pass that a validator asserting them would refuse. Empty for most schemas.
   */
  readonly partial: readonly AnnotationKeyword[];
  /**
   * True when the validation could not decide: a check did not finish (a pattern past its deadline or
   * budget, a run-time limit). `valid` is then false, but the value was never found to break the schema:
   * `errors` holds one issue saying which check could not finish. A caller must not report it as a
   * mismatch.
   */
  readonly undecided?: true;
}
