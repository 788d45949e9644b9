import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CapabilityError, Client, DEPRECATIONS, deprecations, type Logger } from '@mcpc/client';
import { ask, recordingLogger, scripted, tapped } from './helpers.js';

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

  it('lists the registry with each feature\'s earliest removal and migration', () => {
    expect(DEPRECATIONS.map((d) => d.feature)).toEqual(['roots', 'sampling', 'logging', 'sse-transport', 'sampling-include-context', 'dynamic-client-registration']);
    for (const d of DEPRECATIONS) expect(d).toMatchObject({ earliestRemoval: expect.any(String), migration: expect.any(String), deprecatedSince: expect.any(String) });
  });

  it('gives one notice per feature per process, through the logger of the client that used it', async () => {
    const first = recordingLogger();
    const second = recordingLogger();
    await using a = new Client({ servers: [scripted()], logger: first, onSampling: () => ({ model: 'm', content: { type: 'text', text: '' } }) });
    await using b = new Client({ servers: [scripted()], logger: second, onSampling: () => ({ model: 'm', content: { type: 'text', text: '' } }) });
    await a.setLogLevel('info');
    await a.setLogLevel('debug');
    await b.setLogLevel('info');
    expect(notices(first, 'sampling')).toHaveLength(1);
    expect(notices(first, 'logging')).toHaveLength(1);
    expect(notices(first, 'logging')[0]?.message).toMatch(/earliest removal: the first MCP revision released on or after 2027-07-28\. Migration: log to stderr/);
    expect(notices(second, 'sampling')).toHaveLength(0);
    expect(notices(second, 'logging')).toHaveLength(0);
    expect(deprecations.noticed('logging')).toBe(true);
  });

  it('gives no roots notice for declared-but-empty roots or an empty roots answer, one once a root is set', async () => {
    const logger = recordingLogger();
    await using client = new Client({ servers: [scripted()], logger, roots: [] });
    expect((await ask(client, 'roots/list')).result).toEqual({ roots: [] });
    expect(notices(logger, 'roots')).toHaveLength(0);
    client.roots = [{ uri: 'file:///srv' }];
    client.roots = [{ uri: 'file:///srv2' }];
    await ask(client, 'roots/list');
    expect(notices(logger, 'roots')).toHaveLength(1);
  });

  it('gives no logging notice for a setLogLevel refused by capability gating', async () => {
    const logger = recordingLogger();
    await using client = new Client({ servers: [{ name: 'bare', transport: tapped('servers/unknown-version.mjs', ['--version', '2025-06-18']) }], logger });
    await expect(client.server('bare').setLogLevel('info')).rejects.toBeInstanceOf(CapabilityError);
    expect(notices(logger, 'logging')).toHaveLength(0);
    expect(deprecations.noticed('logging')).toBe(false);
  });

  it('survives a logger that throws, and the notice stays owed to a later use', async () => {
    const throwing: Logger = { debug() {}, info() {}, error() {}, warn() { throw new Error('logger down'); } };
    await using broken = new Client({ servers: [scripted()], logger: throwing });
    await broken.setLogLevel('info');
    expect(deprecations.noticed('logging')).toBe(false);
    const logger = recordingLogger();
    await using ok = new Client({ servers: [scripted()], logger });
    await ok.setLogLevel('info');
    expect(notices(logger, 'logging')).toHaveLength(1);
  });

  it('can be disabled per client or for the whole process', async () => {
    const logger = recordingLogger();
    await using quiet = new Client({ servers: [scripted()], logger, deprecationNotices: false, roots: [{ uri: 'file:///x' }] });
    await quiet.setLogLevel('info');
    expect(logger.text('warn')).toBe('');
    expect(deprecations.noticed('logging')).toBe(false);

    deprecations.enabled = false;
    await using silenced = new Client({ servers: [scripted()], logger, onSampling: () => ({ model: 'm', content: { type: 'text', text: '' } }) });
    await silenced.setLogLevel('info');
    expect(logger.text('warn')).toBe('');
  });

  it('notes the deprecated includeContext values of a sampling request', async () => {
    const logger = recordingLogger();
    await using client = new Client({ servers: [scripted()], logger, onSampling: () => ({ model: 'm', content: { type: 'text', text: 'x' } }) });
    const messages = [{ role: 'user', content: { type: 'text', text: 'hi' } }];
    await ask(client, 'sampling/createMessage', { messages, maxTokens: 5, includeContext: 'none' });
    expect(notices(logger, 'sampling-include-context')).toHaveLength(0);
    expect((await ask(client, 'sampling/createMessage', { messages, maxTokens: 5, includeContext: 'thisServer' })).result).toMatchObject({ model: 'm' });
    expect(notices(logger, 'sampling-include-context')).toHaveLength(1);
  });
});

describe('deprecated transports', () => {
  it('notes a config that names its deprecated feature once it connects', async () => {
    deprecations.reset();
    const logger = recordingLogger();
    const wire = tapped('servers/revision-server.mjs', ['2025-11-25']);
    await using client = new Client({ servers: [{ name: 'old-sse', kind: 'sse', label: 'https://old.example/sse', deprecated: 'sse-transport', open: async () => wire }], logger });
    expect(notices(logger, 'sse-transport')).toHaveLength(0);
    await client.connect();
    expect(notices(logger, 'sse-transport')).toHaveLength(1);
  });
});
