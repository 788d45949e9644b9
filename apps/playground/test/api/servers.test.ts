// The API over HTTP, no browser: the servers routes (add, list, reconnect, remove) and the checks every request passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../../../tooling/fixtures/http/spawn.mjs';
import { demoServerScript, rawRequest, type Playground } from '../harness.js';
import { call, codeOf, connected, send, startWithDemo } from './api-client.js';

let pg: Playground;
let http: Fixture | undefined;

beforeAll(async () => {
  pg = await startWithDemo();
}, 90_000);

afterAll(async () => {
  await pg?.stop();
  await http?.stop();
});

describe('servers', () => {
  it('lists each server as a ServerView, the connected one with what it declared', async () => {
    const { status, body } = await call(pg, 'GET /api/servers', {});
    expect(status).toBe(200);
    const demo = body.find((s) => s.id === 'demo');
    expect(demo).toMatchObject({ name: 'demo', kind: 'stdio', state: 'connected', era: 'modern' });
    expect(demo?.target).toContain('server.mjs stdio');
    expect(demo?.serverInfo?.name).toBe('mcpc-demo');
    expect(demo?.capabilities?.tools).toBeDefined();
  });

  it('adds the servers of an mcpServers document (JSON text), removes one, and says which is unknown', async () => {
    const document = JSON.stringify({
      mcpServers: { second: { command: process.execPath, args: [demoServerScript, 'stdio'] } },
    });
    const added = await call(pg, 'POST /api/servers', {}, { kind: 'config', document });
    expect(added.status).toBe(200);
    expect(added.body.map((s) => s.id)).toEqual(['second']);
    await connected(pg, 'second');
    expect(await call(pg, 'DELETE /api/servers/:id', { id: 'second' })).toEqual({ status: 200, body: {} });
    const { body } = await call(pg, 'GET /api/servers', {});
    expect(body.map((s) => s.id)).not.toContain('second');
    const again = await call(pg, 'DELETE /api/servers/:id', { id: 'second' });
    expect([again.status, codeOf(again)]).toEqual([404, 'unknown_server']);
  });

  it('reads an mcpServers entry as the client and mcpc do: the hosts\' type "http" is Streamable HTTP', async () => {
    http = await startFixture(demoServerScript, ['http'], { timeoutMs: 20_000 });
    const url = new URL('/mcp', http.url).href;
    const document = {
      mcpServers: { hosted: { type: 'http', url }, spelled: { transport: 'streamable_http', serverUrl: url } },
    };
    const added = await call(pg, 'POST /api/servers', {}, { kind: 'config', document });
    expect(added.body.map((s) => [s.id, s.kind, s.target])).toEqual([
      ['hosted', 'url', url],
      ['spelled', 'url', url],
    ]);
    for (const id of ['hosted', 'spelled']) {
      expect((await connected(pg, id)).transport, id).toBe('streamable-http');
      await call(pg, 'DELETE /api/servers/:id', { id });
    }
  });

  it('refuses an mcpServers document whose entry cannot be read, naming the entry', async () => {
    const cases: [unknown, string][] = [
      [{ mcpServers: { pigeon: { type: 'carrier-pigeon', url: 'http://127.0.0.1:1/mcp' } } }, 'mcpServers["pigeon"]'],
      [{ mcpServers: { nothing: { args: ['x'] } } }, 'mcpServers["nothing"]'],
      [{ servers: {} }, 'needs an "mcpServers" object'],
    ];
    for (const [document, message] of cases) {
      const answer = await send<{ error: { code: string; message: string } }>(pg, 'POST', '/api/servers', {
        kind: 'config',
        document,
      });
      expect([answer.status, answer.body.error.code], JSON.stringify(document)).toEqual([400, 'bad_config']);
      expect(answer.body.error.message).toContain(message);
    }
    const { body } = await call(pg, 'GET /api/servers', {});
    expect(body.map((s) => s.id)).not.toContain('pigeon');
  });

  it('reconnects a server: a fresh client, connected again', async () => {
    expect(await call(pg, 'POST /api/servers/:id/reconnect', { id: 'demo' })).toEqual({ status: 200, body: {} });
    expect((await connected(pg, 'demo')).state).toBe('connected');
  });

  it('refuses bodies that are not a server', async () => {
    const cases: [unknown, string][] = [
      [{ kind: 'url', url: 'ftp://example.com' }, '"url" (http or https) is required'],
      [{ kind: 'url', url: 'http://127.0.0.1:1/mcp', transport: 'carrier-pigeon' }, '"transport" is auto'],
      [{ kind: 'stdio', command: '' }, '"command" (a string) is required'],
      [{ kind: 'stdio', command: 'node', args: [1] }, '"args" must be an array of strings'],
      [{ kind: 'telepathy' }, '"kind" is stdio, url or config'],
      [{ kind: 'config', document: '{ not json' }, 'the config document is not JSON'],
    ];
    for (const [body, message] of cases) {
      const answer = await send<{ error: { message: string } }>(pg, 'POST', '/api/servers', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(message);
    }
  });

  it('names the sandbox origin of the MCP Apps host', async () => {
    const { body } = await call(pg, 'GET /api/sandbox', {});
    expect(body.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(body.origin).not.toBe(pg.origin);
  });
});

describe('every request', () => {
  it('needs the token, our Host and our Origin', async () => {
    const noToken = await rawRequest(pg.port, '/api/servers', { host: `127.0.0.1:${pg.port}` });
    expect(noToken.status).toBe(401);
    const badHost = await rawRequest(pg.port, '/api/servers', { host: 'evil.example', 'x-playground-token': pg.token });
    expect(badHost.status).toBe(421);
    const foreign = await send(pg, 'GET', '/api/servers', undefined, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
  });

  it('is JSON within bounds, to a route of the table', async () => {
    const plain = await send(pg, 'POST', '/api/validate', 'x', { 'content-type': 'text/plain' });
    expect([plain.status, codeOf(plain)]).toEqual([415, 'bad_content_type']);
    const broken = await send(pg, 'POST', '/api/validate', '{ nope');
    expect([broken.status, codeOf(broken)]).toEqual([400, 'bad_json']);
    const nowhere = await send(pg, 'GET', '/api/servers/demo/nothing-here');
    expect([nowhere.status, codeOf(nowhere)]).toEqual([404, 'not_found']);
    const wrongMethod = await send(pg, 'PUT', '/api/servers');
    expect(wrongMethod.status).toBe(404);
    const badSegment = await send(pg, 'GET', '/api/servers/%E0%A4%A/tools');
    expect([badSegment.status, codeOf(badSegment)]).toEqual([400, 'bad_path']);
  });

  it('serves the page without a token, and nothing else from disk', async () => {
    const page = await fetch(new URL('/', pg.origin));
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain(pg.token);
    expect((await fetch(new URL('/package.json', pg.origin))).status).toBe(404);
    expect((await fetch(new URL('/', pg.origin), { method: 'POST' })).status).toBe(405);
  });
});
