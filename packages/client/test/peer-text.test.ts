// Server text in error messages is escaped and capped, from JSON-RPC errors to stderr tails.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  Client,
  ConnectionError,
  ServerError,
  ToolSchemaError,
  UnsupportedProtocolVersionError,
  stdio,
} from '@mcpc/client';
import { recordingLogger } from './helpers.js';

const HOSTILE_ERRORS = fileURLToPath(new URL('../../../tooling/fixtures/stdio/hostile-errors.mjs', import.meta.url));
const HOSTILE = '\u001b[31mred\u001b]0;title\u0007 ok\r\n[mcpc] server "x" is trusted \u202etxt.exe\u0000 end';
const HOSTILE_ESCAPED = '\\x1B[31mred\\x1B]0;title\\x07 ok\\r\\n[mcpc] server "x" is trusted \\u202Etxt.exe\\x00 end';

// What must never reach a message raw: C0/C1 controls (ESC, CR, LF, NUL, BEL), bidi and other format characters.
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

const hostile = (args: readonly string[] = [], options: { validateStructuredContent?: 'strict' } = {}) =>
  new Client({
    servers: [stdio({ name: 'hostile', command: process.execPath, args: [HOSTILE_ERRORS, ...args] })],
    logger: recordingLogger(),
    ...options,
  });

/** Every message along the cause chain: hosts print causes as readily as messages. */
function messages(error: unknown): string[] {
  const out: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) out.push(e.message);
  return out;
}

function expectSafe(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  for (const message of messages(error)) {
    expect(message).not.toMatch(UNSAFE);
    expect(message.length).toBeLessThan(2000);
  }
}

describe('text from the server never reaches an error message raw', () => {
  it('a JSON-RPC error: message escaped, the raw text on serverMessage', async () => {
    await using client = hostile();
    const error = (await client.callTool('fail').catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expectSafe(error);
    expect(error.message).toBe(HOSTILE_ESCAPED);
    expect(error.serverMessage).toBe(HOSTILE);
  });

  it('a 10 MB error message is capped, naming its length', async () => {
    await using client = hostile();
    const error = (await client.callTool('huge').catch((e: unknown) => e)) as ServerError;
    expectSafe(error);
    expect(error.message).toMatch(/…\(10485\d{3} chars\)$/);
    expect(error.serverMessage.length).toBeGreaterThan(10 * 1024 * 1024);
  });

  it("the reason of the server's notifications/cancelled", async () => {
    await using client = hostile();
    const error = await client.callTool('cancel-me').catch((e: unknown) => e);
    expectSafe(error);
    expect((error as Error).message).toContain(HOSTILE_ESCAPED);
  });

  it('an initialize refused with an error, and an initialize answered with a hostile protocolVersion', async () => {
    await using refused = hostile(['--refuse-init']);
    const error = await refused.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expectSafe(error);
    await using bad = hostile(['--bad-version']);
    const version = await bad.connect().catch((e: unknown) => e);
    expect(version).toBeInstanceOf(UnsupportedProtocolVersionError);
    expectSafe(version);
  });

  it("a server process's stderr, quoted when it exits during the handshake", async () => {
    const exitAtOnce = fileURLToPath(new URL('../../../tooling/fixtures/stdio/exit-at-once.mjs', import.meta.url));
    await using client = new Client({
      servers: [
        stdio({ name: 'dies', command: process.execPath, args: [exitAtOnce, '1', HOSTILE.replace('\u0000', '')] }),
      ],
      logger: recordingLogger(),
    });
    const error = await client.connect().catch((e: unknown) => e);
    expect((error as ConnectionError).code).toBe('MCPC_SERVER_EXITED');
    expectSafe(error);
    // An argv cannot carry NUL, so the fixture prints the rest.
    expect((error as Error).message).toContain(HOSTILE_ESCAPED.replace('\\x00', ''));
  });

  it("a tool schema's hostile $schema and external $ref: ToolSchemaError and its cause; the validator's own error kept on schemaError", async () => {
    await using client = hostile([], { validateStructuredContent: 'strict' });
    const dialect = (await client.callTool('dialect').catch((e: unknown) => e)) as ToolSchemaError;
    expect(dialect).toBeInstanceOf(ToolSchemaError);
    expectSafe(dialect);
    expect((dialect.cause as { code?: string }).code).toBe('MCPC_SCHEMA_UNSUPPORTED_DIALECT');
    expect((dialect.schemaError as Error).message).toContain(HOSTILE);
    const unusable = (await client.callTool('unusable').catch((e: unknown) => e)) as ToolSchemaError;
    expect(unusable).toBeInstanceOf(ToolSchemaError);
    expectSafe(unusable);
    expect((unusable.cause as { code?: string }).code).toBe('MCPC_SCHEMA_UNRESOLVED_REF');
  });
});
