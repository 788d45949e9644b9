// What the client does only where processes and files exist (Node, Deno, Bun): stdio servers, config files, OTel's API.
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

const OTEL_API: string = '@opentelemetry/api';

/** `@opentelemetry/api` (an optional peer) when installed, else undefined. */
export function loadOpenTelemetryApi(): Promise<{ trace?: unknown; default?: unknown } | undefined> {
  // A computed specifier, so that no bundler resolves it: a bundle built without the package must still build.
  const specifier = OTEL_API;
  return import(/* @vite-ignore */ /* webpackIgnore: true */ /* optional peer: @opentelemetry/api */ specifier).catch(
    () => undefined,
  );
}
