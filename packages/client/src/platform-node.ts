// What the client does only where processes and files exist (Node, Deno, Bun): start stdio servers, read config files.
import type * as Stdio from '@mcpc/transport-stdio';

/** The stdio transport package (an optional peer), loaded when a stdio server is first opened. */
export function loadStdioPackage(): Promise<typeof Stdio> {
  return import('@mcpc/transport-stdio');
}

/** A file's text (UTF-8). */
export async function readTextFile(path: string | URL): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(path, 'utf8');
}
