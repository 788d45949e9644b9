// JSON equality (JSON Schema 2020-12 §4.2.2): numbers by value (1 and 1.0 are one number), objects
// without regard to key order, arrays in order; an object never equals an array.

import { hasOwn } from './json.js';

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const aa = Array.isArray(a);
  if (aa !== Array.isArray(b)) return false;
  if (aa) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!hasOwn(b, k) || !jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/**
 * A string that two values share exactly when they are JSON-equal: what lets `uniqueItems` and large
 * `enum`s use a hash set (O(n) over the data) instead of comparing every pair (O(n²)).
 */
export function canonicalKey(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // -0 and 0 are one JSON number; JSON.stringify already prints both as "0".
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return '[' + value.map(canonicalKey).join(',') + ']';
      const keys = Object.keys(value).sort();
      let s = '{';
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        if (i > 0) s += ',';
        s += JSON.stringify(k) + ':' + canonicalKey((value as Record<string, unknown>)[k]);
      }
      return s + '}';
    }
    default:
      return 'u';
  }
}
