// Where there are no processes and no files (browsers, Workers): stdio and config files refused with why; no OTel load.
import type * as Stdio from '@mcpc/transport-stdio';

/** What this module rejects with: marked `notInThisRuntime`, so the caller says so as it is, with no "install it" advice. */
const notHere = (message: string): Error => Object.assign(new Error(message), { notInThisRuntime: true });

export function loadStdioPackage(): Promise<typeof Stdio> {
  return Promise.reject(
    notHere('this runtime cannot start processes: a stdio server needs Node, Deno or Bun (use an HTTP server here)'),
  );
}

export function readTextFile(path: string | URL): Promise<string> {
  return Promise.reject(notHere(`this runtime has no file system to read ${String(path).slice(0, 200)} from`));
}

/**
 * None in a browser or Worker: a bare specifier cannot be found at run time there, and Workers refuse dynamic
 * specifiers in their bundle. A bundle that wants tracing hands the client the API: `tracing: { api }`.
 */
export function loadOpenTelemetryApi(): Promise<undefined> {
  return Promise.resolve(undefined);
}
