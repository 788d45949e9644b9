// `compile()`: a schema into an immutable Validator, with the built-in meta-schemas and run-time limits.
import { Compiler } from './compile.js';
import { SUPPORTED_DIALECTS, parseDialectOption } from './dialect.js';
import { EvaluationLimitError, PatternCheckError, UnsupportedDialectError, ValidationError } from './errors.js';
import type { JsonValue } from './json.js';
import { META_SCHEMAS } from './metaschemas.js';
import { DEFAULT_PATTERN_BUDGET_MS, DEFAULT_VALIDATION_BUDGET_MS, resolveLimits } from './options.js';
import type { CompileOptions } from './options.js';
import { LimitAborted } from './limit-abort.js';
import { EvaluationAborted, startPatternBudget } from './pattern.js';
import type { PatternAbortReason } from './pattern.js';
import { DEFAULT_BASE, Registry } from './registry.js';
import type { AnnotationKeyword, ValidationIssue, ValidationResult } from './result.js';
import { ROOT } from './runtime.js';
import type { Ctx, SchemaNode, Scope } from './runtime.js';
import { splitFragment } from './uri.js';

/** A compiled schema. Immutable and reusable; `validate` may be called any number of times. */
export interface Validator {
  /** Checks `instance`, reporting every issue (up to `limits.maxErrors`). */
  validate(instance: unknown): ValidationResult;
  /** Checks `instance` and stops at the first issue: no issue, path or message is built. */
  isValid(instance: unknown): boolean;
  /** Returns `instance` when it is valid, else throws a `ValidationError` with its issues. */
  validateOrThrow<T = unknown>(instance: unknown, what?: string): T;
  /** The annotation-only keywords the schema uses (`format`, `contentSchema`, …), as in every result. */
  readonly partial: readonly AnnotationKeyword[];
  /** The dialect the root was read as, by `$schema` URI. */
  readonly dialect: string;
}

/** Built-in documents: the three dialects' meta-schemas, by their `$id` (with and without `#`). */
let builtins: Map<string, JsonValue> | undefined;
function builtinResources(): Map<string, JsonValue> {
  if (builtins !== undefined) return builtins;
  builtins = new Map();
  for (const m of META_SCHEMAS) {
    const id = (m as { $id: string }).$id;
    builtins.set(splitFragment(id).base, m);
  }
  return builtins;
}

function externals(resources: CompileOptions['resources']): Map<string, JsonValue> {
  const out = new Map(builtinResources());
  if (resources === undefined) return out;
  const entries =
    resources instanceof Map ? resources.entries() : Object.entries(resources as Record<string, JsonValue>);
  for (const [uri, doc] of entries as Iterable<[string, JsonValue]>) out.set(splitFragment(uri).base, doc);
  return out;
}

/** The issue of an aborted evaluation; a run-time limit's abort is remembered so `validateOrThrow` can say so. */
const LIMIT_ISSUES = new WeakMap<ValidationIssue, LimitAborted>();
/** Likewise a pattern check that could not answer, so `validateOrThrow` throws `PatternCheckError`. */
const PATTERN_ISSUES = new WeakMap<ValidationIssue, PatternAbortReason>();
const ABORTED_KEYWORD = (e: EvaluationAborted): ValidationIssue => {
  const issue = { instancePath: '', keyword: e.keyword, schemaPath: e.schemaPath, message: e.message };
  if (e instanceof LimitAborted) LIMIT_ISSUES.set(issue, e);
  else if (e.reason !== undefined) PATTERN_ISSUES.set(issue, e.reason);
  return issue;
};

/**
 * Compiles a JSON Schema. Throws `UnsupportedDialectError`, `SchemaReferenceError`, `SchemaLimitError`
 * or `SchemaError` (all `SchemaError`s) when the schema cannot be used; never mutates `schema`.
 */
export function compile(schema: JsonValue | object, options: CompileOptions = {}): Validator {
  const limits = resolveLimits(options.limits);
  const budget = options.patternBudgetMs ?? DEFAULT_PATTERN_BUDGET_MS;
  if (typeof budget !== 'number' || !(budget > 0))
    throw new TypeError('patternBudgetMs must be a positive number (or Infinity)');
  const patternTotal = options.validationBudgetMs ?? DEFAULT_VALIDATION_BUDGET_MS;
  if (typeof patternTotal !== 'number' || !(patternTotal > 0))
    throw new TypeError('validationBudgetMs must be a positive number (or Infinity)');
  let dialect = undefined;
  if (options.dialect !== undefined) {
    dialect = parseDialectOption(options.dialect);
    if (dialect === undefined) throw new UnsupportedDialectError(options.dialect, SUPPORTED_DIALECTS);
  }
  const registry = new Registry(externals(options.resources), limits);
  const root = registry.indexDocument(schema as JsonValue, DEFAULT_BASE, '#', dialect);
  const compiler = new Compiler(registry, limits, budget);
  const info = typeof schema === 'object' && schema !== null ? registry.infoOf(schema) : undefined;
  const node = compiler.node(
    schema as JsonValue,
    info ?? { res: root, loc: '#', dialect: root.dialect, vocab: root.vocab, base: root.uri },
  );
  compiler.finish();
  return new CompiledValidator(
    node,
    compiler.dynamic,
    [...compiler.partial].sort(),
    limits.maxErrors,
    limits.maxRefDepth,
    root.dialect,
    limits.maxEvaluationSteps,
    patternTotal,
  );
}

class CompiledValidator implements Validator {
  readonly dialect: string;

  constructor(
    private readonly root: SchemaNode,
    private readonly dynamic: boolean,
    readonly partial: readonly AnnotationKeyword[],
    private readonly maxErrors: number,
    private readonly maxRefDepth: number,
    dialect: string,
    private readonly maxSteps: number,
    private readonly patternTotalMs: number,
  ) {
    this.dialect = dialect;
    Object.freeze(this.partial);
  }

  private run(instance: unknown, errors: ValidationIssue[] | null): boolean {
    const ctx: Ctx = { errors, maxErrors: this.maxErrors, depth: this.maxRefDepth, steps: this.maxSteps };
    const scope: Scope | null = this.dynamic ? { res: this.root.res, up: null } : null;
    startPatternBudget(this.patternTotalMs);
    try {
      return this.root.run(instance, ctx, errors === null ? null : ROOT, null, scope);
    } catch (e) {
      if (e instanceof EvaluationAborted) {
        if (errors !== null) {
          errors.length = 0;
          errors.push(ABORTED_KEYWORD(e));
        }
        return false;
      }
      // A value nested past the stack (a hostile 100,000-deep array compared by `const`) is not valid data
      // for any schema we can check; report it rather than crash the caller.
      if (e instanceof RangeError) {
        if (errors !== null) {
          errors.length = 0;
          errors.push({
            instancePath: '',
            keyword: 'limits',
            schemaPath: '#',
            message: `the value is nested too deeply to be validated (${e.message})`,
          });
        }
        return false;
      }
      throw e;
    }
  }

  validate(instance: unknown): ValidationResult {
    const errors: ValidationIssue[] = [];
    const valid = this.run(instance, errors);
    // A check may fail without an issue only past maxErrors; keep the result self-consistent.
    if (valid) return { valid, errors: [], partial: this.partial };
    // A check that could not finish decided nothing: said so, apart from a value that breaks the schema.
    const only = errors.length === 1 ? errors[0]! : undefined;
    const undecided = only !== undefined && (LIMIT_ISSUES.has(only) || PATTERN_ISSUES.has(only));
    return undecided ? { valid, errors, partial: this.partial, undecided } : { valid, errors, partial: this.partial };
  }

  isValid(instance: unknown): boolean {
    return this.run(instance, null);
  }

  validateOrThrow<T = unknown>(instance: unknown, what?: string): T {
    const r = this.validate(instance);
    const limit = r.errors.length === 1 ? LIMIT_ISSUES.get(r.errors[0] as ValidationIssue) : undefined;
    if (limit !== undefined) throw new EvaluationLimitError(limit.limit, limit.value, r.errors, r.partial, what);
    const pattern = r.errors.length === 1 ? PATTERN_ISSUES.get(r.errors[0] as ValidationIssue) : undefined;
    if (pattern !== undefined) throw new PatternCheckError(pattern, r.errors, r.partial, what);
    if (!r.valid) throw new ValidationError(r.errors, r.partial, what);
    return instance as T;
  }
}
