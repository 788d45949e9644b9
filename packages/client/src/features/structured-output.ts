// Tool results against their `outputSchema`: the validation mode and the compiled schemas per tool.
import { escapeForLog, safeLog, type Logger } from '@mcpc/jsonrpc';
import type * as SchemaValidator from '@mcpc/schema-validator';
import type { SchemaCache, Validator } from '@mcpc/schema-validator';
import { StructuredContentError, ToolSchemaError } from '../errors.js';
import type { CallToolResult, Tool } from '../types/entities.js';

/**
 * How `callTool` treats a result against the tool's `outputSchema`: `'warn'` logs a violation and
 * returns the result, `'strict'` throws `StructuredContentError`, `'off'` reads no schema at all.
 */
export type StructuredContentValidation = 'warn' | 'strict' | 'off';

const MODES: ReadonlySet<unknown> = new Set(['warn', 'strict', 'off']);

export function checkValidationMode(mode: unknown, where: string): StructuredContentValidation | undefined {
  if (mode === undefined) return undefined;
  if (!MODES.has(mode)) throw new TypeError(`${where} must be 'warn', 'strict' or 'off'`);
  return mode as StructuredContentValidation;
}

type ValidatorModule = typeof SchemaValidator;
let validatorModule: ValidatorModule | undefined;
let loading: Promise<ValidatorModule> | undefined;

// Loaded on the first call that validates, like the transports: the validator's pattern worker needs
// `node:worker_threads`, and the client's entry point must load where there is none.
function loadValidator(): ValidatorModule | Promise<ValidatorModule> {
  return (
    validatorModule ??
    (loading ??= import('@mcpc/schema-validator').then(
      (m) => (validatorModule = m),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ))
  );
}

/**
 * What to do with the result of one `tools/call`, settled before the request was sent: the definition
 * it went out under, and how strictly. A list_changed that arrives while the call is in flight changes
 * nothing here: the server answered under the definition the client sent against.
 */
export interface OutputCheck {
  readonly tool: Tool;
  readonly validator: Validator;
  readonly mode: 'warn' | 'strict';
}

/**
 * One server's tool schemas, compiled once per schema object (a refreshed `tools/list` brings new
 * objects, so a list that changed brings new validators and the old ones go with the old list).
 */
export class ToolSchemas {
  readonly #server: string;
  readonly #logger: Logger;
  #cache: SchemaCache | undefined;
  /** Each definition's check per mode, once settled (`null`: nothing to check). */
  readonly #prepared = new WeakMap<Tool, { warn?: OutputCheck | null; strict?: OutputCheck | null }>();
  /** Schemas already reported (unusable, or checked only in part): one note per definition. */
  readonly #noted = new WeakSet<object>();

  constructor(server: string, logger: Logger) {
    this.#server = server;
    this.#logger = logger;
  }

  /**
   * Runs before a call under `tool` is sent. Throws `ToolSchemaError` (so nothing is sent) when either
   * schema declares a dialect this client cannot read, or — strict mode — the output schema is unusable;
   * warns, once per definition, about any other unusable schema (an input schema's call still goes
   * out: the server owns argument validation). Returns the check for the result, if there is one —
   * synchronously once the validator is loaded, so that a call need not wait a turn for it.
   */
  prepare(tool: Tool, mode: 'warn' | 'strict'): OutputCheck | undefined | Promise<OutputCheck | undefined> {
    const prepared = this.#prepared.get(tool);
    const known = mode === 'warn' ? prepared?.warn : prepared?.strict;
    if (known !== undefined) return known ?? undefined;
    const validators = loadValidator();
    if (validators instanceof Promise) return validators.then((v) => this.#prepare(v, tool, mode));
    return this.#prepare(validators, tool, mode);
  }

  #prepare(validators: ValidatorModule, tool: Tool, mode: 'warn' | 'strict'): OutputCheck | undefined {
    const cache = (this.#cache ??= new validators.SchemaCache());
    this.#compile(validators, cache, tool, 'inputSchema', mode);
    let check: OutputCheck | undefined;
    if (tool.outputSchema !== undefined) {
      const validator = this.#compile(validators, cache, tool, 'outputSchema', mode);
      if (validator !== undefined) {
        if (validator.partial.length > 0 && this.#firstNote(tool.outputSchema)) {
          this.#log(
            'debug',
            `tool "${escapeForLog(tool.name, 100)}": validation is partial: its outputSchema uses ${validator.partial.join(', ')}, which are annotations and are not checked`,
          );
        }
        check = { tool, validator, mode };
      }
    }
    // Settled for this definition (a throw above is not: it is raised again on every call).
    const entry = this.#prepared.get(tool) ?? {};
    if (mode === 'warn') entry.warn = check ?? null;
    else entry.strict = check ?? null;
    this.#prepared.set(tool, entry);
    return check;
  }

  /**
   * Checks a result against the check its call was sent with. `note` says why a present value did not
   * count as structured content (a non-object on a revision before 2026-07-28). `isError` results are
   * not checked: they report a failure, not the tool's output.
   */
  check(check: OutputCheck, result: CallToolResult, note: string | undefined): void {
    if (result.isError === true) return;
    const value = result.structuredContent;
    let finding: ConstructorParameters<typeof StructuredContentError>[2];
    if (value === undefined) {
      finding = {
        reason: 'missing',
        errors: [],
        partial: check.validator.partial,
        ...(note !== undefined && { note }),
      };
    } else {
      // One validation: running `isValid` first would pay for every pattern check twice on a mismatch.
      const { valid, errors, partial, undecided } = check.validator.validate(value);
      if (valid) return;
      // A check that could not finish found nothing wrong: said so, never as a mismatch.
      finding = { reason: undecided === true ? 'undecided' : 'mismatch', errors, partial };
    }
    const error = new StructuredContentError(this.#server, check.tool.name, finding, result);
    if (check.mode === 'strict') throw error;
    safeLog(
      this.#logger,
      'warn',
      `[mcpc] ${error.message}; the result is returned as received (validateStructuredContent: 'strict' refuses it)`,
    );
  }

  #compile(
    validators: ValidatorModule,
    cache: SchemaCache,
    tool: Tool,
    which: 'inputSchema' | 'outputSchema',
    mode: 'warn' | 'strict',
  ): Validator | undefined {
    const schema = tool[which] as object;
    try {
      return cache.get(schema);
    } catch (error) {
      if (error instanceof validators.UnsupportedDialectError) {
        throw new ToolSchemaError(this.#server, tool.name, which, {
          reason: 'unsupported-dialect',
          dialect: error.dialect,
          supported: error.supported,
          ...(error.schemaPath !== undefined && { schemaPath: error.schemaPath }),
          cause: error,
        });
      }
      const schemaPath = error instanceof validators.SchemaError ? error.schemaPath : undefined;
      if (which === 'outputSchema' && mode === 'strict') {
        throw new ToolSchemaError(this.#server, tool.name, which, {
          reason: 'unusable',
          supported: validators.SUPPORTED_DIALECTS,
          ...(schemaPath !== undefined && { schemaPath }),
          cause: error,
        });
      }
      if (this.#firstNote(schema)) {
        const consequence =
          which === 'inputSchema'
            ? 'the call is sent anyway: the server validates its arguments'
            : 'its results are not validated';
        this.#log(
          'warn',
          `tool "${escapeForLog(tool.name, 100)}": its ${which} cannot be used (${escapeForLog(error instanceof Error ? error.message : String(error), 300)}); ${consequence}`,
        );
      }
      return undefined;
    }
  }

  #firstNote(schema: object): boolean {
    if (this.#noted.has(schema)) return false;
    this.#noted.add(schema);
    return true;
  }

  #log(level: 'debug' | 'warn', message: string): void {
    safeLog(this.#logger, level, `[mcpc] server "${escapeForLog(this.#server, 100)}": ${message}`);
  }
}
