// The engine's request observer: told each request with its id, may replace its params, hears how it ended.
import { describe, expect, it } from 'vitest';
import {
  JsonRpcEngine,
  RequestTimeoutError,
  ServerError,
  type JsonRpcRequest,
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

async function open(observer: RequestObserver) {
  const peer = new ScriptedPeer();
  const logger = recordingLogger();
  const engine = new JsonRpcEngine(peer, { logger, observer });
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
});
