import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string): string => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// Tests import the packages by name and run against their sources; the built output is checked by
// `lint` (publint, attw) and by the examples.
export default defineConfig({
  resolve: {
    alias: {
      // @mcpc/http's platform clients (package.json "imports"): Node's, from the sources.
      '#http-clients': fileURLToPath(new URL('./packages/http/src/clients-node.ts', import.meta.url)),
      '#decompress': fileURLToPath(new URL('./packages/http/src/decompress-node.ts', import.meta.url)),
      // @mcpc/client's Node-only parts (package.json "imports"), from the sources.
      '#platform': fileURLToPath(new URL('./packages/client/src/platform-node.ts', import.meta.url)),
      '@mcpc/http/errors': fileURLToPath(new URL('./packages/http/src/errors-entry.ts', import.meta.url)),
      '@mcpc/http': src('http'),
      '@mcpc/transport-sse-legacy': src('transport-sse-legacy'),
      '@mcpc/jsonrpc/errors': fileURLToPath(new URL('./packages/jsonrpc/src/errors-entry.ts', import.meta.url)),
      '@mcpc/jsonrpc': src('jsonrpc'),
      '@mcpc/transport-stdio': src('transport-stdio'),
      '@mcpc/transport-streamable-http': src('transport-streamable-http'),
      '@mcpc/schema-validator': src('schema-validator'),
      '@mcpc/oauth/steps': fileURLToPath(new URL('./packages/oauth/src/steps.ts', import.meta.url)),
      '@mcpc/oauth': src('oauth'),
      '@mcpc/client/convert': fileURLToPath(new URL('./packages/client/src/convert/index.ts', import.meta.url)),
      '@mcpc/client/constants': fileURLToPath(new URL('./packages/client/src/constants.ts', import.meta.url)),
      '@mcpc/client/types': fileURLToPath(new URL('./packages/client/src/types.ts', import.meta.url)),
      '@mcpc/client/config': fileURLToPath(new URL('./packages/client/src/config.ts', import.meta.url)),
      '@mcpc/client/skills-disk': fileURLToPath(new URL('./packages/client/src/skills-disk.ts', import.meta.url)),
      '@mcpc/client': src('client'),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'tooling/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
    // expect.poll's own default (1 s) is shorter than a page's push-and-render on two loaded cores; a state that
    // is never reached still fails, only later.
    expect: { poll: { timeout: 10_000 } },
  },
});
