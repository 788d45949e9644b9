// The host's roots, checked (`file://` URIs) before a server sees them.
import type { Root } from '../types/protocol.js';

/**
 * Checks the host's roots: each needs a `file://` URI (the spec requires that scheme) and, optionally, a
 * string name. Returns a frozen copy, so the host mutating its array later changes nothing behind the
 * client's back.
 */
export function checkRoots(roots: unknown): readonly Root[] {
  if (!Array.isArray(roots)) throw new TypeError('roots must be an array of { uri, name? }');
  const out: Root[] = [];
  roots.forEach((root: unknown, i) => {
    if (typeof root !== 'object' || root === null) throw new TypeError(`roots[${i}] must be an object { uri, name? }`);
    const { uri, name, _meta } = root as Record<string, unknown>;
    if (typeof uri !== 'string' || !uri.startsWith('file://'))
      throw new TypeError(`roots[${i}].uri must be a file:// URI`);
    if (name !== undefined && typeof name !== 'string') throw new TypeError(`roots[${i}].name must be a string`);
    const copy: { -readonly [K in keyof Root]: Root[K] } = { uri };
    if (name !== undefined) copy.name = name;
    if (typeof _meta === 'object' && _meta !== null) copy._meta = _meta as NonNullable<Root['_meta']>;
    out.push(Object.freeze(copy));
  });
  return Object.freeze(out);
}
