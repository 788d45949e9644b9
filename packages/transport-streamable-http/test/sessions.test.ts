// Sessions: the session id captured and sent, expired sessions renewed or refused, DELETE on close.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionExpiredError } from '@mcpc/transport-streamable-http';
import {
  connectEngine,
  handshake,
  initializeResult,
  json,
  result,
  rpcMethod,
  sseEvent,
  sseHead,
  startPeer,
  type Seen,
  forEachHttpClient,
} from './http-peer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A session server: assigns `s<n>` on initialize, forgets sessions on demand, answers everything else.
 * `holdRenewal`: the answer to every initialize after the first waits for it; `refuseRenewal`: that answer
 * is a JSON-RPC error.
 */
async function sessionServer(
  options: { getStream?: boolean; holdRenewal?: Promise<void>; refuseRenewal?: boolean } = {},
) {
  let generation = 0;
  const live = new Set<string>();
  const peer = await startPeer((req, res, body) => {
    const sid = req.headers['mcp-session-id'] as string | undefined;
    if (req.method === 'DELETE') {
      if (sid !== undefined) live.delete(sid);
      res.writeHead(200);
      return res.end();
    }
    if (rpcMethod(body) === 'initialize') {
      const id = `s${++generation}`;
      const answer = (): void => {
        if (generation > 1 && options.refuseRenewal === true)
          return json(res, 200, {
            jsonrpc: '2.0',
            id: (body as { id: unknown }).id,
            error: { code: -32600, message: 'no new sessions' },
          });
        live.add(id);
        json(res, 200, result(body, initializeResult), { 'mcp-session-id': id });
      };
      if (generation > 1 && options.holdRenewal !== undefined) return void options.holdRenewal.then(answer);
      return answer();
    }
    if (sid === undefined || !live.has(sid))
      return json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
    if (req.method === 'GET') {
      if (options.getStream !== true) {
        res.writeHead(405);
        return res.end();
      }
      sseHead(res);
      return;
    }
    if (body !== undefined && !('id' in body)) {
      res.writeHead(202);
      return res.end();
    }
    json(res, 200, result(body, { sessionSeen: sid }));
  });
  cleanups.push(peer.close);
  return { peer, live, expireAll: () => live.clear() };
}

/**
 * A connected engine whose session has expired, mid-renewal: a retryable `resources/list` met the 404,
 * and the renewal's initialize is at the server, which holds its answer until `release()`.
 */
async function midRenewal(options: { refuseRenewal?: boolean } = {}) {
  let release!: () => void;
  const { peer, expireAll } = await sessionServer({ ...options, holdRenewal: new Promise<void>((r) => (release = r)) });
  const { engine } = await connectEngine(peer.url);
  cleanups.push(() => engine.close());
  await handshake(engine);
  expireAll();
  const first = engine.request('resources/list', {}, { send: { retryable: true } });
  for (let i = 0; i < 200 && posts(peer.seen, 'initialize').length < 2; i++)
    await new Promise((r) => setTimeout(r, 10));
  return { peer, engine, first, release };
}

const posts = (seen: Seen[], method: string) => seen.filter((s) => s.method === 'POST' && rpcMethod(s.body) === method);

forEachHttpClient(() => {
  describe('sessions', () => {
    it('captures Mcp-Session-Id from initialize, sends it on every later request, and DELETEs it on close', async () => {
      const { peer } = await sessionServer();
      const { engine, transport } = await connectEngine(peer.url);
      await handshake(engine);
      expect(transport.sessionId).toBe('s1');
      await expect(engine.request('tools/list')).resolves.toEqual({ sessionSeen: 's1' });
      expect(peer.seen[0]!.headers['mcp-session-id']).toBeUndefined();
      expect(posts(peer.seen, 'tools/list')[0]!.headers['mcp-session-id']).toBe('s1');
      await engine.close();
      const del = peer.seen.find((s) => s.method === 'DELETE');
      expect(del?.headers['mcp-session-id']).toBe('s1');
    });

    it('an expired session is renewed transparently: initialize and initialized replayed, the idempotent request re-sent', async () => {
      const { peer, expireAll } = await sessionServer();
      const { engine, transport } = await connectEngine(peer.url);
      cleanups.push(() => engine.close());
      await handshake(engine);
      expireAll();
      await expect(engine.request('tools/list', {}, { send: { retryable: true } })).resolves.toEqual({
        sessionSeen: 's2',
      });
      expect(transport.sessionId).toBe('s2');
      expect(posts(peer.seen, 'initialize')).toHaveLength(2);
      expect(posts(peer.seen, 'notifications/initialized')).toHaveLength(2);
      // The replayed initialize went out under the transport's own id, not one the engine could confuse.
      expect(String((posts(peer.seen, 'initialize')[1]!.body as { id: unknown }).id)).toMatch(/^mcpc-session-renewal-/);
      expect(posts(peer.seen, 'initialize')[1]!.headers['mcp-session-id']).toBeUndefined();
    });

    it('a tools/call that meets an expired session is not re-sent: SessionExpiredError, and the new session is ready', async () => {
      const { peer, expireAll } = await sessionServer();
      const { engine } = await connectEngine(peer.url);
      cleanups.push(() => engine.close());
      await handshake(engine);
      expireAll();
      // Even a caller that marks it retryable does not get a tools/call re-sent.
      const e = await engine
        .request('tools/call', { name: 'send_invoice' }, { send: { retryable: true } })
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(SessionExpiredError);
      expect(posts(peer.seen, 'tools/call')).toHaveLength(1);
      await expect(engine.request('tools/list')).resolves.toEqual({ sessionSeen: 's2' });
    });

    it('concurrent requests that meet the same expiry share one renewal', async () => {
      const { peer, expireAll } = await sessionServer();
      const { engine } = await connectEngine(peer.url);
      cleanups.push(() => engine.close());
      await handshake(engine);
      expireAll();
      const all = await Promise.all(
        [1, 2, 3, 4].map(() => engine.request('resources/list', {}, { send: { retryable: true } })),
      );
      expect(all.every((r) => (r as { sessionSeen: string }).sessionSeen === 's2')).toBe(true);
      expect(posts(peer.seen, 'initialize')).toHaveLength(2);
    });

    it('a request or notification sent while the session is being renewed waits for the new session id', async () => {
      const { peer, engine, first, release } = await midRenewal();
      // The renewal's initialize is at the server, which holds its answer.
      expect(posts(peer.seen, 'initialize')).toHaveLength(2);
      // Not retryable: before, it went out with no session id, and the server's 404 to it was final.
      const during = engine.request('tools/list');
      const notified = engine.notify('notifications/roots/list_changed');
      await new Promise((r) => setTimeout(r, 50));
      release();
      await expect(first).resolves.toEqual({ sessionSeen: 's2' });
      await expect(during).resolves.toEqual({ sessionSeen: 's2' });
      await notified;
      const sessionOf = (method: string) => posts(peer.seen, method).map((s) => s.headers['mcp-session-id']);
      expect(sessionOf('tools/list')).toEqual(['s2']);
      expect(sessionOf('notifications/roots/list_changed')).toEqual(['s2']);
    });

    it('a renewal that fails fails the messages that waited for it; none goes out without a session', async () => {
      const { peer, engine, first, release } = await midRenewal({ refuseRenewal: true });
      const during = engine.request('tools/list');
      await new Promise((r) => setTimeout(r, 50));
      release();
      await expect(first).rejects.toThrow(/refused to start a new session: no new sessions/);
      await expect(during).rejects.toThrow(/refused to start a new session: no new sessions/);
      expect(posts(peer.seen, 'tools/list')).toHaveLength(0);
    });

    it('ignores a session id that is not visible ASCII, with a warning', async () => {
      const peer = await startPeer((_req, res, body) =>
        json(res, 200, result(body, initializeResult), { 'mcp-session-id': 'bad id\twith spaces' }),
      );
      cleanups.push(peer.close);
      const { engine, transport, logger } = await connectEngine(peer.url, { listen: false });
      cleanups.push(() => engine.close());
      await engine.request('initialize', {});
      expect(transport.sessionId).toBeUndefined();
      expect(logger.lines.some((l) => l.includes('ignored a session id'))).toBe(true);
    });
  });

  describe('the GET stream', () => {
    it('opens after notifications/initialized and carries server requests, answered by POST', async () => {
      let getStream: ServerResponse | undefined;
      const answers: unknown[] = [];
      const peer = await startPeer((req, res, body) => {
        if (req.method === 'GET') {
          sseHead(res);
          getStream = res;
          sseEvent(res, { jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' }, 'g1');
          return;
        }
        if (rpcMethod(body) === 'initialize')
          return json(res, 200, result(body, initializeResult), { 'mcp-session-id': 'abc' });
        if (body !== undefined && !('method' in body)) answers.push(body);
        res.writeHead(202);
        res.end();
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url);
      cleanups.push(() => engine.close());
      engine.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///x' }] }));
      await handshake(engine);
      await expect.poll(() => answers.length).toBe(1);
      expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [{ uri: 'file:///x' }] } });
      const get = peer.seen.find((s) => s.method === 'GET')!;
      expect(get.headers.accept).toBe('text/event-stream');
      expect(get.headers['mcp-session-id']).toBe('abc');
      expect(getStream).toBeDefined();
    });

    it('is re-opened with Last-Event-ID after it drops, and not at all after 405', async () => {
      let gets = 0;
      const peer = await startPeer((req, res, body) => {
        if (req.method === 'GET') {
          gets++;
          if (gets >= 3) {
            res.writeHead(405);
            return res.end();
          }
          sseHead(res);
          sseEvent(res, { jsonrpc: '2.0', method: 'notifications/message', params: { n: gets } }, `ev-${gets}`);
          return void setTimeout(() => res.end(), 10);
        }
        if (rpcMethod(body) === 'initialize') return json(res, 200, result(body, initializeResult));
        res.writeHead(202);
        res.end();
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url);
      cleanups.push(() => engine.close());
      await handshake(engine);
      await expect.poll(() => gets, { timeout: 3000 }).toBe(3);
      await new Promise((r) => setTimeout(r, 300));
      expect(gets).toBe(3);
      const getHeaders = peer.seen.filter((s) => s.method === 'GET').map((s) => s.headers['last-event-id']);
      expect(getHeaders).toEqual([undefined, 'ev-1', 'ev-2']);
    });
  });

  describe('resumption', () => {
    it('a response stream cut before the answer is resumed with GET and Last-Event-ID', async () => {
      let resumedWith: string | undefined;
      const peer = await startPeer((req, res, body) => {
        if (req.method === 'GET') {
          resumedWith = req.headers['last-event-id'] as string;
          sseHead(res);
          sseEvent(res, { jsonrpc: '2.0', id: 1, result: { resumed: true } }, 'r-2');
          return res.end();
        }
        sseHead(res);
        res.write('id: r-1\nretry: 30\ndata: \n\n');
        setTimeout(() => res.socket?.destroy(), 10);
        void body;
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, { listen: false });
      cleanups.push(() => engine.close());
      await expect(engine.request('tools/call', { name: 'long' })).resolves.toEqual({ resumed: true });
      expect(resumedWith).toBe('r-1');
    });

    it('retry: 0 is floored, so a server cannot drive a reconnect loop; attempts are bounded', async () => {
      const times: number[] = [];
      const peer = await startPeer((req, res) => {
        times.push(Date.now());
        sseHead(res);
        res.write('id: x\nretry: 0\ndata: \n\n');
        res.end();
        void req;
      });
      cleanups.push(peer.close);
      const { engine } = await connectEngine(peer.url, { listen: false, minRetryIntervalMs: 50, maxResumeAttempts: 3 });
      cleanups.push(() => engine.close());
      await expect(engine.request('tools/list')).rejects.toThrow(/resumption failed 3 times/);
      expect(times).toHaveLength(4);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(45);
    });

    it('never echoes an event id that is too long or not printable ASCII', async () => {
      const peer = await startPeer((req, res) => {
        if (req.method === 'GET') {
          res.writeHead(500);
          return res.end();
        }
        sseHead(res);
        res.write(`id: ${'x'.repeat(300)}\ndata: \n\n`);
        res.end();
      });
      cleanups.push(peer.close);
      const { engine, logger } = await connectEngine(peer.url, { listen: false });
      cleanups.push(() => engine.close());
      await expect(engine.request('tools/list')).rejects.toThrow(/no event id to resume from/);
      expect(peer.seen.some((s) => s.method === 'GET')).toBe(false);
      expect(logger.lines.some((l) => l.includes('ignored an SSE event id'))).toBe(true);
    });
  });
});
