// Server definition files: the entries they load and the malformed documents they refuse.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, ConfigEntryError, ConnectionError, serversFromConfig } from '@mcpc/client';

const REVISION_SERVER = new URL('../../../tooling/fixtures/servers/revision-server.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'mcpc-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('server definition files', () => {
  it('loads stdio and HTTP entries; the stdio one connects, the HTTP one says what it needs', async () => {
    const path = join(dir, 'servers.json');
    writeFileSync(
      path,
      JSON.stringify({
        mcpServers: {
          rev: {
            type: 'stdio',
            command: process.execPath,
            args: [REVISION_SERVER, '2025-06-18'],
            env: { MCPC_TEST: '1' },
          },
          api: {
            type: 'streamable_http',
            url: 'https://user:secret@api.example.com/mcp?token=t',
            headers: { Authorization: 'Bearer x' },
          },
        },
      }),
    );
    await using client = await Client.fromConfigFile(path, {
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    expect(client.servers.map((s) => s.name)).toEqual(['rev', 'api']);
    await client.server('rev').connect();
    expect(client.server('rev').protocolVersion).toBe('2025-06-18');
    // The HTTP entry is a real Streamable HTTP config; its credentials never reach names or messages.
    expect(client.servers[1]!.transportKind).toBeUndefined();
    const config = serversFromConfig({
      mcpServers: { api: { type: 'streamable_http', url: 'https://user:secret@api.example.com/mcp?token=t' } },
    })[0]!;
    expect(config.kind).toBe('streamable-http');
    expect(config.label).toBe('https://api.example.com/mcp');
    expect(
      serversFromConfig({ mcpServers: { old: { type: 'sse', url: 'http://127.0.0.1:1/sse' } } })[0]!.deprecated,
    ).toBe('sse-transport');
    expect(serversFromConfig({ mcpServers: { plain: { url: 'http://127.0.0.1:1/rpc' } } })[0]!.kind).toBe(
      'streamable-http',
    );
    void ConnectionError;
  });

  it('reads the hosts\' "http" as Streamable HTTP, and leniently: numbers as text, `transport` for `type`', () => {
    const [hosts, lenient] = serversFromConfig({
      mcpServers: {
        hosts: { type: 'http', url: 'http://127.0.0.1:1/mcp' },
        lenient: { transport: 'SSE', url: 'http://127.0.0.1:1/sse', headers: { 'X-Port': 8080 } },
      },
    });
    expect(hosts!.kind).toBe('streamable-http');
    expect(lenient!.kind).toBe('sse');
  });

  it('refuses a malformed document with a TypeError, a malformed entry with a ConfigEntryError naming it', () => {
    expect(() => serversFromConfig({ servers: {} })).toThrow(TypeError);
    expect(() => serversFromConfig({ servers: {} })).toThrow(/"mcpServers" object/);
    const refused = (document: unknown): ConfigEntryError => {
      try {
        serversFromConfig(document);
      } catch (error) {
        if (error instanceof ConfigEntryError) return error;
        throw error;
      }
      throw new Error('accepted');
    };
    expect(refused({ mcpServers: { a: { type: 'stdio' } } }).message).toMatch(
      /mcpServers\["a"\] has type "stdio" but no "command"/,
    );
    expect(refused({ mcpServers: { b: { command: 'x', args: 'y' } } }).message).toMatch(/"args" that is not an array/);
    expect(refused({ mcpServers: { c: { type: 'carrier-pigeon' } } }).message).toMatch(/no transport mcpc speaks/);
    expect(refused({ mcpServers: { d: { type: 'sse', url: 'ftp://x/sse' } } })).toMatchObject({
      entry: 'd',
      field: 'url',
    });
    expect(refused({ mcpServers: { e: { type: 'http', url: 'http://x/', headers: { a: {} } } } }).field).toBe(
      'headers.a',
    );
    expect(refused({ mcpServers: { f: { type: 'toString', url: 'http://x/' } } }).entry).toBe('f');
  });

  it('rejects a file that is not JSON', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{ nope');
    await expect(Client.fromConfigFile(path)).rejects.toThrow(/not valid JSON/);
  });
});
