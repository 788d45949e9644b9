// The MCP 2026-07-28 tasks extension against the scripted tasks server, over stdio and Streamable HTTP.
//
// The server is tooling/fixtures/tasks/scripted-tasks-server.mjs --era modern.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import {
  AbortError,
  AmbiguousTaskError,
  Client,
  ConnectionClosedError,
  ConnectionError,
  McpError,
  StructuredContentError,
  Task,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  TaskInputError,
  TaskNotFoundError,
  TaskReplacedError,
  TaskTimeoutError,
  TaskUnsupportedError,
  TransportError,
  ValidationError,
  stdio,
  streamableHttp,
  textOf,
  type ClientOptions,
  type ServerConfig,
} from '@mcpc/client';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { recordingLogger, tick } from './helpers.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const SUB = 'io.modelcontextprotocol/subscriptionId';
const SERVER = fileURLToPath(new URL('../../../tooling/fixtures/tasks/scripted-tasks-server.mjs', import.meta.url));

/** One request the fixture received (its `stats` tool). */
interface Received {
  method: string;
  id?: string | number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped wire params, read field by field in the assertions
  params: Record<string, any>;
  headers?: Record<string, string>;
}

/** Every request and notification the client's server received so far (not counting this stats call). */
async function stats(client: Client, server?: string): Promise<Received[]> {
  const result = await client.callTool('stats', {}, server === undefined ? {} : { server });
  return (result.structuredContent as { requests: Received[] }).requests;
}

const forTask = (requests: Received[], method: string, taskId: string): Received[] =>
  requests.filter((r) => r.method === method && r.params?.taskId === taskId);

const toolCalls = (requests: Received[], tool: string): Received[] =>
  requests.filter((r) => r.method === 'tools/call' && r.params?.name === tool);

const declaredExtensions = (request: Received): Record<string, unknown> | undefined =>
  request.params?._meta?.[CAPS]?.extensions;

/** The key an elicitation of the fixture asks for (`give <key>`). */
const keyOf = (request: { message: string }): string => request.message.replace(/^give /, '');

/** Records every status an `onStatus`/`onTaskStatus` listener is told, and the task id. */
function statusLog(): { statuses: string[]; taskId: () => string; listener: (t: Task) => void } {
  const statuses: string[] = [];
  let id = '';
  return {
    statuses,
    taskId: () => id,
    listener: (t: Task) => {
      id = t.taskId;
      statuses.push(t.status);
    },
  };
}

const collapse = (statuses: string[]): string[] => statuses.filter((s, i) => i === 0 || statuses[i - 1] !== s);

describe.each(['stdio', 'http'] as const)('tasks extension (2026-07-28) over %s', { timeout: 20_000 }, (over) => {
  let fixture: Fixture | undefined;
  const clients: Client[] = [];

  /** A server config for the fixture: its own process over stdio, the shared one over HTTP. */
  const server = (name = 't'): ServerConfig =>
    over === 'stdio'
      ? stdio({ name, command: process.execPath, args: [SERVER, 'stdio', '--era', 'modern'] })
      : streamableHttp({ name, url: fixture!.url, retries: 0 });

  const open = (options: ClientOptions = {}, names: string[] = ['t']): Client => {
    const client = new Client({ servers: names.map((n) => server(n)), logger: recordingLogger(), ...options });
    clients.push(client);
    return client;
  };

  /** Host handler calls, by key; `throwing` makes the handler fail. */
  const asked = new Map<string, number>();
  let throwing = false;
  const onElicitation: ClientOptions['onElicitation'] = (request) => {
    const key = keyOf(request);
    asked.set(key, (asked.get(key) ?? 0) + 1);
    if (throwing) throw new Error('the user closed the dialog');
    return { action: 'accept', content: { v: `answer-${key}` } };
  };

  let plain: Client; // no extensions, no handlers
  let opted: Client; // extensions: tasks, with the elicitation handler
  let optedLogger: ReturnType<typeof recordingLogger>;

  beforeAll(async () => {
    if (over === 'http')
      fixture = await startFixture('../tasks/scripted-tasks-server.mjs', ['http', '--era', 'modern']);
    plain = open();
    optedLogger = recordingLogger();
    opted = open({ extensions: [TASKS], onElicitation, logger: optedLogger });
    await Promise.all([plain.connect(), opted.connect()]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await fixture?.stop();
  });

  it('opt-in: without `extensions` a task tool answers directly; with it, it runs as a polled task', async () => {
    const before = (await stats(plain)).length;
    const direct = await plain.callTool('job');
    expect(textOf(direct)).toBe('done');
    const sent = toolCalls((await stats(plain)).slice(before), 'job');
    expect(sent).toHaveLength(1);
    expect(declaredExtensions(sent[0]!)?.[TASKS]).toBeUndefined();

    const log = statusLog();
    const result = await opted.callTool('job', {}, { onTaskStatus: log.listener });
    expect(textOf(result)).toBe('done');
    expect(collapse(log.statuses)).toEqual(['working', 'completed']);
    const requests = await stats(opted);
    const call = toolCalls(requests, 'job').at(-1)!;
    expect(declaredExtensions(call)?.[TASKS]).toEqual({});
    expect(forTask(requests, 'tasks/get', log.taskId()).length).toBeGreaterThanOrEqual(2);
  });

  it('callToolAsTask + getTask (new handles) + waitForTask({ onStatus }) + getTaskResult', async () => {
    const task = await opted.callToolAsTask('job', { steps: 3 });
    expect(task).toBeInstanceOf(Task);
    expect(task).toMatchObject({ server: 't', status: 'working', direct: false, tool: 'job', ttlMs: 60000 });
    expect(task.taskId).toMatch(/\S/);
    expect(task.terminal).toBe(false);

    const seen = await opted.getTask(task);
    expect(seen).not.toBe(task);
    expect(seen.taskId).toBe(task.taskId);
    expect(seen.status).toBe('working');
    expect(task.status).toBe('working');

    const statuses: string[] = [];
    const done = await opted.waitForTask(task, { onStatus: (t) => statuses.push(t.status) });
    expect(done).not.toBe(task);
    expect(done.status).toBe('completed');
    expect(done.terminal).toBe(true);
    expect(textOf(done.result!)).toBe('done');
    expect(statuses.at(-1)).toBe('completed');
    expect(statuses).toContain('working');
    expect(task.terminal).toBe(false); // handles are immutable

    expect(textOf(await opted.getTaskResult(done))).toBe('done');
    expect(textOf(await opted.getTaskResult(task))).toBe('done');
  });

  it('callToolAsTask declares the extension on that request without the client opting in, and sends no ttl', async () => {
    const before = (await stats(plain)).length;
    const task = await plain.callToolAsTask('job', {}, { ttl: 5000 });
    expect(task.direct).toBe(false);
    expect(task.ttlMs).toBe(60000); // the server chose it
    const requests = (await stats(plain)).slice(before);
    const [call] = toolCalls(requests, 'job');
    expect(declaredExtensions(call!)?.[TASKS]).toEqual({});
    expect(call!.params.task).toBeUndefined();
    expect(JSON.stringify(call!.params)).not.toMatch(/"ttl"/);
    expect(textOf((await plain.waitForTask(task)).result!)).toBe('done');
    // Only that request: the client's other calls still do not declare it (job answers directly again).
    const mark = (await stats(plain)).length;
    expect(textOf(await plain.callTool('job'))).toBe('done');
    const [later] = toolCalls((await stats(plain)).slice(mark), 'job');
    expect(declaredExtensions(later!)?.[TASKS]).toBeUndefined();
  });

  it('ask: the handler is asked once per key though the key is listed again after the update; tasks/update carries the answers by key', async () => {
    asked.clear();
    throwing = false;
    const log = statusLog();
    const result = await opted.callTool('ask', {}, { onTaskStatus: log.listener });
    expect(JSON.parse(textOf(result))).toEqual({ a: { v: 'answer-a' } });
    expect(Object.fromEntries(asked)).toEqual({ a: 1 });
    const requests = await stats(opted);
    const updates = forTask(requests, 'tasks/update', log.taskId());
    expect(updates).toHaveLength(1);
    expect(updates[0]!.params.inputResponses).toEqual({ a: { action: 'accept', content: { v: 'answer-a' } } });
    // The fixture listed `a` on two gets (before and right after the update): asked once all the same.
    expect(collapse(log.statuses)).toEqual(['working', 'input_required', 'working', 'completed']);
  });

  it('ask-twice: each key is asked once, in its own tasks/update', async () => {
    asked.clear();
    throwing = false;
    const log = statusLog();
    const result = await opted.callTool('ask-twice', {}, { onTaskStatus: log.listener });
    expect(JSON.parse(textOf(result))).toEqual({ a: { v: 'answer-a' }, b: { v: 'answer-b' } });
    expect(Object.fromEntries(asked)).toEqual({ a: 1, b: 1 });
    const updates = forTask(await stats(opted), 'tasks/update', log.taskId());
    expect(updates.map((u) => u.params.inputResponses)).toEqual([
      { a: { action: 'accept', content: { v: 'answer-a' } } },
      { b: { action: 'accept', content: { v: 'answer-b' } } },
    ]);
  });

  it('update-fails-once: the handler is asked once, tasks/update is sent again and the result has the answer', async () => {
    asked.clear();
    throwing = false;
    const log = statusLog();
    const result = await opted.callTool('update-fails-once', {}, { onTaskStatus: log.listener });
    expect(JSON.parse(textOf(result))).toEqual({ a: { v: 'answer-a' } });
    expect(Object.fromEntries(asked)).toEqual({ a: 1 });
    const updates = forTask(await stats(opted), 'tasks/update', log.taskId());
    expect(updates).toHaveLength(2);
    expect(updates[1]!.params.inputResponses).toEqual(updates[0]!.params.inputResponses);
  });

  it('a handler that throws is a TaskInputError (handler-failed); no handler is one (unsupported)', async () => {
    asked.clear();
    throwing = true;
    try {
      const log = statusLog();
      const error = await opted.callTool('ask', {}, { onTaskStatus: log.listener }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TaskInputError);
      expect(error).toMatchObject({ code: 'MCPC_TASK_INPUT', reason: 'handler-failed', key: 'a', server: 't' });
      expect(asked.get('a')).toBe(1);
      // callTool abandons the task: it is cancelled.
      expect(forTask(await stats(opted), 'tasks/cancel', log.taskId())).toHaveLength(1);
    } finally {
      throwing = false;
    }

    const bare = open({ extensions: [TASKS] });
    const error = await bare.callTool('ask').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskInputError);
    expect((error as TaskInputError).reason).toBe('unsupported');
  });

  it('the host answers with updateTask itself: the wait completes and the client handler is never called', async () => {
    const host = open({ onElicitation });
    asked.clear();
    let task = await host.callToolAsTask('ask');
    for (let i = 0; i < 50 && !task.inputRequired; i++) {
      await tick(20);
      task = await host.getTask(task);
    }
    expect(task.status).toBe('input_required');
    expect(Object.keys(task.inputRequests ?? {})).toEqual(['a']);
    await host.updateTask(task, { a: { action: 'accept', content: { v: 'mine' } } });
    const done = await host.waitForTask(task);
    expect(done.status).toBe('completed');
    expect(JSON.parse(textOf(done.result!))).toEqual({ a: { v: 'mine' } });
    expect(asked.size).toBe(0);
    const updates = forTask(await stats(host), 'tasks/update', task.taskId);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.params.inputResponses).toEqual({ a: { action: 'accept', content: { v: 'mine' } } });
  });

  it('fail → TaskFailedError; waitForTask → a failed handle with .error; tool-error → an isError result; server-cancels → TaskCancelledError', async () => {
    const failed = await opted.callTool('fail').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TaskFailedError);
    expect(failed).toMatchObject({ code: 'MCPC_TASK_FAILED', rpcCode: -32603, serverMessage: 'boom', server: 't' });

    const handle = await opted.waitForTask(await opted.callToolAsTask('fail'));
    expect(handle.status).toBe('failed');
    expect(handle.terminal).toBe(true);
    expect(handle.error).toEqual({ code: -32603, message: 'boom' });
    expect(handle.statusMessage).toBe('boom');

    const toolError = await opted.callTool('tool-error');
    expect(toolError.isError).toBe(true);
    expect(textOf(toolError)).toBe('bad');

    const cancelled = await opted.callTool('server-cancels').catch((e: unknown) => e);
    expect(cancelled).toBeInstanceOf(TaskCancelledError);
    expect(cancelled).toMatchObject({ code: 'MCPC_TASK_CANCELLED' });
  });

  it('expire: a task past its ttl is a TaskExpiredError', async () => {
    const error = await opted.callTool('expire', { ttl: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskExpiredError);
    expect(error).toMatchObject({ code: 'MCPC_TASK_EXPIRED', server: 't' });
  });

  it('zero-poll: a pollIntervalMs of 0 is floored at 100 ms', async () => {
    const log = statusLog();
    const started = performance.now();
    const result = await opted.callTool('zero-poll', {}, { onTaskStatus: log.listener });
    const elapsed = performance.now() - started;
    expect(textOf(result)).toBe('done');
    const gets = forTask(await stats(opted), 'tasks/get', log.taskId()).length;
    expect(gets).toBe(5);
    expect(gets).toBeLessThanOrEqual(elapsed / 100 + 2);
  });

  it('waitForTask({ timeout }) is a TaskTimeoutError and leaves the task running (no tasks/cancel)', async () => {
    const task = await opted.callToolAsTask('never');
    const error = await opted.waitForTask(task, { timeout: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskTimeoutError);
    expect(error).toMatchObject({ code: 'MCPC_TASK_TIMEOUT', taskId: task.taskId });
    expect(forTask(await stats(opted), 'tasks/cancel', task.taskId)).toHaveLength(0);
    expect((await opted.getTask(task)).status).toBe('working');
    await opted.cancelTask(task);
  });

  it('callTool({ timeout }) on a task is a TaskTimeoutError and cancels the task', async () => {
    const log = statusLog();
    const error = await opted.callTool('never', {}, { timeout: 300, onTaskStatus: log.listener }).catch((e) => e);
    expect(error).toBeInstanceOf(TaskTimeoutError);
    expect(log.taskId()).not.toBe('');
    expect(forTask(await stats(opted), 'tasks/cancel', log.taskId())).toHaveLength(1);
  });

  it('callTool({ signal }) aborted is an AbortError, cancels with tasks/cancel and never notifications/cancelled for a task method', async () => {
    const log = statusLog();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // Aborted 200 ms after the task exists (not while the creating tools/call is on its way).
    const onTaskStatus = (t: Task): void => {
      log.listener(t);
      timer ??= setTimeout(() => controller.abort(), 200);
    };
    const error = await opted
      .callTool('never', {}, { signal: controller.signal, onTaskStatus })
      .catch((e: unknown) => e);
    clearTimeout(timer);
    expect(error).toBeInstanceOf(AbortError);
    const requests = await stats(opted);
    expect(forTask(requests, 'tasks/cancel', log.taskId())).toHaveLength(1);
    const taskRequestIds = new Set(
      requests
        .filter((r) => r.id !== undefined && (r.params?.taskId === log.taskId() || r.params?.name === 'never'))
        .map((r) => r.id),
    );
    const cancelledTaskRequests = requests.filter(
      (r) => r.method === 'notifications/cancelled' && taskRequestIds.has(r.params?.requestId),
    );
    expect(cancelledTaskRequests).toEqual([]);
  });

  it('garbage from tasks/get is a ValidationError, and the task is cancelled', async () => {
    const log = statusLog();
    const error = await opted.callTool('garbage', {}, { onTaskStatus: log.listener }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(forTask(await stats(opted), 'tasks/cancel', log.taskId())).toHaveLength(1);
  });

  it('reuse: a handle on a replaced task is a TaskReplacedError (nothing sent for it); the new one completes', async () => {
    const first = await opted.callToolAsTask('reuse');
    const second = await opted.callToolAsTask('reuse');
    expect(second.taskId).toBe(first.taskId);
    expect(second.createdAt).not.toBe(first.createdAt);
    const afterCreation = (await stats(opted)).length;
    const error = await opted.getTask(first).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskReplacedError);
    expect(error).toMatchObject({ code: 'MCPC_TASK_REPLACED', createdAt: first.createdAt });
    const after = (await stats(opted)).slice(afterCreation);
    expect(forTask(after, 'tasks/get', first.taskId)).toHaveLength(0);
    expect(textOf(await opted.getTaskResult(second))).toBe('call 2');
  });

  it.runIf(over === 'stdio')('crash: the server exits on tasks/get; the call fails with a typed error', async () => {
    const crashing = open({ extensions: [TASKS] }, ['c']);
    const error = await crashing.callTool('crash').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    const typed = [TaskNotFoundError, ConnectionError, ConnectionClosedError, TransportError].some(
      (k) => error instanceof k,
    );
    expect(typed, `got ${String(error)}`).toBe(true);
  });

  it('cancelTask sends tasks/cancel (never notifications/cancelled); listTasks is unsupported', async () => {
    const task = await opted.callToolAsTask('never');
    const before = (await stats(opted)).length;
    const acked = await opted.cancelTask(task);
    expect(acked.taskId).toBe(task.taskId);
    // The ack says nothing of the task: the handle keeps the last status seen, or a fresh look's.
    expect(['working', 'cancelled']).toContain(acked.status);
    const requests = (await stats(opted)).slice(before);
    expect(forTask(requests, 'tasks/cancel', task.taskId)).toHaveLength(1);
    expect(requests.filter((r) => r.method === 'notifications/cancelled')).toEqual([]);
    expect((await opted.getTask(task)).status).toBe('cancelled');

    const listed = await opted.listTasks({ server: 't' }).catch((e: unknown) => e);
    expect(listed).toBeInstanceOf(TaskUnsupportedError);
    expect(listed).toMatchObject({ code: 'MCPC_TASK_UNSUPPORTED', operation: 'tasks/list' });
    // Without { server } too: it resolved [] before, where the seed (and this README) say it raises.
    const all = await opted.listTasks().catch((e: unknown) => e);
    expect(all).toBeInstanceOf(TaskUnsupportedError);
  });

  it('ask-forever: a task that asks anew on every poll stops after 10 rounds, as a direct call does', async () => {
    asked.clear();
    const error = await opted.callTool('ask-forever').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskInputError);
    expect(error).toMatchObject({ code: 'MCPC_TASK_INPUT', reason: 'too-many-rounds', server: 't' });
    // 2,944 prompts in 5 s before; now one per round, ten rounds.
    expect([...asked.values()].reduce((a, b) => a + b, 0)).toBe(10);
  });

  it('a dialog still open when the ttl passes: its signal fires, the wait is TaskExpiredError at the ttl', async () => {
    let aborted = false;
    const stuck = open({
      extensions: [TASKS],
      // A person who never answers: resolves only when told to stop.
      onElicitation: (_request, { signal }) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ action: 'cancel' });
          }),
        ),
    });
    await stuck.connect();
    const started = performance.now();
    const error = await stuck.callTool('ask', { ttl: 1_500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskExpiredError);
    expect(aborted).toBe(true);
    // It waited on the dialog for ever before (the task read input_required with nothing to end it).
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('a handler that ignores its signal cannot hold the wait past the ttl either', async () => {
    const deaf = open({ extensions: [TASKS], onElicitation: () => new Promise(() => undefined) });
    await deaf.connect();
    const error = await deaf.callTool('ask', { ttl: 1_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskExpiredError);
    expect((error as Error).message).toMatch(/ran out while the host was still answering/);
  });

  it('never sleeps past the ttl: a 1.5 s ttl with a 10^9 ms poll interval expires at the ttl', async () => {
    const started = performance.now();
    const error = await opted.callTool('never', { ttl: 1_500, poll: 1e9 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskExpiredError);
    // It came at 60,072 ms before (a whole capped interval past the ttl).
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('getTaskResult checks a handle against the outputSchema, not a bare id (logged at debug)', async () => {
    const strict = { validateStructuredContent: 'strict' } as const;
    const handle = await opted.callToolAsTask('structured', { value: { n: 'x' } }, strict);
    const error = await opted.getTaskResult(handle).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredContentError);

    const other = await opted.callToolAsTask('structured', { value: { n: 'x' } }, strict);
    const mark = optedLogger.lines.length;
    const result = await opted.getTaskResult(other.taskId);
    expect(result.structuredContent).toEqual({ n: 'x' });
    const debug = optedLogger.lines.slice(mark).filter((l) => l.level === 'debug');
    expect(debug.some((l) => l.message.includes('bare id'))).toBe(true);
  });

  it('structured output of a task is checked like a direct call: strict ok, strict error, warn', async () => {
    const ok = await opted.callTool('structured', { value: { n: 1 } }, { validateStructuredContent: 'strict' });
    expect(ok.structuredContent).toEqual({ n: 1 });
    const bad = await opted
      .callTool('structured', { value: { n: 'x' } }, { validateStructuredContent: 'strict' })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(StructuredContentError);
    const mark = optedLogger.lines.length;
    const warned = await opted.callTool('structured', { value: { n: 'x' } }, { validateStructuredContent: 'warn' });
    expect(warned.structuredContent).toEqual({ n: 'x' });
    expect(optedLogger.lines.slice(mark).some((l) => l.level === 'warn')).toBe(true);
  });

  it.runIf(over === 'http')(
    'Mcp-Name carries the taskId on every tasks/get, tasks/update and tasks/cancel',
    async () => {
      asked.clear();
      await opted.callTool('ask');
      await opted.cancelTask(await opted.callToolAsTask('never'));
      const requests = (await stats(opted)).filter((r) =>
        ['tasks/get', 'tasks/update', 'tasks/cancel'].includes(r.method),
      );
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'])
        expect(requests.filter((r) => r.method === method).length).toBeGreaterThan(0);
      const wrong = requests.filter((r) => r.headers?.['mcp-name'] !== r.params.taskId);
      expect(
        wrong.map((r) => ({ method: r.method, taskId: r.params.taskId, header: r.headers?.['mcp-name'] })),
      ).toEqual([]);
    },
  );

  it.runIf(over === 'http')(
    'toJSON/fromJSON: a second client waits on, and cancels, tasks the first created',
    async () => {
      const b = new Client({ servers: [streamableHttp({ name: 'b-name', url: fixture!.url, retries: 0 })] });
      clients.push(b);
      const job = await opted.callToolAsTask('job', { steps: 3 });
      const moved = Task.fromJSON(JSON.stringify(job), { server: 'b-name' });
      expect(moved).toMatchObject({ server: 'b-name', taskId: job.taskId, createdAt: job.createdAt, tool: 'job' });
      const done = await b.waitForTask(moved);
      expect(done.status).toBe('completed');
      expect(textOf(done.result!)).toBe('done');

      const never = await opted.callToolAsTask('never');
      await b.cancelTask(Task.fromJSON(JSON.stringify(never.toJSON()), { server: 'b-name' }));
      expect(forTask(await stats(b), 'tasks/cancel', never.taskId)).toHaveLength(1);
      expect((await opted.getTask(never)).status).toBe('cancelled');
    },
  );

  it('a bare id on a client of two servers is ambiguous; { server } names it', async () => {
    const two = open({}, ['one', 'two']);
    const task = await two.callToolAsTask('job', {}, { server: 'one' });
    expect(task.server).toBe('one');
    const error = await two.getTask(task.taskId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousTaskError);
    expect((error as AmbiguousTaskError).candidates).toEqual(['one', 'two']);
    expect((error as Error).message).toMatch(/"one".*"two"/);
    expect((await two.getTask(task.taskId, { server: 'one' })).taskId).toBe(task.taskId);
    const done = await two.waitForTask(task.taskId, { server: 'one' });
    expect(done.status).toBe('completed');
  });

  it('listen({ taskIds }) delivers notifications/tasks with the full task as sent, while waitForTask drives it', async () => {
    const task = await plain.callToolAsTask('notify');
    const heard: { method: string; params: Record<string, unknown> | undefined }[] = [];
    const sub = plain.listen({ taskIds: [task.taskId] }, (method, params) => void heard.push({ method, params }), {
      server: 't',
    });
    await sub.ready;
    expect(sub.acknowledged).toEqual({ taskIds: [task.taskId] });
    const statuses: string[] = [];
    const done = await plain.waitForTask(task, { onStatus: (t) => statuses.push(t.status) });
    expect(done.status).toBe('completed');
    expect(collapse(statuses)).toEqual(['working', 'completed']);
    for (let i = 0; i < 100 && !heard.some((h) => h.method === 'notifications/tasks'); i++) await tick(20);
    await sub.close();
    const notes = heard.filter((h) => h.method === 'notifications/tasks');
    expect(notes.map((n) => n.params?.status)).toEqual(['completed']);
    expect(notes[0]!.params).toEqual({
      taskId: task.taskId,
      status: 'completed',
      createdAt: task.createdAt,
      lastUpdatedAt: done.lastUpdatedAt,
      ttlMs: 60000,
      pollIntervalMs: 20,
      result: { content: [{ type: 'text', text: 'done' }] },
      _meta: { [SUB]: expect.anything() },
    });
  });
});
