// Deprecation notices: one per feature per process, none where nothing deprecated is used, and the switch.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import {
  CapabilityError,
  Client,
  DEPRECATIONS,
  deprecations,
  stdio,
  textOf,
  type Logger,
  type SamplingHandler,
} from '@mcpc/client';
import { deprecationsNoted, setDeprecationNotices } from '@mcpc/jsonrpc';
import { ask, everything, recordingLogger, scripted, sdkModern, tapped } from './helpers.js';

const SCRIPTED = fileURLToPath(new URL('./fixtures/scripted-server.mjs', import.meta.url));
const onSampling: SamplingHandler = () => ({ model: 'm', stopReason: 'endTurn', content: { type: 'text', text: 'x' } });

const notices = (logger: ReturnType<typeof recordingLogger>, feature: string) =>
  logger.lines.filter((l) => l.level === 'warn' && l.message.startsWith(`[mcpc] deprecated: ${feature} `));

describe('deprecation notices', () => {
  beforeEach(() => {
    deprecations.reset();
    deprecations.enabled = true;
  });
  afterAll(() => {
    deprecations.enabled = true;
  });

  it("lists the registry with each feature's earliest removal and migration", () => {
    expect(DEPRECATIONS.map((d) => d.feature)).toEqual([
      'roots',
      'sampling',
      'logging',
      'sse-transport',
      'sampling-include-context',
      'dynamic-client-registration',
    ]);
    for (const d of DEPRECATIONS)
      expect(d).toMatchObject({
        earliestRemoval: expect.any(String),
        migration: expect.any(String),
        deprecatedSince: expect.any(String),
      });
  });

  it('gives one notice per feature per process on a 2026-07-28 server, through the logger of the client that used it', async () => {
    const first = recordingLogger();
    const second = recordingLogger();
    await using a = new Client({ servers: [sdkModern()], logger: first, onSampling });
    await using b = new Client({ servers: [sdkModern()], logger: second, onSampling });
    await a.connect();
    await a.setLogLevel('info');
    await a.setLogLevel('debug');
    await b.setLogLevel('info');
    expect(a.server('modern').protocolVersion).toBe('2026-07-28');
    expect(notices(first, 'sampling')).toHaveLength(1);
    expect(notices(first, 'logging')).toHaveLength(1);
    expect(notices(first, 'logging')[0]?.message).toMatch(
      /earliest removal: the first MCP revision released on or after 2027-07-28\. Migration: log to stderr/,
    );
    expect(notices(second, 'sampling')).toHaveLength(0);
    expect(notices(second, 'logging')).toHaveLength(0);
    expect(deprecations.noticed('logging')).toBe(true);
  });

  it('gives no notice for roots, sampling or logging on a 2025-11-25 server, where nothing of them is deprecated', async () => {
    const logger = recordingLogger();
    await using client = new Client({ servers: [scripted()], logger, onSampling, roots: [{ uri: 'file:///srv' }] });
    await client.setLogLevel('info');
    expect((await ask(client, 'roots/list')).result).toEqual({ roots: [{ uri: 'file:///srv' }] });
    client.roots = [{ uri: 'file:///srv2' }];
    const messages = [{ role: 'user', content: { type: 'text', text: 'hi' } }];
    expect((await ask(client, 'sampling/createMessage', { messages, maxTokens: 5 })).result).toMatchObject({
      model: 'm',
    });
    expect(client.server('scripted').protocolVersion).toBe('2025-11-25');
    expect(logger.text('warn')).not.toContain('deprecated');
    for (const feature of ['roots', 'sampling', 'logging'] as const) expect(deprecations.noticed(feature)).toBe(false);
  });

  it('the README example (server-everything with onSampling and onElicitation) prints no deprecation notice', async () => {
    const logger = recordingLogger();
    await using client = new Client({
      servers: [everything()],
      logger,
      onSampling,
      onElicitation: () => ({ action: 'decline' }),
    });
    await client.callTool('trigger-sampling-request', { prompt: 'Write a haiku about MCP', maxTokens: 50 });
    expect(logger.text('warn')).not.toContain('deprecated');
  });

  it('gives no roots notice for declared-but-empty roots or an empty roots answer, one once a root is answered (2026-07-28)', async () => {
    const logger = recordingLogger();
    await using client = new Client({ servers: [sdkModern()], logger, roots: [] });
    expect(textOf(await client.callTool('roots'))).toBe('[]');
    expect(notices(logger, 'roots')).toHaveLength(0);
    client.roots = [{ uri: 'file:///srv' }];
    client.roots = [{ uri: 'file:///srv2' }];
    expect(textOf(await client.callTool('roots'))).toContain('file:///srv2');
    expect(notices(logger, 'roots')).toHaveLength(1);
  });

  it('gives a roots notice when a 2026-07-28 server connects to a client configured with a root', async () => {
    const logger = recordingLogger();
    await using client = new Client({ servers: [sdkModern()], logger, roots: [{ uri: 'file:///srv' }] });
    expect(notices(logger, 'roots')).toHaveLength(0);
    await client.connect();
    expect(notices(logger, 'roots')).toHaveLength(1);
  });

  it('gives no logging notice for a setLogLevel refused by capability gating', async () => {
    const logger = recordingLogger();
    await using client = new Client({
      servers: [{ name: 'bare', transport: tapped('servers/unknown-version.mjs', ['--version', '2025-06-18']) }],
      logger,
    });
    await expect(client.server('bare').setLogLevel('info')).rejects.toBeInstanceOf(CapabilityError);
    expect(notices(logger, 'logging')).toHaveLength(0);
    expect(deprecations.noticed('logging')).toBe(false);
  });

  it('survives a logger that throws, and the notice stays owed to a later use', async () => {
    const throwing: Logger = {
      debug() {},
      info() {},
      error() {},
      warn() {
        throw new Error('logger down');
      },
    };
    await using broken = new Client({ servers: [sdkModern()], logger: throwing });
    await broken.setLogLevel('info');
    expect(deprecations.noticed('logging')).toBe(false);
    const logger = recordingLogger();
    await using ok = new Client({ servers: [sdkModern()], logger });
    await ok.setLogLevel('info');
    expect(notices(logger, 'logging')).toHaveLength(1);
  });

  it('can be disabled per client or for the whole process', async () => {
    const logger = recordingLogger();
    await using quiet = new Client({
      servers: [sdkModern()],
      logger,
      deprecationNotices: false,
      roots: [{ uri: 'file:///x' }],
    });
    await quiet.setLogLevel('info');
    expect(logger.text('warn')).toBe('');
    expect(deprecations.noticed('logging')).toBe(false);

    deprecations.enabled = false;
    await using silenced = new Client({ servers: [sdkModern()], logger, onSampling });
    await silenced.setLogLevel('info');
    expect(logger.text('warn')).toBe('');
  });

  it('keeps its state in the kernel registry every @mcpc package shares, not on a globalThis key', async () => {
    const logger = recordingLogger();
    await using client = new Client({ servers: [sdkModern()], logger });
    await client.setLogLevel('info');
    expect(notices(logger, 'logging')).toHaveLength(1);
    expect(deprecationsNoted().has('logging')).toBe(true);
    expect(Object.getOwnPropertySymbols(globalThis).map(String)).not.toContain('Symbol(@mcpc/client.deprecations)');
    // One switch: the kernel's, which `deprecations.enabled` reads and writes.
    setDeprecationNotices(false);
    expect(deprecations.enabled).toBe(false);
    deprecations.enabled = true;
    expect(deprecations.enabled).toBe(true);
  });

  it('notes the includeContext values deprecated in 2025-11-25 on a 2025-11-25 session, not on an older one', async () => {
    const messages = [{ role: 'user', content: { type: 'text', text: 'hi' } }];
    const older = recordingLogger();
    await using old = new Client({
      servers: [stdio({ name: 'old', command: process.execPath, args: [SCRIPTED, '--only', '2025-06-18'] })],
      logger: older,
      onSampling,
    });
    expect(
      (await ask(old, 'sampling/createMessage', { messages, maxTokens: 5, includeContext: 'thisServer' })).result,
    ).toMatchObject({ model: 'm' });
    expect(notices(older, 'sampling-include-context')).toHaveLength(0);

    const logger = recordingLogger();
    await using client = new Client({ servers: [scripted()], logger, onSampling });
    await ask(client, 'sampling/createMessage', { messages, maxTokens: 5, includeContext: 'none' });
    expect(notices(logger, 'sampling-include-context')).toHaveLength(0);
    expect(
      (await ask(client, 'sampling/createMessage', { messages, maxTokens: 5, includeContext: 'thisServer' })).result,
    ).toMatchObject({ model: 'm' });
    expect(notices(logger, 'sampling-include-context')).toHaveLength(1);
  });
});

describe('deprecated transports', () => {
  it('notes a config that names its deprecated feature once it connects', async () => {
    deprecations.reset();
    const logger = recordingLogger();
    const wire = tapped('servers/revision-server.mjs', ['2025-11-25']);
    await using client = new Client({
      servers: [
        {
          name: 'old-sse',
          kind: 'sse',
          label: 'https://old.example/sse',
          deprecated: 'sse-transport',
          open: async () => wire,
        },
      ],
      logger,
    });
    expect(notices(logger, 'sse-transport')).toHaveLength(0);
    await client.connect();
    expect(notices(logger, 'sse-transport')).toHaveLength(1);
  });
});
