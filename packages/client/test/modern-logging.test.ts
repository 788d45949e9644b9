// Log levels on 2026-07-28 servers (per-request _meta) and the cap on what reaches onLog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, textOf, type LogMessage } from '@mcpc/client';
import { capPeerText } from '../src/features/logging.js';
import { modernFixture, recordingLogger, until } from './helpers.js';

describe('setLogLevel on a 2026-07-28 server that does not declare logging', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({
      servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })],
      logger: recordingLogger(),
      deprecationNotices: false,
    });
    await client.connect();
  });
  afterAll(() => client.close());
  const levelSent = async (): Promise<unknown> =>
    JSON.parse(textOf(await client.callTool('echo'))).params._meta['io.modelcontextprotocol/logLevel'];

  it('is not skipped by the client-wide call: the level rides on later requests', async () => {
    expect(client.server('s').supports('logging')).toBe(false);
    await client.setLogLevel('debug');
    expect(await levelSent()).toBe('debug');
  });

  it('with { server } sets it too, instead of a CapabilityError', async () => {
    await client.setLogLevel('warning', { server: 's' });
    expect(await levelSent()).toBe('warning');
  });
});

describe('logMessageLimit', () => {
  let client: Client;
  const seen: LogMessage[] = [];
  beforeAll(async () => {
    client = new Client({
      servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })],
      logger: recordingLogger(),
      logMessageLimit: 2000,
    });
    client.onLog((_server, message) => void seen.push(message));
    await client.connect();
  });
  afterAll(() => client.close());

  it('caps each string after escaping: 5,000 ESC characters reach onLog as at most 2,000 characters', async () => {
    await client.callTool('log', { level: 'info', data: '\u001b'.repeat(5000) });
    await until(() => seen.length > 0);
    const data = seen[0]!.data as string;
    // Before: capped first (2,000 characters), then escaped into 12,014.
    expect(data.length).toBeLessThanOrEqual(2000);
    expect(data).not.toContain('\u001b');
    expect(data).toMatch(/^(\\x1B)+…\(5000 chars\)$/);
  });

  it('caps structured data by its escaped size too', async () => {
    seen.length = 0;
    await client.callTool('log', { level: 'info', data: { a: '\u001b'.repeat(1500), b: 'x' } });
    await until(() => seen.length > 0);
    // 1,500 characters, 6,000 once escaped: past the budget, so it becomes a capped JSON string.
    const data = seen[0]!.data;
    expect(typeof data).toBe('string');
    expect((data as string).length).toBeLessThanOrEqual(2000);
  });
});

describe('capPeerText', () => {
  it('never splits an escape, never exceeds the limit, and leaves short safe text alone', () => {
    expect(capPeerText('hello', 10)).toBe('hello');
    expect(capPeerText('a\u001bb', 10)).toBe('a\\x1Bb');
    for (let limit = 20; limit < 40; limit++) {
      const out = capPeerText('\u001b'.repeat(100), limit);
      expect(out.length).toBeLessThanOrEqual(limit);
      expect(out).toMatch(/^(\\x1B)*…\(100 chars\)$/);
    }
    expect(capPeerText('😀'.repeat(50), 30)).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
