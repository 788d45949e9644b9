// JSON equality (JSON Schema 2020-12 §4.2.2): numbers by value, objects without regard to key order, arrays in order.
//
// 1 and 1.0 are one number; an object never equals an array. Both functions walk with an explicit stack, not recursion:
// an instance may nest as deep as its parser allowed, and the answer must not depend on how much call stack is left.

import { hasOwn } from './json.js';

export function jsonEqual(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    const xa = Array.isArray(x);
    if (xa !== Array.isArray(y)) return false;
    if (xa) {
      const xs = x as unknown[];
      const ys = y as unknown[];
      if (xs.length !== ys.length) return false;
      for (let i = xs.length - 1; i >= 0; i--) pending.push(xs[i], ys[i]);
      continue;
    }
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const k of keys) {
      if (!hasOwn(y, k)) return false;
      pending.push((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]);
    }
  }
  return true;
}

/** A piece of the key still to write: text as is, or a value to expand. */
type Piece = { readonly text: string } | { readonly value: unknown };

/**
 * A string that two values share exactly when they are JSON-equal: what lets `uniqueItems` and large
 * `enum`s use a hash set (O(n) over the data) instead of comparing every pair (O(n²)).
 */
export function canonicalKey(value: unknown): string {
  let out = '';
  const pending: Piece[] = [{ value }];
  for (let piece = pending.pop(); piece !== undefined; piece = pending.pop()) {
    if ('text' in piece) {
      out += piece.text;
      continue;
    }
    const v = piece.value;
    switch (typeof v) {
      case 'string':
        out += JSON.stringify(v);
        break;
      case 'number':
        // -0 and 0 are one JSON number; JSON.stringify already prints both as "0".
        out += JSON.stringify(v);
        break;
      case 'boolean':
        out += v ? 'true' : 'false';
        break;
      case 'object': {
        if (v === null) {
          out += 'null';
          break;
        }
        // Pushed in reverse: the stack pops them in order.
        if (Array.isArray(v)) {
          out += '[';
          pending.push({ text: ']' });
          for (let i = v.length - 1; i >= 0; i--) {
            pending.push({ value: v[i] as unknown });
            if (i > 0) pending.push({ text: ',' });
          }
          break;
        }
        const keys = Object.keys(v).sort();
        out += '{';
        pending.push({ text: '}' });
        for (let i = keys.length - 1; i >= 0; i--) {
          const k = keys[i] as string;
          pending.push({ value: (v as Record<string, unknown>)[k] });
          pending.push({ text: (i > 0 ? ',' : '') + JSON.stringify(k) + ':' });
        }
        break;
      }
      default:
        out += 'u';
    }
  }
  return out;
}
