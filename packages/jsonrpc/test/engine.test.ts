// The engine: requests, responses, timeouts, cancellation, progress, peer requests, notifications, close, logs.
import { describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  CancelledByPeerError,
  ConnectionClosedError,
  ErrorReply,
  JsonRpcEngine,
  RequestTimeoutError,
  ServerError,
  TransportError,
  type JsonRpcRequest,
  type Progress,
} from '@mcpc/jsonrpc';
import { recordingLogger, ScriptedPeer, tick } from './peer.js';

async function open(options: ConstructorParameters<typeof JsonRpcEngine>[1] = {}) {
  const peer = new ScriptedPeer();
  const logger = recordingLogger();
  const engine = new JsonRpcEngine(peer, { logger, ...options });
  await engine.start();
  return { peer, engine, logger };
}

describe('requests and responses', () => {
  it('allocates increasing ids and matches each response to its request', async () => {
    const { peer, engine } = await open();
    const a = engine.request('a', { x: 1 });
    const b = engine.request('b');
    const ra = (await peer.next()) as JsonRpcRequest;
    const rb = (await peer.next()) as JsonRpcRequest;
    expect(ra).toEqual({ jsonrpc: '2.0', id: 1, method: 'a', params: { x: 1 } });
    expect(rb).toEqual({ jsonrpc: '2.0', id: 2, method: 'b' });
    peer.serverSends({ jsonrpc: '2.0', id: 2, result: 'B' });
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: 'A' });
    await expect(a).resolves.toBe('A');
    await expect(b).resolves.toBe('B');
    expect(engine.pendingCount).toBe(0);
  });

  it('turns an error response into a ServerError with the code, data and method', async () => {
    const { peer, engine } = await open();
    const p = engine.request('tools/call', {});
    peer.serverSends({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad', data: { why: 1 } } });
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServerError);
    expect(e).toMatchObject({ rpcCode: -32602, message: 'bad', data: { why: 1 }, method: 'tools/call' });
  });

  it('discards unsolicited and duplicate responses with a log line, and stays usable', async () => {
    const { peer, engine, logger } = await open();
    peer.serverSends({ jsonrpc: '2.0', id: 99, result: {} });
    const p = engine.request('ping');
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: { first: true } });
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: { second: true } });
    await expect(p).resolves.toEqual({ first: true });
    const warnings = logger.lines.filter((l) => l.level === 'warn' && l.message.includes('unsolicited'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]!.message).toContain('id=99');
    const q = engine.request('ping');
    peer.serverSends({ jsonrpc: '2.0', id: 2, result: {} });
    await expect(q).resolves.toEqual({});
  });

  it('logs an error reply that carries no id instead of dropping it silently', async () => {
    const { peer, logger } = await open();
    peer.serverSends({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    expect(logger.lines.some((l) => l.level === 'warn' && l.message.includes('-32700'))).toBe(true);
  });

  it('rejects the request when the transport cannot send it', async () => {
    const { peer, engine } = await open();
    peer.failSends = new TransportError('write EPIPE');
    await expect(engine.request('ping')).rejects.toBeInstanceOf(TransportError);
    expect(engine.pendingCount).toBe(0);
  });

  it('rejects the request, and keeps nothing pending, when a transport throws from send instead of rejecting', async () => {
    const { peer, engine } = await open();
    peer.send = () => {
      throw new TransportError('not writable');
    };
    const p = engine.request('ping');
    await expect(p).rejects.toThrow('not writable');
    expect(engine.pendingCount).toBe(0);
  });

  it('fails every request whose frame shared a failed write, and only those', async () => {
    // A transport that writes a turn's frames together hands them one promise (the stdio transport does).
    const { peer, engine } = await open();
    let fail!: (error: Error) => void;
    const shared = new Promise<void>((_, reject) => (fail = reject));
    peer.send = () => shared;
    const a = engine.request('a');
    const b = engine.request('b');
    peer.send = () => Promise.resolve();
    const c = engine.request('c');
    fail(new TransportError('write EPIPE'));
    await expect(a).rejects.toThrow('write EPIPE');
    await expect(b).rejects.toThrow('write EPIPE');
    expect(engine.pendingCount).toBe(1);
    peer.serverSends({ jsonrpc: '2.0', id: 3, result: 'C' });
    await expect(c).resolves.toBe('C');
  });

  it('fails each request on a transport that returns one settled promise for every send', async () => {
    const { peer, engine } = await open();
    const refused = Promise.reject(new TransportError('closed'));
    refused.catch(() => {});
    peer.send = () => refused;
    await expect(engine.request('a')).rejects.toThrow('closed');
    // After the shared promise's reaction has run: a later request gets one of its own.
    await expect(engine.request('b')).rejects.toThrow('closed');
    const ok = Promise.resolve();
    peer.send = () => ok;
    const c = engine.request('c');
    await tick();
    peer.serverSends({ jsonrpc: '2.0', id: 3, result: 'C' });
    await expect(c).resolves.toBe('C');
    expect(engine.pendingCount).toBe(0);
  });
});

describe('timeouts and cancellation', () => {
  it('a timeout rejects with RequestTimeoutError and sends notifications/cancelled', async () => {
    const { peer, engine } = await open();
    const p = engine.request('tools/call', { name: 'slow' }, { timeout: 20 });
    await peer.next();
    await expect(p).rejects.toBeInstanceOf(RequestTimeoutError);
    const cancel = await peer.next();
    expect(cancel).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'timeout' },
    });
    expect(engine.pendingCount).toBe(0);
  });

  it('a per-call timeout overrides the default', async () => {
    const { engine } = await open({ requestTimeout: 10 });
    const p = engine.request('x', undefined, { timeout: 200 });
    await tick(40);
    expect(engine.pendingCount).toBe(1);
    await expect(p).rejects.toMatchObject({ timeoutMs: 200 });
  });

  it('never sends notifications/cancelled for initialize', async () => {
    const { peer, engine } = await open();
    const p = engine.request('initialize', {}, { timeout: 10 });
    await peer.next();
    await expect(p).rejects.toBeInstanceOf(RequestTimeoutError);
    await tick(10);
    expect(peer.sent.map((s) => s.message)).toHaveLength(1);
  });

  it('an abort rejects with AbortError carrying the reason, sends notifications/cancelled, and removes its listener', async () => {
    const { peer, engine } = await open();
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const p = engine.request('tools/call', {}, { signal: controller.signal });
    await peer.next();
    controller.abort('user pressed stop');
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AbortError);
    expect((e as AbortError).cause).toBe('user pressed stop');
    expect(await peer.next()).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('cancelNotification: false abandons a request without notifications/cancelled, and the transport signal still fires', async () => {
    const { peer, engine } = await open();
    const controller = new AbortController();
    const p = engine.request('tools/call', {}, { signal: controller.signal, cancelNotification: false });
    await peer.next();
    controller.abort('stop');
    await expect(p).rejects.toBeInstanceOf(AbortError);
    await tick(10);
    expect(peer.sent.map((s) => s.message)).toHaveLength(1);
    expect(peer.sent[0]!.options?.signal?.aborted).toBe(true);
  });

  it("the peer's notifications/cancelled for one of our requests rejects it with CancelledByPeerError", async () => {
    const { peer, engine } = await open();
    const p = engine.request('subscriptions/listen', { notifications: {} }, { timeout: 0 });
    await peer.next();
    peer.serverSends({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'shutting down' },
    });
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CancelledByPeerError);
    expect(e).toMatchObject({
      code: 'MCPC_CANCELLED_BY_PEER',
      method: 'subscriptions/listen',
      reason: 'shutting down',
    });
    expect(engine.pendingCount).toBe(0);
  });

  it('an already-aborted signal rejects without sending anything', async () => {
    const { peer, engine } = await open();
    await expect(engine.request('x', {}, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(peer.sent).toHaveLength(0);
  });

  it('a late answer to an abandoned request is discarded quietly, not as unsolicited', async () => {
    const { peer, engine, logger } = await open();
    await expect(engine.request('x', {}, { timeout: 5 })).rejects.toBeInstanceOf(RequestTimeoutError);
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: {} });
    expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(0);
    expect(logger.lines.some((l) => l.message.includes('late response'))).toBe(true);
  });

  it('settled requests hold no timer: a long default timeout does not keep the process alive', async () => {
    const { peer, engine } = await open({ requestTimeout: 3_600_000 });
    // The timers that keep the event loop alive (unref'd ones are not counted).
    const liveTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = liveTimers();
    const p = engine.request('x');
    expect(liveTimers()).toBe(before + 1);
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: 1 });
    await p;
    expect(liveTimers()).toBe(before);
    const q = engine.request('y');
    expect(liveTimers()).toBe(before + 1);
    await engine.close();
    await expect(q).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(liveTimers()).toBe(before);
  });

  it('requests with different timeouts each time out after their own', async () => {
    const { engine } = await open({ requestTimeout: 3_600_000 });
    const order: string[] = [];
    const track = (name: string, p: Promise<unknown>) =>
      p.catch((e: unknown) => {
        expect(e).toBeInstanceOf(RequestTimeoutError);
        order.push(`${name}:${(e as RequestTimeoutError).timeoutMs}`);
      });
    // Scheduled out of deadline order, and more distinct durations than share the timer.
    const all = [80, 20, 60, 40, ...Array.from({ length: 20 }, (_, i) => 100 + i * 5)].map((ms) =>
      track(String(ms), engine.request('x', {}, { timeout: ms })),
    );
    const answered = engine.request('never-times-out');
    await Promise.all(all);
    expect(order.slice(0, 4)).toEqual(['20:20', '40:40', '60:60', '80:80']);
    expect(order).toHaveLength(24);
    expect(engine.pendingCount).toBe(1);
    await engine.close();
    await expect(answered).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

describe('progress', () => {
  it("gives each call with onProgress a unique token, keeps the caller's _meta, and routes progress to it", async () => {
    const { peer, engine } = await open();
    const seenA: Progress[] = [];
    const seenB: Progress[] = [];
    const a = engine.request('tools/call', { name: 'a', _meta: { trace: 't' } }, { onProgress: (p) => seenA.push(p) });
    const b = engine.request('tools/call', { name: 'b' }, { onProgress: (p) => seenB.push(p) });
    const ra = (await peer.next()) as JsonRpcRequest;
    const rb = (await peer.next()) as JsonRpcRequest;
    const ta = (ra.params?._meta as { progressToken: unknown }).progressToken;
    const tb = (rb.params?._meta as { progressToken: unknown }).progressToken;
    expect(ta).not.toEqual(tb);
    expect(ra.params?._meta).toMatchObject({ trace: 't' });
    peer.serverSends({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: tb, progress: 1, total: 2, message: 'half' },
    });
    peer.serverSends({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: ta, progress: 5 } });
    expect(seenA).toEqual([{ progress: 5 }]);
    expect(seenB).toEqual([{ progress: 1, total: 2, message: 'half' }]);
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: {} });
    peer.serverSends({ jsonrpc: '2.0', id: 2, result: {} });
    await Promise.all([a, b]);
    // Stale token: the call is over, the progress is dropped.
    peer.serverSends({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: ta, progress: 6 } });
    expect(seenA).toHaveLength(1);
  });

  it('does not add a progress token when no one listens', async () => {
    const { peer, engine } = await open();
    void engine.request('x', { a: 1 }).catch(() => {});
    expect(((await peer.next()) as JsonRpcRequest).params).toEqual({ a: 1 });
  });

  it('resetTimeoutOnProgress keeps a request alive while progress arrives, bounded by maxTotalTimeout', async () => {
    const { peer, engine } = await open();
    const p = engine.request(
      'x',
      {},
      { timeout: 40, resetTimeoutOnProgress: true, maxTotalTimeout: 150, onProgress: () => {} },
    );
    const token = (((await peer.next()) as JsonRpcRequest).params?._meta as { progressToken: number }).progressToken;
    const started = Date.now();
    const pump = setInterval(
      () =>
        peer.serverSends({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1 },
        }),
      15,
    );
    const e = await p.catch((x: unknown) => x);
    clearInterval(pump);
    expect(e).toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('an onProgress callback that throws is logged and does not fail the request', async () => {
    const { peer, engine, logger } = await open();
    const p = engine.request(
      'x',
      {},
      {
        onProgress: () => {
          throw new Error('host bug');
        },
      },
    );
    const token = (((await peer.next()) as JsonRpcRequest).params?._meta as { progressToken: number }).progressToken;
    peer.serverSends({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: token, progress: 1 },
    });
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: 'ok' });
    await expect(p).resolves.toBe('ok');
    expect(logger.lines.some((l) => l.level === 'error' && l.message.includes('host bug'))).toBe(true);
  });
});

describe('peer-initiated requests', () => {
  it('routes a request to its handler and answers with the result ({} for undefined)', async () => {
    const { peer, engine } = await open();
    engine.setRequestHandler('roots/list', (params, ctx) => ({ roots: [], echoed: params, method: ctx.method }));
    engine.setRequestHandler('noop', () => undefined);
    peer.serverSends({ jsonrpc: '2.0', id: 's1', method: 'roots/list', params: { a: 1 } });
    peer.serverSends({ jsonrpc: '2.0', id: 's2', method: 'noop' });
    expect(await peer.next()).toEqual({
      jsonrpc: '2.0',
      id: 's1',
      result: { roots: [], echoed: { a: 1 }, method: 'roots/list' },
    });
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: 's2', result: {} });
    expect(peer.sent[0]!.options).toEqual({ relatedRequestId: 's1' });
  });

  it('answers an unknown method with -32601', async () => {
    const { peer } = await open();
    peer.serverSends({ jsonrpc: '2.0', id: 1, method: 'nope' });
    expect(await peer.next()).toMatchObject({ id: 1, error: { code: -32601 } });
  });

  it('answers a handler exception with a constant message and keeps the detail in the local log', async () => {
    const { peer, engine, logger } = await open();
    engine.setRequestHandler('sampling/createMessage', () => {
      throw new Error('API key sk-123 rejected');
    });
    peer.serverSends({ jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: {} });
    const reply = await peer.next();
    expect(reply).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
    expect(JSON.stringify(reply)).not.toContain('sk-123');
    expect(logger.lines.some((l) => l.level === 'error' && l.message.includes('sk-123'))).toBe(true);
  });

  it('answers an ErrorReply with its own code, message and data', async () => {
    const { peer, engine } = await open();
    engine.setRequestHandler('sampling/createMessage', async () => {
      throw new ErrorReply(-32602, 'messages must be an array', { field: 'messages' });
    });
    peer.serverSends({ jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: {} });
    expect(await peer.next()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'messages must be an array', data: { field: 'messages' } },
    });
  });

  it('bounds concurrent handlers: the excess is answered with an error at once, every request exactly once', async () => {
    const { peer, engine } = await open({ maxConcurrentHandlers: 3 });
    const release: (() => void)[] = [];
    engine.setRequestHandler('work', () => new Promise<object>((r) => release.push(() => r({ done: true }))));
    for (let i = 0; i < 10; i++) peer.serverSends({ jsonrpc: '2.0', id: i, method: 'work' });
    await tick();
    expect(release).toHaveLength(3);
    const refused = peer.sent.map((s) => s.message);
    expect(refused).toHaveLength(7);
    for (const r of refused)
      expect(r).toMatchObject({ error: { code: -32603, message: 'Too many concurrent requests' } });
    release.forEach((r) => r());
    await tick();
    const answers = peer.sent.map((s) => (s.message as { id: number }).id).sort((a, b) => a - b);
    expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // With the budget free again, new requests are handled.
    peer.serverSends({ jsonrpc: '2.0', id: 100, method: 'work' });
    await tick();
    expect(release).toHaveLength(4);
  });

  it('a notifications/cancelled from the peer aborts the handler and no answer is sent', async () => {
    const { peer, engine } = await open();
    let signal: AbortSignal | undefined;
    engine.setRequestHandler('elicitation/create', (_p, ctx) => {
      signal = ctx.signal;
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ action: 'cancel' })));
    });
    peer.serverSends({ jsonrpc: '2.0', id: 5, method: 'elicitation/create', params: {} });
    await tick();
    peer.serverSends({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    await tick();
    expect(signal?.aborted).toBe(true);
    expect(peer.sent).toHaveLength(0);
  });

  it('a listener may make a request of its own and await its answer', async () => {
    const { peer, engine } = await open();
    const got = new Promise((resolve) => {
      engine.onNotification(async (method) => {
        if (method === 'notifications/tools/list_changed') resolve(await engine.request('tools/list'));
      });
    });
    peer.serverSends({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(await peer.next()).toMatchObject({ method: 'tools/list' });
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    await expect(got).resolves.toEqual({ tools: [] });
  });
});

describe('notifications', () => {
  it('delivers notifications to every listener; one that throws is logged and stops nothing', async () => {
    const { peer, engine, logger } = await open();
    const seen: string[] = [];
    engine.onNotification(() => {
      throw new Error('listener bug');
    });
    const off = engine.onNotification((m) => seen.push(m));
    peer.serverSends({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    off();
    peer.serverSends({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    expect(seen).toEqual(['notifications/message']);
    expect(logger.lines.some((l) => l.level === 'error' && l.message.includes('listener bug'))).toBe(true);
  });

  it('sends notifications', async () => {
    const { peer, engine } = await open();
    await engine.notify('notifications/initialized');
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
  });
});

describe('closing', () => {
  it('when the transport closes, every pending request rejects at once with ConnectionClosedError carrying the cause', async () => {
    const { peer, engine } = await open();
    const a = engine.request('a', {}, { timeout: 0 });
    const b = engine.request('b', {}, { timeout: 0 });
    const cause = new TransportError('the server process exited with code 1');
    peer.serverClose(cause);
    for (const p of [a, b]) {
      const e = await p.catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ConnectionClosedError);
      expect((e as ConnectionClosedError).cause).toBe(cause);
    }
    expect(engine.closed).toBe(true);
    expect(engine.closeCause).toBe(cause);
    await expect(engine.request('c')).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(engine.notify('n')).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('close() closes the transport once, fires onClose once, and aborts in-flight handlers', async () => {
    const { peer, engine } = await open();
    let handlerSignal: AbortSignal | undefined;
    engine.setRequestHandler('slow', (_p, ctx) => {
      handlerSignal = ctx.signal;
      return new Promise(() => {});
    });
    peer.serverSends({ jsonrpc: '2.0', id: 1, method: 'slow' });
    await tick();
    const onClose = vi.fn();
    engine.onClose(onClose);
    await engine.close();
    await engine.close();
    expect(peer.closeCount).toBe(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(handlerSignal?.aborted).toBe(true);
    peer.serverSends({ jsonrpc: '2.0', method: 'late' });
  });

  it('supports await using', async () => {
    const peer = new ScriptedPeer();
    {
      await using engine = new JsonRpcEngine(peer, { logger: recordingLogger() });
      await engine.start();
    }
    expect(peer.closeCount).toBe(1);
  });

  it('a transport whose start fails leaves the engine closed with that cause', async () => {
    const failing = new ScriptedPeer();
    failing.start = () => Promise.reject(new TransportError('spawn ENOENT'));
    const engine = new JsonRpcEngine(failing, { logger: recordingLogger() });
    await expect(engine.start()).rejects.toBeInstanceOf(TransportError);
    await expect(engine.request('x')).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

describe('logging', () => {
  it('logs methods, ids and sizes, never payloads; peer strings are escaped and capped', async () => {
    const { peer, engine, logger } = await open();
    const p = engine.request('tools/call', { arguments: { password: 'hunter2' } });
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'TOP-SECRET' }] } });
    await p;
    peer.serverSends({ jsonrpc: '2.0', id: `\u001b[2J${'x'.repeat(1000)}`, result: {} });
    const all = logger.lines.map((l) => l.message).join('\n');
    expect(all).toContain('tools/call');
    expect(all).not.toContain('hunter2');
    expect(all).not.toContain('TOP-SECRET');
    expect(all).not.toContain('\u001b');
    expect(all).toContain('\\u001b');
    expect(all.length).toBeLessThan(2000);
  });

  it('a logger that throws does not break the engine', async () => {
    const peer = new ScriptedPeer();
    const boom = () => {
      throw new Error('logger down');
    };
    const engine = new JsonRpcEngine(peer, { logger: { debug: boom, info: boom, warn: boom, error: boom } });
    await engine.start();
    peer.serverSends({ jsonrpc: '2.0', id: 42, result: {} });
    const p = engine.request('x');
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: 'fine' });
    await expect(p).resolves.toBe('fine');
  });

  it('skips building debug lines when the logger says debug is off', async () => {
    const lines: string[] = [];
    const peer = new ScriptedPeer();
    const engine = new JsonRpcEngine(peer, {
      logger: {
        debug: (m) => lines.push(m),
        info: () => {},
        warn: () => {},
        error: () => {},
        isLevelEnabled: (l) => l !== 'debug',
      },
    });
    await engine.start();
    void engine.request('x').catch(() => {});
    expect(lines).toHaveLength(0);
  });
});

describe('the signal the transport gets', () => {
  it('is made only when read, survives a spread, and is already aborted when read after the request was abandoned', async () => {
    const { peer, engine } = await open();
    const p = engine.request('a', {}, { timeout: 5, send: { headers: { 'x-a': '1' }, retryable: true } });
    await expect(p).rejects.toBeInstanceOf(RequestTimeoutError);
    const options = peer.sent[0]!.options!;
    expect({ ...options }).toMatchObject({ headers: { 'x-a': '1' }, retryable: true });
    const late = { ...options }.signal;
    expect(late).toBeInstanceOf(AbortSignal);
    expect(late?.aborted).toBe(true);
    expect(late?.reason).toBeInstanceOf(RequestTimeoutError);
    expect(options.signal).toBe(late);
  });

  it('a transport with abandon() hears of each request given up on (not of those answered or closed) and gets no signal', async () => {
    const abandoned: [unknown, string][] = [];
    class AbandoningPeer extends ScriptedPeer {
      abandon(id: JsonRpcRequest['id'], reason: Error): void {
        abandoned.push([id, reason.constructor.name]);
      }
    }
    const peer = new AbandoningPeer();
    const engine = new JsonRpcEngine(peer, { logger: recordingLogger() });
    await engine.start();
    const controller = new AbortController();
    const answered = engine.request('a');
    const timedOut = engine.request('b', {}, { timeout: 5 });
    const aborted = engine.request('c', {}, { signal: controller.signal });
    const cancelled = engine.request('d');
    const closed = engine.request('e');
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: {} });
    await answered;
    await expect(timedOut).rejects.toBeInstanceOf(RequestTimeoutError);
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    peer.serverSends({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } });
    await expect(cancelled).rejects.toBeInstanceOf(CancelledByPeerError);
    await engine.close();
    await expect(closed).rejects.toBeInstanceOf(ConnectionClosedError);
    // Told through abandon(), it is handed no signal to watch.
    expect(peer.sent.filter((s) => 'id' in s.message).every((s) => s.options?.signal === undefined)).toBe(true);
    expect(abandoned).toEqual([
      [2, 'RequestTimeoutError'],
      [3, 'AbortError'],
      [4, 'CancelledByPeerError'],
    ]);
  });

  it('fires when a request is abandoned (timeout, abort, close) and not when it is answered', async () => {
    const { peer, engine } = await open();
    const answered = engine.request('a');
    const timedOut = engine.request('b', {}, { timeout: 10 });
    const controller = new AbortController();
    const aborted = engine.request('c', {}, { signal: controller.signal });
    const closed = engine.request('d', {}, { timeout: 0 });
    const signals = peer.sent.map((s) => s.options?.signal);
    expect(signals.every((s) => s instanceof AbortSignal)).toBe(true);
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: {} });
    await answered;
    await expect(timedOut).rejects.toBeInstanceOf(RequestTimeoutError);
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    expect(signals.map((s) => s?.aborted)).toEqual([false, true, true, false]);
    await engine.close();
    await expect(closed).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(signals[3]?.aborted).toBe(true);
    expect(signals[0]?.aborted).toBe(false);
  });
});
