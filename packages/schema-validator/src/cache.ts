// SchemaCache: compiled validators keyed by schema identity, for one set of options.
import type { JsonValue } from './json.js';
import type { CompileOptions } from './options.js';
import { compile } from './validator.js';
import type { Validator } from './validator.js';

/**
 * Compiled validators keyed by the schema object's identity (a `WeakMap`): a client compiles each tool's
 * `inputSchema`/`outputSchema` once per tool definition, and a definition that is dropped (a refreshed
 * `tools/list`) takes its validator with it. A schema that fails to compile is remembered too, so the
 * same error is rethrown without compiling again.
 *
 * One cache applies one set of options; keep one cache per set of options.
 */
export class SchemaCache {
  private readonly compiled = new WeakMap<object, Validator | { error: unknown }>();
  private readonly primitives = new Map<boolean, Validator>();

  constructor(private readonly options: CompileOptions = {}) {}

  /** The validator for `schema`, compiled on first use. Throws what `compile` throws. */
  get(schema: JsonValue | object): Validator {
    if (typeof schema === 'boolean') {
      let v = this.primitives.get(schema);
      if (v === undefined) this.primitives.set(schema, (v = compile(schema, this.options)));
      return v;
    }
    if (typeof schema !== 'object' || schema === null) return compile(schema, this.options);
    const hit = this.compiled.get(schema);
    if (hit !== undefined) {
      if ('error' in hit) throw hit.error;
      return hit;
    }
    try {
      const v = compile(schema, this.options);
      this.compiled.set(schema, v);
      return v;
    } catch (error) {
      this.compiled.set(schema, { error });
      throw error;
    }
  }

  /** Whether `schema` has been compiled (or failed to) by this cache. */
  has(schema: object): boolean {
    return this.compiled.has(schema);
  }

  /** Forgets `schema`'s validator. */
  delete(schema: object): boolean {
    return this.compiled.delete(schema);
  }
}
