// The API over HTTP, no browser: each call's spans (GET …/timeline and `span` events), nested, timed, payload-free.
import { describe, expect, it } from 'vitest';
import type { SpanView } from '../../contract/api.js';
import { demoServerScript, until, type Playground } from '../harness.js';
import { call, connected, openDemoForFile, type Events } from './api-client.js';

let pg: Playground;
let events: Events;
const { demoOverHttp } = openDemoForFile((demo) => ({ pg, events } = demo));

/** A call's spans once its root (the playground's own span) has ended: the root, and the trace it leads. */
interface Trace {
  root: SpanView;
  spans: SpanView[];
  /** The spans whose parent is `parent`, in start order. */
  children: (parent: SpanView) => SpanView[];
}

function traceWhere(server: string, match: (root: SpanView) => boolean): Promise<Trace> {
  return until(async () => {
    const { body } = await call(pg, 'GET /api/servers/:id/timeline', { id: server });
    const root = body.find((s) => s.parentSpanId === undefined && s.durationMs !== undefined && match(s));
    if (root === undefined) return undefined;
    const spans = body.filter((s) => s.traceId === root.traceId);
    const children = (parent: SpanView) =>
      spans.filter((s) => s.parentSpanId === parent.spanId).sort((a, b) => a.startMs - b.startMs);
    return { root, spans, children };
  }, `the spans of a call on ${server}`);
}

const ofCall = (callId: string) => (root: SpanView) => root.attributes['playground.call.id'] === callId;

/** Starts a tool call; its id. */
async function start(tool: string, args: Record<string, unknown> = {}, asTask = false, server = 'demo') {
  const { status, body } = await call(
    pg,
    'POST /api/servers/:id/call',
    { id: server },
    { tool, arguments: args, asTask },
  );
  expect(status).toBe(200);
  return body.callId;
}

/** The dialogs answered so far (the stream keeps every event, old dialogs' too). */
const answered = new Set<string>();

/** Answers the next elicitations the server raises, one after the other, with these contents. */
async function answerElicitations(server: string, contents: Record<string, unknown>[]): Promise<void> {
  for (const content of contents) {
    const asked = await events.next('elicitation', (e) => e.serverId === server && !answered.has(e.dialogId));
    answered.add(asked.dialogId);
    const reply = { answer: { action: 'accept' as const, content } };
    expect((await call(pg, 'POST /api/dialogs/:dialogId', { dialogId: asked.dialogId }, reply)).status).toBe(200);
  }
}

const end = (s: SpanView) => s.startMs + (s.durationMs ?? Number.NaN);

/** The SDK starts a span at `Date.now()` (durations are finer): two spans' times agree to the millisecond. */
const CLOCK_MS = 1;

/** The child lies within its parent's time, in its trace, under it. */
function expectNested(child: SpanView, parent: SpanView): void {
  expect(child.traceId).toBe(parent.traceId);
  expect(child.parentSpanId).toBe(parent.spanId);
  expect(child.durationMs).toBeGreaterThan(0);
  expect(child.durationMs).toBeLessThanOrEqual(parent.durationMs ?? 0);
  expect(child.startMs).toBeGreaterThanOrEqual(parent.startMs - CLOCK_MS);
  expect(end(child)).toBeLessThanOrEqual(end(parent) + CLOCK_MS);
}

describe('timeline', () => {
  it('puts the connect in a span of its own, with the client’s server/discover under it', async () => {
    const { root, children } = await traceWhere('demo', (s) => s.name === 'playground connect');
    expect(root).toMatchObject({ kind: 'internal', status: 'unset' });
    expect(root.attributes).toMatchObject({ 'playground.server.id': 'demo', 'playground.operation': 'connect' });
    const [discover] = children(root);
    expect(discover).toMatchObject({ name: 'server/discover', kind: 'client' });
    expect(discover?.attributes['mcp.method.name']).toBe('server/discover');
    expectNested(discover!, root);
  });

  it('makes a tool call one trace: its span, the client’s tools/call under it, timed, sent live, no payloads', async () => {
    const callId = await start('add', { a: 1234567, b: 7654321 });
    await events.next('result', (e) => e.callId === callId);
    const { root, spans, children } = await traceWhere('demo', ofCall(callId));
    expect(root).toMatchObject({ name: 'playground call tools/call add', kind: 'internal', status: 'unset' });
    expect(root.durationMs).toBeGreaterThan(0);
    const request = children(root).find((s) => s.name === 'tools/call add');
    expect(request).toMatchObject({ kind: 'client', status: 'unset' });
    expect(request?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'add',
      'jsonrpc.request.id': expect.any(String),
    });
    for (const child of children(root)) expectNested(child, root);
    // The answer is marked on the call when it reached the playground, after the request's response.
    const answer = root.events.find((e) => e.name === 'answer');
    expect(answer?.attributes).toEqual({ 'playground.answer': 'result' });
    expect(answer!.atMs).toBeGreaterThanOrEqual(end(request!) - CLOCK_MS);
    // Each span came over the stream as it started (no duration) and as it ended.
    const sent = (done: boolean) =>
      events.next('span', (e) => e.span.spanId === request?.spanId && (e.span.durationMs !== undefined) === done);
    expect((await sent(false)).serverId).toBe('demo');
    expect((await sent(true)).span.durationMs).toBe(request?.durationMs);
    // Neither the arguments nor the result are in any span.
    const text = JSON.stringify(spans);
    for (const payload of ['1234567', '7654321', '8888888']) expect(text).not.toContain(payload);
  });

  it('marks a failed tool and a failed request as errors with their error.type', async () => {
    const callId = await start('fail-tool');
    await events.next('result', (e) => e.callId === callId);
    const failedTool = await traceWhere('demo', ofCall(callId));
    expect(failedTool.root).toMatchObject({ status: 'error', attributes: { 'error.type': 'tool_error' } });
    expect(failedTool.root.events.at(-1)).toMatchObject({
      name: 'answer',
      attributes: { 'playground.answer': 'tool_error' },
    });
    expect(failedTool.children(failedTool.root).find((s) => s.name === 'tools/call fail-tool')).toMatchObject({
      status: 'error',
      attributes: { 'error.type': 'tool_error' },
    });

    const answer = await call(pg, 'POST /api/servers/:id/prompt', { id: 'demo' }, { name: 'no-such-prompt' });
    expect(answer.status).toBe(502);
    const { root, children } = await traceWhere('demo', (s) => s.name === 'playground call prompts/get no-such-prompt');
    const code = (answer.body as unknown as { error: { code: string } }).error.code;
    expect(root).toMatchObject({ status: 'error', statusMessage: code, attributes: { 'error.type': code } });
    expect(root.events).toEqual([]); // no answer came
    const [request] = children(root);
    expect(request).toMatchObject({ name: 'prompts/get no-such-prompt', kind: 'client', status: 'error' });
    expect(request?.attributes['error.type']).toEqual(expect.any(String));
    expectNested(request!, root);
  });

  it('shows each input round (2026-07-28) as a tools/call of its own under the call, the rounds marked on it', async () => {
    const callId = await start('two-step');
    await answerElicitations('demo', [{ city: 'Paris' }, { days: 3 }]);
    await events.next('result', (e) => e.callId === callId && e.result !== undefined);
    const { root, children } = await traceWhere('demo', ofCall(callId));
    const rounds = children(root).filter((s) => s.name === 'tools/call two-step');
    expect(rounds).toHaveLength(3);
    for (const round of rounds) expectNested(round, root);
    expect(root.events.map((e) => e.name)).toEqual([
      'input request',
      'input answered',
      'input request',
      'input answered',
      'answer',
    ]);
    expect(root.events[0]?.attributes).toEqual({ 'playground.input.kind': 'elicitation' });
    for (const mark of root.events) {
      expect(mark.atMs).toBeGreaterThanOrEqual(root.startMs);
      expect(mark.atMs).toBeLessThanOrEqual(end(root) + CLOCK_MS);
    }
  });

  it('shows a task: the call, its polls and its input under the call span, each status as an event', async () => {
    const callId = await start('long-task', { steps: 3 }, true);
    await answerElicitations('demo', [{ proceed: true }]);
    await events.next('result', (e) => e.callId === callId, 30_000);
    const { root, children } = await traceWhere('demo', ofCall(callId));
    expect(root.attributes['playground.call.task']).toBe(true);
    const names = children(root).map((s) => s.name);
    expect(names[0]).toBe('tools/call long-task');
    expect(names.filter((n) => n === 'tasks/get').length).toBeGreaterThanOrEqual(2);
    expect(names).toContain('tasks/update');
    for (const child of children(root)) expectNested(child, root);
    const statuses = root.events.filter((e) => e.name === 'task status').map((e) => e.attributes['mcp.task.status']);
    expect(statuses[0]).toBe('working');
    expect(statuses).toContain('input_required');
    expect(statuses.at(-1)).toBe('completed');
    expect(root.events.map((e) => e.name)).toContain('input request');
  });

  it('shows a 2025-11-25 connect (initialize after a refused discover) and its server’s input requests', async () => {
    const added = await call(
      pg,
      'POST /api/servers',
      {},
      {
        kind: 'stdio',
        name: 'legacy',
        command: process.execPath,
        args: [demoServerScript, 'stdio', '--era', 'legacy'],
      },
    );
    expect(added.status).toBe(200);
    await connected(pg, 'legacy');
    const connect = await traceWhere('legacy', (s) => s.name === 'playground connect');
    const requests = connect.children(connect.root);
    expect(requests.map((s) => s.name)).toContain('initialize');
    for (const request of requests) expectNested(request, connect.root);

    const callId = await start('two-step', {}, false, 'legacy');
    await answerElicitations('legacy', [{ city: 'Paris' }, { days: 3 }]);
    await events.next('result', (e) => e.callId === callId && e.result !== undefined);
    const { root, children } = await traceWhere('legacy', ofCall(callId));
    // One request: the server asks with requests of its own, which land on the one call in flight.
    expect(children(root).filter((s) => s.name === 'tools/call two-step')).toHaveLength(1);
    expect(root.events.filter((e) => e.name === 'input request')).toHaveLength(2);
  });

  it('traces a call over Streamable HTTP the same way, with the server’s address on the request span', async () => {
    const url = await demoOverHttp();
    const added = await call(pg, 'POST /api/servers', {}, { kind: 'url', name: 'web', url: url.href });
    expect(added.status).toBe(200);
    await connected(pg, 'web');
    const callId = await start('echo', { message: 'secret-words' }, false, 'web');
    await events.next('result', (e) => e.callId === callId);
    const { root, spans, children } = await traceWhere('web', ofCall(callId));
    const request = children(root).find((s) => s.name === 'tools/call echo');
    expect(request?.attributes).toMatchObject({
      'network.transport': 'tcp',
      'server.address': '127.0.0.1',
      'server.port': Number(url.port),
    });
    for (const child of children(root)) expectNested(child, root);
    expect(JSON.stringify(spans)).not.toContain('secret-words');
  });
});
