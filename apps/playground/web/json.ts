// JSON as the page reads it from the wire: a value type, and a guard to read an unknown value key by key.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Obj = Record<string, unknown>;

/** Narrow an unknown (wire) value to something readable key by key: any non-null object, arrays included. */
export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null;
}
