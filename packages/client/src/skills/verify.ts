// A skill file's bytes checked against its manifest item: the size first, then the SHA-256 digest (WebCrypto).
import { SkillVerificationError } from '../errors/skills.js';
import type { SkillFile } from './types.js';

/** `sha256:` and the lowercase hex SHA-256 of `bytes` (Web Crypto: Node, browsers and Workers alike). */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of hash) hex += b.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

/**
 * Throws `SkillVerificationError` unless `bytes` are the file the manifest item describes. The size is
 * compared first: a read of the wrong length is refused without hashing it.
 */
export async function verifyFile(
  bytes: Uint8Array,
  file: SkillFile,
  where: { readonly server: string; readonly skill: string },
): Promise<void> {
  if (bytes.byteLength !== file.size)
    throw new SkillVerificationError(
      'size',
      where.server,
      where.skill,
      file.uri,
      `read ${bytes.byteLength} bytes; the entry says ${file.size}`,
    );
  const digest = await sha256(bytes);
  if (digest !== file.digest)
    throw new SkillVerificationError(
      'digest',
      where.server,
      where.skill,
      file.uri,
      `the bytes hash to ${digest}; the entry says ${file.digest}`,
    );
}
