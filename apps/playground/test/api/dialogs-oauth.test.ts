// The API over HTTP, no browser: elicitation and sampling dialogs answered through it; the OAuth debugger's routes.
import { describe, expect, it } from 'vitest';
import { rawRequest, type Playground } from '../harness.js';
import { call, codeOf, Events, openDemoForFile, send } from './api-client.js';

let pg: Playground;
let events: Events;
const { demoOverHttp } = openDemoForFile((demo) => ({ pg, events } = demo));

const demo = { id: 'demo' };
const textOf = (content: readonly { type: string; text?: string }[] | undefined) =>
  (content ?? []).map((c) => c.text ?? '').join('');

describe('dialogs', () => {
  it('raises an elicitation, shows it to a late page, checks the answer, and settles the call with it', async () => {
    const { body } = await call(pg, 'POST /api/servers/:id/call', demo, { tool: 'ask-name' });
    const asked = await events.next('elicitation', (e) => e.serverId === 'demo');
    expect(asked.request.mode).toBe('form');
    // A page that connects now is sent the dialog still open.
    const late = new Events(pg);
    expect((await late.next('elicitation')).dialogId).toBe(asked.dialogId);
    late.close();

    const bad = await send(pg, 'POST', `/api/dialogs/${asked.dialogId}`, { answer: { action: 'maybe' } });
    expect([bad.status, codeOf(bad)]).toEqual([400, 'bad_request']);
    const answer = { action: 'accept' as const, content: { name: 'Ada', age: 36, color: 'blue', subscribe: true } };
    expect(await call(pg, 'POST /api/dialogs/:dialogId', { dialogId: asked.dialogId }, { answer })).toEqual({
      status: 200,
      body: {},
    });
    await events.next('dialog-closed', (e) => e.dialogId === asked.dialogId);
    const result = await events.next('result', (e) => e.callId === body.callId);
    expect(textOf(result.result?.content)).toContain('Hello, Ada');
    const again = await call(pg, 'POST /api/dialogs/:dialogId', { dialogId: asked.dialogId }, { answer });
    expect([again.status, codeOf(again)]).toEqual([404, 'unknown_dialog']);
  });

  it('raises a sampling request and answers it with the text typed in the page', async () => {
    const { body } = await call(pg, 'POST /api/servers/:id/call', demo, {
      tool: 'summarize',
      arguments: { text: 'a long story' },
    });
    const asked = await events.next('sampling', (e) => e.serverId === 'demo');
    expect(asked.request.messages.length).toBeGreaterThan(0);
    const noText = await send(pg, 'POST', `/api/dialogs/${asked.dialogId}`, { answer: { action: 'accept' } });
    expect(noText.status).toBe(400);
    await call(
      pg,
      'POST /api/dialogs/:dialogId',
      { dialogId: asked.dialogId },
      {
        answer: { action: 'accept', text: 'short' },
      },
    );
    const result = await events.next('result', (e) => e.callId === body.callId);
    expect(textOf(result.result?.content)).toContain('Summary (playground-user)');
  });
});

describe('the OAuth debugger', () => {
  it('starts a run and runs its first step, the exchange it made shown with it', async () => {
    const url = (await demoOverHttp()).href;
    const { status, body } = await call(pg, 'POST /api/oauth/runs', {}, { url });
    expect(status).toBe(200);
    expect(await call(pg, 'POST /api/oauth/runs/:runId/continue', { runId: body.runId })).toEqual({
      status: 200,
      body: {},
    });
    const { step } = await events.next('oauth-step', (e) => e.runId === body.runId);
    expect(step).toMatchObject({ index: 1, name: 'challenge', ok: true });
    expect(step.rule).toContain('WWW-Authenticate');
    // An unauthenticated request to the endpoint, and what it found: no challenge from a server without OAuth.
    expect(step.exchange?.request.url).toBe(url);
    expect(step.exchange?.response?.status).toBe(400);
    expect(step.info).toMatchObject({ status: 400, challenges: [] });
  });

  it('refuses a run without a URL, a run it does not know, and a redirect no run is waiting for', async () => {
    const noUrl = await send(pg, 'POST', '/api/oauth/runs', {});
    expect([noUrl.status, codeOf(noUrl)]).toEqual([400, 'invalid_request']);
    const unknown = await call(pg, 'POST /api/oauth/runs/:runId/continue', { runId: 'nope' });
    expect([unknown.status, codeOf(unknown)]).toEqual([404, 'unknown_run']);
    // The browser's redirect needs no token; `state` must match a run.
    const callback = await rawRequest(pg.port, '/oauth/callback?code=x&state=y', { host: `127.0.0.1:${pg.port}` });
    expect(callback.status).toBe(400);
    expect(callback.body).toContain('belongs to no OAuth debugger run');
  });
});
