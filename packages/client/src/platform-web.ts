// Where there are no processes and no files (browsers, Workers): stdio servers and config files are refused, with why.
import type * as Stdio from '@mcpc/transport-stdio';

/** Set on what this module rejects with: the caller says so as it is, with no "install it" advice. */
export const NOT_HERE = 'MCPC_NOT_IN_THIS_RUNTIME';

export function loadStdioPackage(): Promise<typeof Stdio> {
  return Promise.reject(
    Object.assign(
      new Error(
        'this runtime cannot start processes: a stdio server needs Node, Deno or Bun (use an HTTP server here)',
      ),
      { code: NOT_HERE },
    ),
  );
}

export function readTextFile(path: string | URL): Promise<string> {
  return Promise.reject(
    Object.assign(new Error(`this runtime has no file system to read ${String(path).slice(0, 200)} from`), {
      code: NOT_HERE,
    }),
  );
}
