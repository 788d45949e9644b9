// mcpc with tracing absent: @mcpc/client from an npm install of its packed tarballs, where @opentelemetry/api is not.
//
// In this workspace the client resolves the API (a devDependency of packages/client), so this driver runs the
// client the tracing scenario installed in a project of its own (`target.clientDir`, as a user's `npm install`
// of mcpc makes it): its first connect looks for the API, finds none, and installs no request observer.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectWith } from './mcpc.mjs';

export const label = 'mcpc, @opentelemetry/api not installed';

/** @param {{ clientDir: string } & object} target */
export async function connect(target) {
  const require = createRequire(join(target.clientDir, 'package.json'));
  const entry = require.resolve('@mcpc/client');
  // The point of the row: from where the client runs, the API cannot be found.
  const otel = (() => {
    try {
      return createRequire(entry).resolve('@opentelemetry/api');
    } catch {
      return undefined;
    }
  })();
  if (otel !== undefined) throw new Error(`@opentelemetry/api resolves from ${entry} (${otel}): not an absent row`);
  const lib = await import(pathToFileURL(entry).href);
  // The same copies the client loads on first connect, imported up front (as the mcpc driver does).
  await import(pathToFileURL(require.resolve('@mcpc/transport-stdio')).href);
  await import(pathToFileURL(require.resolve('@mcpc/transport-streamable-http')).href);
  await import('node:http');
  // The client's default (no `tracing` option): what a user who installed nothing more gets.
  return connectWith(lib, target, { httpClient: 'node' });
}
