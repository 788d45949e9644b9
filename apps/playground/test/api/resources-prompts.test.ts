// The API over HTTP, no browser: prompts, completion, resources, templates, reads, subscriptions, MCP Apps resources.
import { describe, expect, it } from 'vitest';
import type { Playground } from '../harness.js';
import type { Events } from './api-client.js';
import { call, codeOf, openDemoForFile, send } from './api-client.js';

let pg: Playground;
let events: Events;
openDemoForFile((demo) => ({ pg, events } = demo));

const demo = { id: 'demo' };

describe('prompts', () => {
  it('lists the prompts and gets one with its arguments', async () => {
    const list = await call(pg, 'GET /api/servers/:id/prompts', demo);
    expect(list.body.map((p) => p.name)).toContain('greeting');
    const { status, body } = await call(pg, 'POST /api/servers/:id/prompt', demo, {
      name: 'greeting',
      arguments: { name: 'Ada', style: 'pirate' },
    });
    expect(status).toBe(200);
    expect(JSON.stringify(body.messages)).toContain('Ada');
  });

  it('completes an argument', async () => {
    const { body } = await call(pg, 'POST /api/servers/:id/complete', demo, {
      ref: { type: 'ref/prompt', name: 'greeting' },
      argument: { name: 'name', value: 'A' },
    });
    expect(body.values).toEqual(expect.arrayContaining(['Ada', 'Alan']));
  });

  it('refuses a prompt without a name and a completion without a reference', async () => {
    expect(codeOf(await send(pg, 'POST', '/api/servers/demo/prompt', { arguments: {} }))).toBe('bad_request');
    expect(codeOf(await send(pg, 'POST', '/api/servers/demo/complete', { argument: {} }))).toBe('bad_request');
  });
});

describe('resources', () => {
  it('lists the resources and the templates', async () => {
    const resources = await call(pg, 'GET /api/servers/:id/resources', demo);
    expect(resources.body.map((r) => r.uri)).toEqual(expect.arrayContaining(['demo://readme', 'demo://logo.png']));
    const templates = await call(pg, 'GET /api/servers/:id/templates', demo);
    expect(templates.body.map((t) => t.uriTemplate)).toContain('demo://notes/{id}');
  });

  it('reads text as text and bytes as base64', async () => {
    const json = await call(pg, 'POST /api/servers/:id/read', demo, { uri: 'demo://config.json' });
    const [config] = json.body.contents;
    expect(config).toMatchObject({ uri: 'demo://config.json', mimeType: 'application/json' });
    expect(config && 'text' in config && JSON.parse(config.text)).toBeTypeOf('object');
    const png = await call(pg, 'POST /api/servers/:id/read', demo, { uri: 'demo://logo.png' });
    const [logo] = png.body.contents;
    expect(logo && 'blob' in logo && Buffer.from(logo.blob, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('subscribes: updates arrive as notification events, until it unsubscribes', async () => {
    const uri = 'demo://counter';
    expect(await call(pg, 'POST /api/servers/:id/subscribe', demo, { uri })).toEqual({ status: 200, body: {} });
    const update = await events.next(
      'notification',
      (e) => e.method === 'notifications/resources/updated' && e.params.uri === uri,
    );
    expect(update.serverId).toBe('demo');
    expect(await call(pg, 'POST /api/servers/:id/unsubscribe', demo, { uri })).toEqual({ status: 200, body: {} });
  });

  it('serves a ui:// resource to the MCP Apps host, and nothing else there', async () => {
    const { body } = await call(pg, 'GET /api/servers/:id/ui', demo, undefined, { uri: 'ui://demo/chart' });
    expect(body.mimeType).toContain('text/html');
    expect(body.html).toContain('<');
    const other = await call(pg, 'GET /api/servers/:id/ui', demo, undefined, { uri: 'demo://readme' });
    expect([other.status, codeOf(other)]).toEqual([400, 'bad_request']);
    expect(codeOf(await send(pg, 'POST', '/api/servers/demo/read', {}))).toBe('bad_request');
  });
});
