// The engine's observers: of our requests (params, end, progress) and of the peer's requests a handler answers.
import { describe, expect, it } from 'vitest';
import {
  ErrorReply,
  JsonRpcEngine,
  RequestTimeoutError,
  ServerError,
  type IncomingObserver,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestObserver,
} from '@mcpc/jsonrpc';
import { recordingLogger, ScriptedPeer } from './peer.js';

/** An observer that records what it is told, adding `_meta.seen` to each request's params. */
function recording(): RequestObserver & { log: unknown[] } {
  const log: unknown[] = [];
  return {
    log,
    start(id, method, params) {
      log.push(['start', id, method, params]);
      return {
        params: { ...params, _meta: { ...(params?._meta as object), seen: id } },
        answered: (result) => void log.push(['answered', id, result]),
        failed: (error) => void log.push(['failed', id, error.constructor.name]),
      };
    },
  };
}

async function open(observer?: RequestObserver, incomingObserver?: IncomingObserver) {
  const peer = new ScriptedPeer();
  const logger = recordingLogger();
  const engine = new JsonRpcEngine(peer, {
    logger,
    ...(observer !== undefined && { observer }),
    ...(incomingObserver !== undefined && { incomingObserver }),
  });
  await engine.start();
  return { peer, engine, logger };
}

describe('the request observer', () => {
  it('sends the params it gives (the progress token kept) and hears the answer before the caller does', async () => {
    const observer = recording();
    const { peer, engine } = await open(observer);
    const answer = engine.request('a', { x: 1 }, { onProgress: () => {} });
    const sent = (await peer.next()) as JsonRpcRequest;
    expect(sent.params).toEqual({ x: 1, _meta: { progressToken: 1, seen: 1 } });
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: 'A' });
    await answer;
    expect(observer.log).toEqual([
      ['start', 1, 'a', { x: 1, _meta: { progressToken: 1 } }],
      ['answered', 1, 'A'],
    ]);
  });

  it("hears each failure: the server's error, a timeout", async () => {
    const observer = recording();
    const { peer, engine } = await open(observer);
    const failing = engine.request('b').catch((e: unknown) => e);
    await peer.next();
    peer.serverSends({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'no' } });
    expect(await failing).toBeInstanceOf(ServerError);
    expect(await engine.request('c', undefined, { timeout: 5 }).catch((e: unknown) => e)).toBeInstanceOf(
      RequestTimeoutError,
    );
    expect(observer.log.filter((entry) => (entry as unknown[])[0] === 'failed')).toEqual([
      ['failed', 1, 'ServerError'],
      ['failed', 2, 'RequestTimeoutError'],
    ]);
  });

  it('an observer that throws is logged and the request goes out as it was', async () => {
    const { peer, engine, logger } = await open({
      start() {
        throw new Error('broken observer');
      },
    });
    const answer = engine.request('d', { y: 2 });
    expect(((await peer.next()) as JsonRpcRequest).params).toEqual({ y: 2 });
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: 'D' });
    await expect(answer).resolves.toBe('D');
    expect(logger.lines).toContainEqual({
      level: 'error',
      message: '[mcpc] the request observer threw: broken observer',
    });
  });
  it('an observer that throws as the request ends is logged, never an unhandled rejection', async () => {
    const throwing = () => {
      throw new Error('broken end');
    };
    const { peer, engine, logger } = await open({ start: () => ({ answered: throwing, failed: throwing }) });
    const answered = engine.request('e');
    await peer.next();
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: 'E' });
    await expect(answered).resolves.toBe('E');
    await expect(engine.request('f', undefined, { timeout: 5 })).rejects.toBeInstanceOf(RequestTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const ended = logger.lines.filter((line) => line.message === '[mcpc] the request observer threw: broken end');
    expect(ended).toHaveLength(2);
  });
});

describe('progress through the request observer', () => {
  it("hears each progress of the request it watches, before the caller's onProgress", async () => {
    const heard: unknown[] = [];
    const { peer, engine } = await open({
      start: (id) => ({
        answered: () => {},
        failed: () => {},
        progress: (p) => void heard.push(['observer', id, p]),
      }),
    });
    const answer = engine.request('p', {}, { onProgress: (p) => void heard.push(['caller', p.progress]) });
    await peer.next();
    peer.serverSends({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1, total: 2, message: 'm' },
    });
    peer.serverSends({ jsonrpc: '2.0', id: 1, result: {} });
    await answer;
    expect(heard).toEqual([
      ['observer', 1, { progress: 1, total: 2, message: 'm' }],
      ['caller', 1],
    ]);
  });
});

/** An incoming observer that records what it is told, and marks the handler's run. */
function incomingRecording(): IncomingObserver & { log: unknown[]; inside: boolean } {
  const log: unknown[] = [];
  const self = {
    log,
    inside: false,
    start(id: unknown, method: string, params: unknown) {
      log.push(['start', id, method, params]);
      return {
        run<T>(handler: () => T): T {
          self.inside = true;
          try {
            return handler();
          } finally {
            self.inside = false;
          }
        },
        answered: (result: unknown) => void log.push(['answered', id, result]),
        failed: (error: Error) => void log.push(['failed', id, error.constructor.name]),
      };
    },
  };
  return self;
}

describe('the incoming observer', () => {
  it('runs the handler through `run`, and hears the answer before it is sent', async () => {
    const observer = incomingRecording();
    const { peer, engine } = await open(undefined, observer);
    let ranInside = false;
    engine.setRequestHandler('roots/list', () => {
      ranInside = observer.inside;
      return { roots: [] };
    });
    peer.serverSends({ jsonrpc: '2.0', id: 7, method: 'roots/list', params: { _meta: { traceparent: 't' } } });
    expect(((await peer.next()) as JsonRpcResponse).id).toBe(7);
    expect(ranInside).toBe(true);
    expect(observer.log).toEqual([
      ['start', 7, 'roots/list', { _meta: { traceparent: 't' } }],
      ['answered', 7, { roots: [] }],
    ]);
  });

  it("hears a handler's failure (an ErrorReply, another error) and the peer's cancel; an unhandled method is not watched", async () => {
    const observer = incomingRecording();
    const { peer, engine } = await open(undefined, observer);
    engine.setRequestHandler('refuse', () => {
      throw new ErrorReply(-32602, 'bad');
    });
    engine.setRequestHandler('crash', () => {
      throw new TypeError('boom');
    });
    engine.setRequestHandler(
      'wait',
      (_p, { signal }) => new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    peer.serverSends({ jsonrpc: '2.0', id: 1, method: 'refuse' });
    peer.serverSends({ jsonrpc: '2.0', id: 2, method: 'crash' });
    peer.serverSends({ jsonrpc: '2.0', id: 3, method: 'unknown' });
    await Promise.all([peer.next(), peer.next(), peer.next()]);
    peer.serverSends({ jsonrpc: '2.0', id: 4, method: 'wait' });
    await new Promise((r) => setTimeout(r, 5));
    peer.serverSends({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } });
    await new Promise((r) => setTimeout(r, 5));
    expect(observer.log.filter((e) => (e as unknown[])[0] !== 'start')).toEqual([
      ['failed', 1, 'ErrorReply'],
      ['failed', 2, 'TypeError'],
      ['failed', 4, 'AbortError'],
    ]);
    expect(observer.log.filter((e) => (e as unknown[])[0] === 'start').map((e) => (e as unknown[])[2])).toEqual([
      'refuse',
      'crash',
      'wait',
    ]);
  });

  it('an observer that throws is logged, and the handler still answers', async () => {
    const { peer, engine, logger } = await open(undefined, {
      start() {
        throw new Error('broken observer');
      },
    });
    engine.setRequestHandler('ping', () => ({}));
    peer.serverSends({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(await peer.next()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(logger.lines).toContainEqual({
      level: 'error',
      message: '[mcpc] the incoming observer threw: broken observer',
    });
  });
});
