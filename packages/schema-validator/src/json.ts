/** A JSON value, as `JSON.parse` produces it. Schemas and instances are read as this, never written. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON object (not an array, not null). */
export type JsonObject = { readonly [key: string]: JsonValue };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Own-property lookup that ignores the prototype chain, so `"constructor"` or `"__proto__"` is just a name. */
export const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);
