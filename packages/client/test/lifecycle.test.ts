// The legacy lifecycle: version negotiation, declared capabilities, capability gating and close.
import { describe, expect, it } from 'vitest';
import {
  CapabilityError,
  Client,
  ClientClosedError,
  ConnectionError,
  UnsupportedProtocolVersionError,
  connect,
  stdio,
} from '@mcpc/client';
import { LEGACY_PROTOCOL_VERSIONS } from '@mcpc/client/constants';
import { alive, revision, tapped, until } from './helpers.js';

describe('version negotiation', () => {
  it('offers 2025-11-25 with the host clientInfo and capabilities, then sends notifications/initialized', async () => {
    const wire = tapped('servers/revision-server.mjs', ['2025-11-25']);
    await using client = new Client({
      servers: [{ name: 'rev', transport: wire }],
      clientInfo: { name: 'my-ide', version: '2.0.0', description: 'An IDE', websiteUrl: 'https://example.com' },
      onElicitation: () => ({ action: 'cancel' }),
      elicitationModes: ['form', 'url'],
      samplingSupportsTools: true,
      onSampling: () => ({ model: 'm', content: { type: 'text', text: '' } }),
      deprecationNotices: false,
    });
    await client.connect();
    const [init] = wire.requests('initialize');
    expect(init?.params).toEqual({
      protocolVersion: '2025-11-25',
      clientInfo: { name: 'my-ide', version: '2.0.0', description: 'An IDE', websiteUrl: 'https://example.com' },
      capabilities: { sampling: { tools: {} }, elicitation: { form: {}, url: {} } },
    });
    expect(wire.methods()[0]).toBe('server/discover');
    expect(wire.methods().slice(1, 3)).toEqual(['initialize', 'notifications/initialized']);
    expect(client.server('rev').protocolVersion).toBe('2025-11-25');
  });

  it('declares no capability the host did not register', async () => {
    const wire = tapped('servers/revision-server.mjs', ['2025-11-25']);
    await using client = new Client({ servers: [{ name: 'rev', transport: wire }] });
    await client.connect();
    expect(wire.requests('initialize')[0]?.params?.capabilities).toEqual({});
  });

  it('accepts an older revision the server answers with (2025-03-26)', async () => {
    await using client = await connect([
      process.execPath,
      fixturePath('unknown-version.mjs'),
      '--version',
      '2025-03-26',
    ]);
    expect(client.servers[0]!.protocolVersion).toBe('2025-03-26');
    expect(LEGACY_PROTOCOL_VERSIONS).toContain('2025-03-26');
  });

  it('retries once with a revision both speak when the server refuses the offer with the ones it supports', async () => {
    const wire = tapped('../../packages/client/test/fixtures/scripted-server.mjs', ['--only', '2025-03-26']);
    await using client = new Client({ servers: [{ name: 'picky', transport: wire }] });
    await client.connect();
    expect(client.server('picky').protocolVersion).toBe('2025-03-26');
    expect(wire.requests('initialize').map((r) => r.params?.protocolVersion)).toEqual(['2025-11-25', '2025-03-26']);
  });

  it('disconnects with UnsupportedProtocolVersionError on a revision it does not speak, and the process is shut down', async () => {
    const wire = tapped('servers/unknown-version.mjs');
    const client = new Client({ servers: [{ name: 'future', transport: wire }] });
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      code: 'MCPC_UNSUPPORTED_PROTOCOL_VERSION',
      received: '2099-01-01',
      requested: '2025-11-25',
      server: 'future',
    });
    expect((error as Error).message).toContain('2099-01-01');
    expect(wire.closed).toBe(true);
    expect(wire.methods()).not.toContain('notifications/initialized');
    const pid = wire.stdio.pid!;
    await until(() => !alive(pid));
    await client.close();
  });

  it('connect() closes everything and rejects when a server cannot be connected', async () => {
    const error = await connect([
      [process.execPath, fixturePath('unknown-version.mjs')],
      'definitely-not-a-command-mcpc',
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
  });

  it('wraps a spawn failure in ConnectionError with the cause chained', async () => {
    await using client = new Client({ servers: [stdio({ name: 'missing', command: '/nonexistent/mcp-server' })] });
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ server: 'missing', code: 'MCPC_CONNECTION_FAILED' });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});

describe('capability gating', () => {
  it('refuses calls the server did not negotiate with CapabilityError, sending nothing', async () => {
    const wire = tapped('servers/unknown-version.mjs', ['--version', '2025-06-18']);
    await using client = new Client({ servers: [{ name: 'bare', transport: wire }] });
    await client.connect();
    const sentBefore = wire.sent.length;
    const server = client.server('bare');
    await expect(server.setLogLevel('debug')).rejects.toBeInstanceOf(CapabilityError);
    await expect(server.subscribeResource('mem://x')).rejects.toMatchObject({
      capability: 'resources.subscribe',
      code: 'MCPC_CAPABILITY_NOT_SUPPORTED',
    });
    await expect(
      server.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }),
    ).rejects.toBeInstanceOf(CapabilityError);
    await expect(client.callTool('echo', {})).rejects.toMatchObject({ capability: 'tools', method: 'tools/call' });
    await expect(client.listTools({ server: 'bare' })).rejects.toBeInstanceOf(CapabilityError);
    expect(wire.sent.length).toBe(sentBefore);
  });

  it('skips servers without logging on client.setLogLevel, and aggregates lists only from servers that offer them', async () => {
    const wire = tapped('servers/unknown-version.mjs', ['--version', '2025-06-18']);
    await using client = new Client({
      servers: [{ name: 'bare', transport: wire }, revision('2025-11-25', 'rev')],
      deprecationNotices: false,
    });
    await client.setLogLevel('warning');
    expect(wire.methods()).not.toContain('logging/setLevel');
    const tools = await client.listTools();
    expect(new Set(tools.map((t) => t.server))).toEqual(new Set(['rev']));
  });

  it('sends notifications/roots/list_changed only to sessions that declared roots', async () => {
    const withRoots = tapped('servers/revision-server.mjs', ['2025-11-25']);
    await using a = new Client({
      servers: [{ name: 'a', transport: withRoots }],
      roots: [],
      deprecationNotices: false,
    });
    await a.connect();
    a.roots = [{ uri: 'file:///tmp' }];
    await until(() => withRoots.methods().includes('notifications/roots/list_changed'));

    const without = tapped('servers/revision-server.mjs', ['2025-11-25']);
    await using b = new Client({
      servers: [{ name: 'b', transport: without }],
      deprecationNotices: false,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    await b.connect();
    b.roots = [{ uri: 'file:///tmp' }];
    await b.ping();
    expect(without.methods()).not.toContain('notifications/roots/list_changed');
  });
});

describe('ping and close', () => {
  it('pings, then close() ends every server process and the client refuses new calls', async () => {
    const one = tapped('servers/revision-server.mjs', ['2025-11-25']);
    const two = tapped('servers/revision-server.mjs', ['2024-11-05']);
    const client = new Client({
      servers: [
        { name: 'one', transport: one },
        { name: 'two', transport: two },
      ],
    });
    await client.ping();
    const pids = [one.stdio.pid!, two.stdio.pid!];
    await client.close();
    expect(client.closed).toBe(true);
    await until(() => pids.every((pid) => !alive(pid)));
    await expect(client.listTools()).rejects.toBeInstanceOf(ClientClosedError);
    await expect(client.callTool('echo', {})).rejects.toMatchObject({ code: 'MCPC_CLIENT_CLOSED' });
    expect(() => (client.roots = [])).toThrow(ClientClosedError);
    await client.close(); // idempotent
  });

  it('closes every server on Symbol.asyncDispose', async () => {
    const wire = tapped('servers/revision-server.mjs', ['2025-11-25']);
    let pid: number;
    {
      await using client = await connect({ name: 'scoped', transport: wire });
      pid = wire.stdio.pid!;
      expect(alive(pid)).toBe(true);
      expect(client.server('scoped').state).toBe('connected');
    }
    expect(wire.closed).toBe(true);
    await until(() => !alive(pid));
  });
});

function fixturePath(file: string): string {
  return new URL(`../../../tooling/fixtures/servers/${file}`, import.meta.url).pathname;
}
