// The API over HTTP, no browser: tools, calls (and their events), cancellation, and the schema check of a form.
import { describe, expect, it } from 'vitest';
import type { Playground } from '../harness.js';
import type { Events } from './api-client.js';
import { call, codeOf, openDemoForFile, send } from './api-client.js';

let pg: Playground;
let events: Events;
openDemoForFile((demo) => ({ pg, events } = demo));

/** Calls a tool and resolves with its `result` event. */
async function run(tool: string, args: Record<string, unknown> = {}) {
  const started = await call(pg, 'POST /api/servers/:id/call', { id: 'demo' }, { tool, arguments: args });
  expect(started.status).toBe(200);
  return events.next('result', (e) => e.callId === started.body.callId);
}

describe('tools', () => {
  it('lists the tools, each with the hints its server declared apart from the defaults', async () => {
    const { status, body } = await call(pg, 'GET /api/servers/:id/tools', { id: 'demo' });
    expect(status).toBe(200);
    const add = body.find((t) => t.name === 'add');
    expect(add?.outputSchema).toBeDefined();
    expect(add?.declaredAnnotations).toBeTypeOf('object');
    expect(add?.annotations.readOnlyHint).toBeTypeOf('boolean');
  });

  it('runs a call: its result arrives as an event, with the client verdict on the output schema', async () => {
    const e = await run('add', { a: 1, b: 2 });
    expect(e.error).toBeUndefined();
    expect(e.result?.structuredContent).toEqual({ sum: 3 });
    expect(e.output).toEqual({ valid: true, issues: [] });
  });

  it('sends the result that breaks its output schema with the issues the client found', async () => {
    const e = await run('bad-output');
    expect(e.output?.valid).toBe(false);
    expect(e.output?.issues.map((i) => i.instancePath)).toContain('/count');
    expect(e.result?.structuredContent).toEqual(expect.objectContaining({ count: 'three' }));
  });

  it("sends a tool's own failure as a result with isError", async () => {
    const e = await run('fail-tool');
    expect(e.result?.isError).toBe(true);
  });

  it('sends progress, and cancels a call in flight (then it is no longer known)', async () => {
    const started = await call(
      pg,
      'POST /api/servers/:id/call',
      { id: 'demo' },
      {
        tool: 'slow-count',
        arguments: { steps: 50, delayMs: 200 },
      },
    );
    const { callId } = started.body;
    const progress = await events.next('progress', (e) => e.callId === callId);
    expect(progress.total).toBe(50);
    expect(await call(pg, 'POST /api/calls/:callId/cancel', { callId })).toEqual({ status: 200, body: {} });
    const result = await events.next('result', (e) => e.callId === callId);
    expect(result.error?.code).toBe('ABORT_ERR');
    const again = await call(pg, 'POST /api/calls/:callId/cancel', { callId });
    expect([again.status, codeOf(again)]).toEqual([404, 'unknown_call']);
  });

  it('refuses a call without a tool name or with arguments that are not an object', async () => {
    const noTool = await send(pg, 'POST', '/api/servers/demo/call', { arguments: {} });
    expect([noTool.status, codeOf(noTool)]).toEqual([400, 'bad_request']);
    const list = await send(pg, 'POST', '/api/servers/demo/call', { tool: 'add', arguments: [1, 2] });
    expect(list.status).toBe(400);
    const unknown = await send(pg, 'POST', '/api/servers/nope/call', { tool: 'add' });
    expect([unknown.status, codeOf(unknown)]).toEqual([404, 'unknown_server']);
  });

  it('lists no task for plain calls, and refuses to cancel a task it did not create', async () => {
    expect((await call(pg, 'GET /api/servers/:id/tasks', { id: 'demo' })).body).toEqual([]);
    const cancel = await call(pg, 'POST /api/servers/:id/tasks/:taskId/cancel', { id: 'demo', taskId: 'nope' });
    expect([cancel.status, codeOf(cancel)]).toEqual([404, 'unknown_task']);
  });
});

describe('validate', () => {
  const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };

  it('checks a value against a schema with @mcpc/schema-validator', async () => {
    expect((await call(pg, 'POST /api/validate', {}, { schema, value: { a: 1 } })).body).toEqual({
      valid: true,
      issues: [],
    });
    const { body } = await call(pg, 'POST /api/validate', {}, { schema, value: { a: 'x' } });
    expect(body.valid).toBe(false);
    expect(body.issues[0]).toMatchObject({ instancePath: '/a', keyword: 'type' });
  });

  it('answers 400 with the validator code for a schema it cannot use', async () => {
    const answer = await call(
      pg,
      'POST /api/validate',
      {},
      { schema: { type: 'object', $ref: 'https://x/y' }, value: {} },
    );
    expect(answer.status).toBe(400);
    expect(codeOf(answer)).toMatch(/^MCPC_/);
  });
});
