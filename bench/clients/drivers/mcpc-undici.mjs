// mcpc with undici installed beside it: the Streamable HTTP transport's `'auto'` then runs on undici.
//
// undici is not imported up front: the transport loads it on its first request, so the connect row includes its import
// (what a user with undici installed pays); later scenarios run after it. HTTP only.
import { connect as mcpcConnect } from './mcpc.mjs';

export const label = 'mcpc + undici';

/** @param {{ transport: 'http', url: string }} target */
export function connect(target) {
  if (target.transport !== 'http') throw new Error('mcpc-undici runs over HTTP only (stdio is the mcpc row)');
  // 'auto' explicitly: `undefined` would take mcpc.mjs's default, `'node'`, and this row would not run on undici.
  return mcpcConnect(target, 'auto');
}
