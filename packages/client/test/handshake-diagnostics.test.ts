// A first handshake that fails says what happened and what to do: banners, non-JSON-RPC, silence, exits.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client, ConnectionError, stdio } from '@mcpc/client';
import { recordingLogger } from './helpers.js';

const stdioFixture = (file: string): string =>
  fileURLToPath(new URL(`../../../tooling/fixtures/stdio/${file}`, import.meta.url));

async function failure(
  args: readonly string[],
  options: { handshakeTimeout?: number } = {},
): Promise<{ error: ConnectionError; ms: number }> {
  const client = new Client({
    servers: [stdio({ name: 'broken', command: process.execPath, args: [...args] })],
    logger: recordingLogger(),
    ...options,
  });
  const started = performance.now();
  const error = await client.connect().catch((e: unknown) => e);
  const ms = performance.now() - started;
  await client.close();
  expect(error).toBeInstanceOf(ConnectionError);
  return { error: error as ConnectionError, ms };
}

describe('a first handshake that fails says what happened and what to do', () => {
  it('a server that prints a banner on stdout: names the text, and says stdout is for JSON-RPC only', async () => {
    const { error } = await failure(
      [stdioFixture('banner.mjs'), 'Welcome to the weather server v1.2 \u001b[32mready\u001b[0m'],
      { handshakeTimeout: 1500 },
    );
    expect(error.code).toBe('MCPC_HANDSHAKE_TIMEOUT');
    expect(error.message).toBe(
      'could not connect to server "broken": it did not complete the handshake within 1500 ms, and the server printed non-JSON on stdout: ' +
        "'Welcome to the weather server v1.2 \\x1B[32mready\\x1B[0m' — a stdio server must write only JSON-RPC to stdout (log to stderr)",
    );
  });

  it('a server that answers in JSON that is not JSON-RPC: says so', async () => {
    const { error } = await failure([stdioFixture('banner.mjs'), '{"hello":"world"}'], { handshakeTimeout: 1000 });
    expect(error.code).toBe('MCPC_HANDSHAKE_TIMEOUT');
    expect(error.message).toBe(
      'could not connect to server "broken": it did not complete the handshake within 1000 ms, and the one message it sent was not valid JSON-RPC ' +
        '(the last: "jsonrpc" must be "2.0", not missing); check that it is an MCP server',
    );
  });

  it('a silent server fails within the default handshake bound (15 s, not 10 s of probe + 60 s of initialize), quoting its stderr', async () => {
    const { error, ms } = await failure([stdioFixture('banner.mjs'), '', 'listening on port 3000']);
    expect(error.code).toBe('MCPC_HANDSHAKE_TIMEOUT');
    expect(error.message).toContain('the server did not answer the handshake within 15000 ms');
    expect(error.message).toContain("its stderr ended with: 'listening on port 3000'");
    expect(error.message).toContain('raise handshakeTimeout');
    expect(ms).toBeLessThan(20_000);
  }, 25_000);

  it('a server that exits during the handshake: its exit code and stderr, not the probe', async () => {
    const { error } = await failure([
      stdioFixture('exit-at-once.mjs'),
      '2',
      'Error: Cannot find module ./config.json\n    at start (server.js:1:1)',
    ]);
    expect(error.code).toBe('MCPC_SERVER_EXITED');
    expect(error.message).toMatch(
      /^could not connect to server "broken": the server process exited \(code 2\) during the handshake; its stderr ended with: 'Error: Cannot find module \.\/config\.json\\n {4}at start \(server\.js:1:1\)'/,
    );
    expect(error.message).not.toContain('server/discover');
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('a classic server that dies during initialize (after the probe) is reported the same way', async () => {
    const { error } = await failure([
      '-e',
      "process.stdin.once('data', () => { process.stderr.write('panic: bad config\\n'); process.exit(4); })",
    ]);
    expect(error.code).toBe('MCPC_SERVER_EXITED');
    expect(error.message).toContain("exited (code 4) during the handshake; its stderr ended with: 'panic: bad config'");
  });
});
