// `subscriptions/listen` over stdio and Streamable HTTP: acknowledgement, demultiplexing, close, restarts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapabilityError,
  Client,
  RequestTimeoutError,
  SubscriptionError,
  ValidationError,
  streamableHttp,
  textOf,
  type ServerConfig,
} from '@mcpc/client';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { NotificationQueue } from '../src/subscriptions/queue.js';
import { modernFixture, modernFixturePath, recordingLogger, revision, until } from './helpers.js';

describe.each(['stdio', 'streamable-http'] as const)('subscriptions/listen over %s', (over) => {
  let fixture: Fixture | undefined;
  let client: Client;
  let serverConfig: ServerConfig;
  const hostSaw: { method: string; params: unknown }[] = [];
  beforeAll(async () => {
    let config: ServerConfig;
    if (over === 'stdio')
      config = modernFixture('scripted-server.mjs', ['stdio', '--list-ttl', '60000'], { name: 's' });
    else {
      fixture = await startFixture(modernFixturePath('scripted-server.mjs'), ['http', '--list-ttl', '60000']);
      config = streamableHttp({ name: 's', url: fixture.url, retries: 0 });
    }
    serverConfig = config;
    client = new Client({ servers: [config], logger: recordingLogger() });
    client.onNotification((_s, method, params) => void hostSaw.push({ method, params }));
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await fixture?.stop();
  });
  // `fire` answers with how many listen streams the server has open.
  const openStreams = async (): Promise<number> => {
    const answer = textOf(
      await client.callTool('fire', { method: 'notifications/resources/updated', params: { uri: 'count://none' } }),
    );
    return Number(/fired to (\d+)/.exec(answer)?.[1]);
  };
  const settled = async (expected: number): Promise<void> => {
    // Bounded in time, not in tries: each try is a round trip, which a loaded machine makes slow.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await openStreams()) !== expected) await new Promise((r) => setTimeout(r, 20));
    expect(await openStreams()).toBe(expected);
  };
  const stats = async () =>
    JSON.parse(textOf(await client.callTool('stats'))) as {
      methods: Record<string, number>;
      requests: { method: string; id: unknown }[];
    };

  it('is acknowledged: acknowledged is a frozen copy of what was granted, unsupported names what was not', async () => {
    const asked = {
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ['file:///a', 'denied://x'],
    };
    const sub = client.listen(asked, () => {});
    asked.resourceSubscriptions.push('file:///late');
    await sub.ready;
    expect(sub.filter.resourceSubscriptions).toEqual(['file:///a', 'denied://x']);
    expect(sub.acknowledged).toEqual({ toolsListChanged: true, resourceSubscriptions: ['file:///a'] });
    expect(Object.isFrozen(sub.acknowledged) && Object.isFrozen(sub.acknowledged!.resourceSubscriptions)).toBe(true);
    expect(sub.unsupported).toEqual(['promptsListChanged', 'resource:denied://x']);
    expect(sub.active).toBe(true);
    await sub.close();
    expect(sub.closed).toBe(true);
    expect(sub.error).toBeUndefined();
  });

  it('notifications are demultiplexed by subscriptionId, and caches are invalidated before a listener sees list_changed', async () => {
    await client.listTools();
    const seenA: string[] = [];
    const seenB: string[] = [];
    let listed: string[] = [];
    const a = client.listen({ toolsListChanged: true }, async (method) => {
      seenA.push(method);
      if (method === 'notifications/tools/list_changed') listed = (await client.listTools()).map((t) => t.name);
    });
    const b = client.listen({ resourceSubscriptions: ['file:///a'] }, (method) => void seenB.push(method));
    await Promise.all([a.ready, b.ready]);
    await client.callTool('list-change');
    await until(() => listed.length > 0);
    expect(listed.some((n) => /^v\d+$/.test(n))).toBe(true);
    await client.callTool('fire', { method: 'notifications/resources/updated', params: { uri: 'file:///a' } });
    await until(() => seenB.includes('notifications/resources/updated'));
    expect(seenA.filter((m) => m === 'notifications/resources/updated')).toHaveLength(1);
    expect(seenB.filter((m) => m === 'notifications/resources/updated')).toHaveLength(1);
    expect(seenA[0]).toBe('notifications/subscriptions/acknowledged');
    await until(() => hostSaw.some((n) => n.method === 'notifications/resources/updated'));
    await Promise.all([a.close(), b.close()]);
  });

  it('close() ends the stream at the server (stdio: notifications/cancelled; HTTP: the stream is closed)', async () => {
    const sub = client.listen({ toolsListChanged: true }, () => {});
    await sub.ready;
    await sub.close();
    // Over HTTP the server learns of the close from its socket, which can come after the next request.
    await settled(0);
    expect(textOf(await client.callTool('fire', { method: 'notifications/tools/list_changed' }))).toBe('fired to 0');
    if (over === 'stdio') expect((await stats()).methods['notifications/cancelled']).toBeGreaterThanOrEqual(1);
  });

  it('a graceful end by the server (a complete result) closes it without an error', async () => {
    const sub = client.listen({ toolsListChanged: true }, () => {});
    await sub.ready;
    await client.callTool('end-listen');
    await sub.done;
    expect(sub.closed).toBe(true);
    expect(sub.error).toBeUndefined();
  });

  it('an unrecognisable closing result ends it with a ValidationError, in bounded time; nothing hangs', async () => {
    const sub = client.listen({ toolsListChanged: true }, () => {});
    await sub.ready;
    // {resultType: 'sideways'}: no revision defines it.
    await client.callTool('end-listen', { garbage: true });
    const ended = await Promise.race([
      sub.done.then(() => 'done'),
      new Promise((r) => setTimeout(() => r('still open'), 5_000)),
    ]);
    expect(ended).toBe('done');
    expect(sub.closed).toBe(true);
    // It ends with the typed error that names what the server sent, not as a graceful end.
    expect(sub.error).toBeInstanceOf(ValidationError);
    expect(sub.error).toMatchObject({ code: 'MCPC_INVALID_SHAPE' });
    expect(sub.error?.message).toContain('resultType "sideways"');
    // The server holds no listen any more, and the client goes on.
    expect(textOf(await client.callTool('fire', { method: 'notifications/tools/list_changed' }))).toBe('fired to 0');
  });

  it('an acknowledgment that does not come within ackTimeout ends it with RequestTimeoutError', async () => {
    const sub = client.listen({ resourceSubscriptions: ['silent://'] }, () => {}, { ackTimeout: 200 });
    await expect(sub.ready).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(sub.error).toBeInstanceOf(RequestTimeoutError);
  });

  it('subscribeResource maps onto a listen stream, answering once the acknowledgment names the URI', async () => {
    const server = client.server('s');
    await server.subscribeResource('file:///watched');
    expect(server.subscriptions.has('file:///watched')).toBe(true);
    await client.callTool('fire', { method: 'notifications/resources/updated', params: { uri: 'file:///watched' } });
    await until(() =>
      hostSaw.some(
        (n) =>
          n.method === 'notifications/resources/updated' && (n.params as { uri?: string }).uri === 'file:///watched',
      ),
    );
    const refused = await server.subscribeResource('denied://nope').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SubscriptionError);
    expect((refused as SubscriptionError).reason).toBe('refused');
    await server.unsubscribeResource('file:///watched');
    expect(server.subscriptions.has('file:///watched')).toBe(false);
    const methods = (await stats()).methods;
    expect(methods['resources/subscribe']).toBeUndefined();
  });

  it('two subscribeResource calls on one URI at once share one stream; an unsubscribe while it opens closes it', async () => {
    const server = client.server('s');
    const before = await openStreams();
    await Promise.all([server.subscribeResource('file:///twice'), server.subscribeResource('file:///twice')]);
    expect(await openStreams()).toBe(before + 1);
    await server.unsubscribeResource('file:///twice');
    await settled(before);
    expect(server.subscriptions.has('file:///twice')).toBe(false);

    const watching = server.subscribeResource('file:///brief');
    await server.unsubscribeResource('file:///brief');
    // Acknowledged first and then ended, or ended while it opened: either way, nothing is left.
    await watching.catch((e: unknown) => expect(e).toBeInstanceOf(SubscriptionError));
    expect(server.subscriptions.has('file:///brief')).toBe(false);
    await settled(before);
    // A refused watch that a second call joined fails both, and leaves nothing open.
    const both = await Promise.allSettled([
      server.subscribeResource('denied://twice'),
      server.subscribeResource('denied://twice'),
    ]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await settled(before);
  });

  it('an unsubscribe ends a stream still waiting for its acknowledgment at once; calls for a URI keep their order', async () => {
    const server = client.server('s');
    const before = await openStreams();
    // A listen naming silent:// is never acknowledged: this subscribe waits (as it would through an outage).
    const listensForSilent = async () =>
      (await stats()).requests.filter(
        (r) => r.method === 'subscriptions/listen' && JSON.stringify(r).includes('silent://'),
      ).length;
    const asked = await listensForSilent();
    const pending = server.subscribeResource('silent://', { timeout: 60_000 });
    for (let i = 0; i < 100 && (await listensForSilent()) === asked; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await listensForSilent()).toBe(asked + 1);
    const started = Date.now();
    // Before: it waited for that acknowledgment (here, the 60 s timeout).
    await server.unsubscribeResource('silent://');
    expect(Date.now() - started).toBeLessThan(5_000);
    const failed = await pending.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(SubscriptionError);
    expect((failed as SubscriptionError).reason).toBe('ended');
    await settled(before);
    // Subscribe, unsubscribe, subscribe, made at once: they run in that order, and the last one decides.
    const calls = [
      server.subscribeResource('file:///order'),
      server.unsubscribeResource('file:///order'),
      server.subscribeResource('file:///order'),
    ];
    const outcomes = await Promise.allSettled(calls);
    expect(outcomes[1]!.status).toBe('fulfilled');
    expect(outcomes[2]!.status).toBe('fulfilled');
    expect(server.subscriptions.has('file:///order')).toBe(true);
    await settled(before + 1);
    await server.unsubscribeResource('file:///order');
    await settled(before);
  });

  it('unsubscribeResource before any connection: connects to learn the era, and a 2026-07-28 server has nothing to end', async () => {
    await using fresh = new Client({ servers: [serverConfig], logger: recordingLogger() });
    // Before: not yet connected, it took the server for a classic one and sent resources/unsubscribe.
    await expect(fresh.server('s').unsubscribeResource('file:///never')).resolves.toBeUndefined();
    expect(fresh.server('s').protocolEra).toBe('modern');
  });

  if (over === 'streamable-http') {
    it('a 5xx to the listen POST counts as a drop and is retried; a 4xx ends the subscription', async () => {
      const flaky = client.listen({ resourceSubscriptions: ['flaky://'] }, () => {});
      await flaky.ready;
      expect(flaky.active).toBe(true);
      await flaky.close();
      const refused = client.listen({ resourceSubscriptions: ['refused://'] }, () => {});
      await expect(refused.ready).rejects.toMatchObject({ code: 'MCPC_UNAUTHORIZED' });
      expect(refused.closed).toBe(true);
    });

    it('a dropped stream is re-opened under a new id and acknowledged afresh', async () => {
      const seen: string[] = [];
      const sub = client.listen({ toolsListChanged: true }, (method) => void seen.push(method));
      await sub.ready;
      const before = (await stats()).requests.filter((r) => r.method === 'subscriptions/listen').length;
      await client.callTool('drop-listen');
      let listens: { method: string; id: unknown }[] = [];
      for (let i = 0; i < 100 && listens.length <= before; i++) {
        await new Promise((r) => setTimeout(r, 50));
        listens = (await stats()).requests.filter((r) => r.method === 'subscriptions/listen');
      }
      await until(() => sub.active, 5000);
      expect(listens.length).toBeGreaterThan(before);
      expect(new Set(listens.map((l) => l.id)).size).toBe(listens.length);
      await client.callTool('fire', { method: 'notifications/tools/list_changed' });
      await until(() => seen.includes('notifications/tools/list_changed'));
      await sub.close();
    });

    const listensNaming = async (uri: string): Promise<number> =>
      (await stats()).requests.filter((r) => r.method === 'subscriptions/listen' && JSON.stringify(r).includes(uri))
        .length;

    it('ackTimeout bounds the listen re-sent right after a broken stream, too', async () => {
      // once://… is acknowledged on the first listen only: the re-sent one is never acknowledged.
      const sub = client.listen({ resourceSubscriptions: ['once://ack-bound'] }, () => {}, { ackTimeout: 300 });
      await sub.ready;
      await client.callTool('drop-listen');
      // Before: the re-sent request waited for ever, the subscription still reporting itself active.
      await until(() => sub.closed, 5000);
      expect(sub.error).toBeInstanceOf(RequestTimeoutError);
      expect(await listensNaming('once://ack-bound')).toBeGreaterThanOrEqual(2);
    });

    it('a second subscribeResource on a URI whose stream dropped waits for the replacement, and fails with it', async () => {
      const server = client.server('s');
      await server.subscribeResource('once://rewatch', { timeout: 300 });
      expect(server.subscriptions.has('once://rewatch')).toBe(true);
      await client.callTool('drop-listen');
      // The replacement listen has gone out (and the server will never acknowledge it).
      for (let i = 0; i < 100 && (await listensNaming('once://rewatch')) < 2; i++)
        await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      // Before: resolved at once, on the strength of what the stream that is gone had been granted.
      const again = await server.subscribeResource('once://rewatch', { timeout: 300 }).then(
        () => 'resolved',
        (e: unknown) => e,
      );
      expect(again).toBeInstanceOf(RequestTimeoutError);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(server.subscriptions.has('once://rewatch')).toBe(false);
    });

    it('a second subscribeResource resolves once the re-opened stream is acknowledged with the URI', async () => {
      const server = client.server('s');
      await server.subscribeResource('file:///rewatch', { timeout: 2000 });
      await client.callTool('drop-listen');
      await server.subscribeResource('file:///rewatch', { timeout: 2000 });
      expect(server.subscriptions.has('file:///rewatch')).toBe(true);
      await server.unsubscribeResource('file:///rewatch');
    });
  }
});

describe('subscriptions on stdio across a server restart', () => {
  it('a server process that exits with subscriptions open is restarted, and the subscription re-sent to it', async () => {
    const client = new Client({
      servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })],
      logger: recordingLogger(),
    });
    try {
      const seen: string[] = [];
      const sub = client.listen({ toolsListChanged: true }, (method) => void seen.push(method));
      await sub.ready;
      await client.callTool('drop-listen').catch(() => {});
      await until(() => seen.filter((m) => m === 'notifications/subscriptions/acknowledged').length === 2, 10_000);
      expect(sub.active).toBe(true);
      await client.callTool('fire', { method: 'notifications/tools/list_changed' });
      await until(() => seen.includes('notifications/tools/list_changed'));
      await sub.close();
    } finally {
      await client.close();
    }
  });

  it('a crash loop ends the subscriptions with an error instead of restarting for ever', async () => {
    const client = new Client({
      servers: [modernFixture('scripted-server.mjs', ['stdio', '--exit-after-ack', '100'], { name: 's' })],
      logger: recordingLogger(),
    });
    try {
      const sub = client.listen({ toolsListChanged: true }, () => {});
      await sub.ready;
      await sub.done;
      expect(sub.error).toBeInstanceOf(SubscriptionError);
      expect(sub.error!.message).toContain('exited again');
    } finally {
      await client.close();
    }
  });
});

describe('subscriptions on a classic server', () => {
  it('end with a CapabilityError (the reference behaviour), nothing sent', async () => {
    const client = new Client({ servers: [revision('2025-11-25', 'c')], logger: recordingLogger() });
    try {
      const sub = client.listen({ toolsListChanged: true }, () => {});
      const error = await sub.ready.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CapabilityError);
      expect(error).toMatchObject({ code: 'MCPC_CAPABILITY_NOT_SUPPORTED', server: 'c' });
    } finally {
      await client.close();
    }
  });
});

describe('the notification queue', () => {
  it('is bounded in count: overflow drops the oldest repeat of the same thing, never the only notice of a quiet one', async () => {
    const delivered: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const queue = new NotificationQueue(
      async (method, params) => {
        await gate;
        delivered.push(`${method} ${(params as { uri?: string } | undefined)?.uri ?? ''}`.trim());
      },
      () => {},
      { maxCount: 3 },
    );
    queue.push('notifications/resources/updated', { uri: 'busy' });
    await Promise.resolve();
    await Promise.resolve();
    // The first is being delivered; three wait.
    queue.push('notifications/resources/updated', { uri: 'quiet' });
    queue.push('notifications/resources/updated', { uri: 'busy' });
    queue.push('notifications/resources/updated', { uri: 'busy' });
    queue.push('notifications/resources/updated', { uri: 'busy' });
    expect(queue.pending).toBe(3);
    expect(queue.dropped).toBe(1);
    release();
    await until(() => queue.pending === 0 && delivered.length === 4);
    expect(delivered).toEqual([
      'notifications/resources/updated busy',
      'notifications/resources/updated quiet',
      'notifications/resources/updated busy',
      'notifications/resources/updated busy',
    ]);
  });

  it('is bounded in bytes (method included); a notice larger than the budget is held in a slot of its own', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const queue = new NotificationQueue(
      () => gate,
      () => {},
      { maxBytes: 100 },
    );
    queue.push('x', { uri: 'first' });
    await Promise.resolve();
    await Promise.resolve();
    queue.push('m'.repeat(60), { uri: 'a' });
    queue.push('m'.repeat(60), { uri: 'b' });
    expect(queue.pending).toBe(1);
    expect(queue.dropped).toBe(1);
    queue.push('huge', { data: 'z'.repeat(500) });
    expect(queue.pending).toBe(2);
    expect(queue.pendingBytes).toBeGreaterThan(500);
    release();
  });
});
