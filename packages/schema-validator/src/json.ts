// JSON values as the validator reads them: their types, the object test, own-key lookup and a nesting-depth check.
/** A JSON value, as `JSON.parse` produces it. Schemas and instances are read as this, never written. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON object (not an array, not null). */
export type JsonObject = { readonly [key: string]: JsonValue };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Own-property lookup that ignores the prototype chain, so `"constructor"` or `"__proto__"` is just a name. */
export const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/** Whether `value` nests arrays and objects more than `max` levels deep; iterative, so any depth is safe. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  for (let top = pending.pop(); top !== undefined; top = pending.pop()) {
    const { v, depth } = top;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) pending.push({ v: child, depth: depth + 1 });
  }
  return false;
}
