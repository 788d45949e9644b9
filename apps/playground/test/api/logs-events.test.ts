// The API over HTTP, no browser: the event stream, logs and their level, roots, frames, HTTP exchanges, raw requests.
import { describe, expect, it } from 'vitest';
import { rawRequest, type Playground } from '../harness.js';
import type { Events } from './api-client.js';
import { call, codeOf, connected, openDemoForFile, send } from './api-client.js';

let pg: Playground;
let events: Events;
const { demoOverHttp } = openDemoForFile((demo) => ({ pg, events } = demo));

const demo = { id: 'demo' };

describe('the event stream', () => {
  it('starts with every server in one `servers` event', async () => {
    const first = await events.next('servers');
    expect(events.seen[0]).toBe(first);
    expect(first.servers.find((s) => s.id === 'demo')?.state).toBe('connected');
  });

  it('takes its token in the query, and refuses a wrong one', async () => {
    const wrong = await rawRequest(pg.port, '/api/events?token=nope', { host: `127.0.0.1:${pg.port}` });
    expect(wrong.status).toBe(401);
  });
});

describe('logs', () => {
  it('asks the server for a level and keeps the log messages it sends, each also an event', async () => {
    expect(await call(pg, 'POST /api/servers/:id/log-level', demo, { level: 'debug' })).toEqual({
      status: 200,
      body: {},
    });
    await call(pg, 'POST /api/servers/:id/call', demo, { tool: 'slow-count', arguments: { steps: 2, delayMs: 10 } });
    const event = await events.next('log', (e) => e.log.logger === 'slow-count');
    expect(event.serverId).toBe('demo');
    const { body } = await call(pg, 'GET /api/servers/:id/logs', demo);
    expect(body.some((l) => l.logger === 'slow-count' && l.seq > 0 && l.at > 0)).toBe(true);
  });

  it('refuses a level that is not one', async () => {
    const answer = await send(pg, 'POST', '/api/servers/demo/log-level', { level: 'loud' });
    expect([answer.status, codeOf(answer)]).toEqual([400, 'bad_request']);
  });
});

describe('roots', () => {
  it('replaces the roots offered to every server and says so in an event', async () => {
    expect((await call(pg, 'GET /api/roots', {})).body).toEqual([]);
    const roots = [{ uri: 'file:///tmp/project', name: 'project' }];
    expect((await call(pg, 'PUT /api/roots', {}, { roots })).body).toEqual(roots);
    expect((await events.next('roots')).roots).toEqual(roots);
    expect((await call(pg, 'GET /api/roots', {})).body).toEqual(roots);
  });

  it('refuses roots that are not file:// URIs, or too many', async () => {
    const http = await send(pg, 'PUT', '/api/roots', { roots: [{ uri: 'https://example.com' }] });
    expect([http.status, codeOf(http)]).toEqual([400, 'bad_request']);
    const many = Array.from({ length: 101 }, (_, i) => ({ uri: `file:///r${i}` }));
    expect((await send(pg, 'PUT', '/api/roots', { roots: many })).status).toBe(400);
  });
});

describe('protocol and network', () => {
  it('keeps the frames, and sends one request as written', async () => {
    const frames = await call(pg, 'GET /api/servers/:id/frames', demo);
    expect(frames.body.some((f) => f.dir === 'out' && typeof f.message.method === 'string')).toBe(true);
    const { status, body } = await call(pg, 'POST /api/servers/:id/request', demo, { method: 'tools/list' });
    expect(status).toBe(200);
    expect(body.result).toHaveProperty('tools');
    const own = await send(pg, 'POST', '/api/servers/demo/request', { method: 'initialize' });
    expect([own.status, codeOf(own)]).toEqual([400, 'bad_request']);
  });

  it("records an HTTP server's exchanges (and sends each as an event)", async () => {
    const url = (await demoOverHttp()).href;
    const added = await call(
      pg,
      'POST /api/servers',
      {},
      { kind: 'url', name: 'web', url, transport: 'streamable-http' },
    );
    expect(added.body[0]?.kind).toBe('url');
    await connected(pg, 'web');
    const exchange = await events.next('http', (e) => e.serverId === 'web' && e.exchange.status !== undefined);
    expect(exchange.exchange.url).toBe(url);
    const { body } = await call(pg, 'GET /api/servers/:id/http', { id: 'web' });
    expect(body.some((x) => x.method === 'POST' && x.status === 200 && x.rpc !== undefined)).toBe(true);
  });
});
