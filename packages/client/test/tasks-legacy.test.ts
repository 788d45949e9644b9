// MCP 2025-11-25 tasks against the scripted tasks fixture (--era legacy), over stdio and Streamable HTTP alike.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  CapabilityError,
  Client,
  ConnectionClosedError,
  McpError,
  ServerError,
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
  ValidationError,
  stdio,
  streamableHttp,
  supportsTask,
  textOf,
  type ServerConfig,
} from '@mcpc/client';
import type { ElicitationRequest } from '@mcpc/client/types';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { recordingLogger, tick, until } from './helpers.js';

const SERVER = fileURLToPath(new URL('../../../tooling/fixtures/tasks/scripted-tasks-server.mjs', import.meta.url));
const RELATED = 'io.modelcontextprotocol/related-task';

type Mode = 'stdio' | 'http';
interface Recorded {
  method: string;
  id?: unknown;
  params: Record<string, unknown> | undefined;
  headers?: Record<string, string>;
}

/** One legacy fixture (a stdio config, or an HTTP process to point configs at). */
async function legacyServer(
  mode: Mode,
  flags: readonly string[] = [],
): Promise<{ config: (name: string) => ServerConfig; stop: () => Promise<unknown> }> {
  const args = ['--era', 'legacy', ...flags];
  if (mode === 'stdio') {
    const config = (name: string) => stdio({ name, command: process.execPath, args: [SERVER, 'stdio', ...args] });
    return { config, stop: async () => undefined };
  }
  const fixture: Fixture = await startFixture(SERVER, ['http', ...args]);
  return {
    config: (name: string) => streamableHttp({ name, url: fixture.url, retries: 0 }),
    stop: () => fixture.stop(),
  };
}

/** Every request the fixture received (except the stats call itself). */
async function stats(client: Client): Promise<Recorded[]> {
  const result = await client.callTool('stats');
  return (result.structuredContent as { requests: Recorded[] }).requests;
}
const forTask = (requests: Recorded[], method: string, taskId: string): Recorded[] =>
  requests.filter((r) => r.method === method && r.params?.taskId === taskId);
const callsOf = (requests: Recorded[], tool: string): Recorded[] =>
  requests.filter((r) => r.method === 'tools/call' && r.params?.name === tool);

describe.each(['stdio', 'http'] as const)('MCP 2025-11-25 tasks over %s', (mode) => {
  let server: Awaited<ReturnType<typeof legacyServer>>;
  let client: Client;
  const elicitations: { request: ElicitationRequest; server: string }[] = [];
  const notifications: { server: string; method: string; params: unknown }[] = [];

  beforeAll(async () => {
    server = await legacyServer(mode);
    client = new Client({
      servers: [server.config('t')],
      logger: recordingLogger(),
      onElicitation: (request, context) => {
        elicitations.push({ request, server: context.server });
        const key = request.message.replace(/^give /, '');
        return { action: 'accept', content: { v: `answer-${key}` } };
      },
    });
    client.onNotification((name, method, params) => {
      if (method === 'notifications/tasks/status') notifications.push({ server: name, method, params });
    });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  describe('capability and taskSupport', () => {
    it('reads the server capability tasks.requests.tools.call (and tasks.list / tasks.cancel)', () => {
      const s = client.server('t');
      expect(s.protocolEra).toBe('legacy');
      expect(s.protocolVersion).toBe('2025-11-25');
      expect(s.capabilities).toMatchObject({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
      expect(s.supports('tasks.requests.tools.call')).toBe(true);
      expect(s.supports('tasks.list')).toBe(true);
      expect(s.supports('tasks.cancel')).toBe(true);
    });

    it('a required tool via plain callTool is sent with task: {} and followed to its result', async () => {
      const result = await client.callTool('required-job', {});
      expect(textOf(result)).toBe('done');
      expect(result.isError).not.toBe(true);
      const requests = await stats(client);
      const calls = callsOf(requests, 'required-job');
      expect(calls).toHaveLength(1);
      expect(calls[0]!.params!.task).toEqual({});
      // It went through the task methods: the call's answer was a task, polled and fetched.
      const gets = requests.filter((r) => r.method === 'tasks/get');
      expect(gets.length).toBeGreaterThanOrEqual(2);
      expect(requests.some((r) => r.method === 'tasks/result')).toBe(true);
    });

    it('an optional tool via plain callTool is sent without task and answers directly', async () => {
      const before = await stats(client);
      const result = await client.callTool('job', { text: 'plain' });
      expect(textOf(result)).toBe('plain');
      const after = (await stats(client)).slice(before.length);
      const calls = callsOf(after, 'job');
      expect(calls).toHaveLength(1);
      expect(calls[0]!.params).not.toHaveProperty('task');
      expect(after.filter((r) => r.method.startsWith('tasks/'))).toEqual([]);
    });

    it('listed tools carry taskSupport; supportsTask() and server.supportsTask() agree with it', async () => {
      const tools = await client.listTools();
      const by = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(by['direct']!.taskSupport).toBe('forbidden');
      expect(by['stats']!.taskSupport).toBe('forbidden');
      expect(by['job']!.taskSupport).toBe('optional');
      expect(by['required-job']!.taskSupport).toBe('required');
      for (const tool of tools) {
        const expected = tool.taskSupport === 'optional' || tool.taskSupport === 'required';
        expect(supportsTask(tool), tool.name).toBe(expected);
        expect(client.server('t').supportsTask(tool), tool.name).toBe(expected);
      }
      expect(tools.filter((t) => supportsTask(t)).length).toBeGreaterThan(10);
    });
  });

  describe('callToolAsTask, waitForTask, getTaskResult', () => {
    it('sends task: { ttl } and hands back a handle normalized from ttl / pollInterval', async () => {
      const task = await client.callToolAsTask('job', {}, { ttl: 5000 });
      expect(task).toBeInstanceOf(Task);
      expect(task).toMatchObject({ server: 't', status: 'working', ttlMs: 5000, pollIntervalMs: 20, tool: 'job' });
      expect(task.taskId).toMatch(/^[0-9a-f-]{36}$/);
      expect(task.terminal).toBe(false);
      const calls = callsOf(await stats(client), 'job').filter(
        (c) => (c.params!.task as { ttl?: number } | undefined)?.ttl === 5000,
      );
      expect(calls).toHaveLength(1);
      expect(calls[0]!.params!.task).toEqual({ ttl: 5000 });

      const done = await client.waitForTask(task);
      expect(done.status).toBe('completed');
      expect(done.taskId).toBe(task.taskId);
      expect(textOf(done.result!)).toBe('done');
      const requests = await stats(client);
      // The result came from tasks/result, once the task was seen completed by tasks/get.
      expect(forTask(requests, 'tasks/get', task.taskId)).toHaveLength(2);
      expect(forTask(requests, 'tasks/result', task.taskId)).toHaveLength(1);

      const result = await client.getTaskResult(task);
      expect(textOf(result)).toBe('done');
      expect((result._meta as Record<string, unknown> | undefined)?.[RELATED]).toEqual({ taskId: task.taskId });
      expect(forTask(await stats(client), 'tasks/result', task.taskId)).toHaveLength(2);
    });

    it('callToolAsTask on a forbidden tool is a TaskUnsupportedError and nothing is sent', async () => {
      const before = callsOf(await stats(client), 'direct').length;
      const error = await client.callToolAsTask('direct', {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TaskUnsupportedError);
      expect(error).toMatchObject({ code: 'MCPC_TASK_UNSUPPORTED', server: 't' });
      expect(callsOf(await stats(client), 'direct')).toHaveLength(before);
    });

    it('updateTask is a TaskUnsupportedError (2025-11-25 has no tasks/update), nothing sent', async () => {
      const task = await client.callToolAsTask('job', { steps: 1 });
      const error = await client.updateTask(task, { a: { action: 'accept' } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TaskUnsupportedError);
      expect(error).toMatchObject({ operation: 'tasks/update' });
      expect((await stats(client)).filter((r) => r.method === 'tasks/update')).toEqual([]);
      await client.waitForTask(task);
    });
  });

  describe('input_required through tasks/result', () => {
    it('ask: each key goes to the elicitation handler once, with the related-task _meta; the wait completes', async () => {
      elicitations.length = 0;
      const task = await client.callToolAsTask('ask', { keys: ['a', 'b'] });
      const done = await client.waitForTask(task, { timeout: 10_000 });
      expect(done.status).toBe('completed');
      expect(JSON.parse(textOf(done.result!))).toEqual({ a: { v: 'answer-a' }, b: { v: 'answer-b' } });
      expect(elicitations.map((e) => e.request.message).sort()).toEqual(['give a', 'give b']);
      for (const e of elicitations) {
        expect(e.server).toBe('t');
        expect(e.request.mode).toBe('form');
        expect(e.request._meta?.[RELATED]).toEqual({ taskId: task.taskId });
      }
      const requests = await stats(client);
      expect(forTask(requests, 'tasks/result', task.taskId).length).toBeGreaterThanOrEqual(1);
      expect(requests.filter((r) => r.method === 'tasks/update')).toEqual([]);
    });

    it('ask-twice: a second round with a new key is asked on the same tasks/result', async () => {
      elicitations.length = 0;
      const task = await client.callToolAsTask('ask-twice', {});
      const done = await client.waitForTask(task, { timeout: 10_000 });
      expect(done.status).toBe('completed');
      expect(JSON.parse(textOf(done.result!))).toEqual({ a: { v: 'answer-a' }, b: { v: 'answer-b' } });
      expect(elicitations.map((e) => e.request.message)).toEqual(['give a', 'give b']);
      expect(
        elicitations.every((e) => (e.request._meta?.[RELATED] as { taskId?: string })?.taskId === task.taskId),
      ).toBe(true);
    });

    it('ask-forever: the host is asked 10 times, the 11th request is refused, the wait is a TaskInputError', async () => {
      elicitations.length = 0;
      const task = await client.callToolAsTask('ask-forever', {});
      const error = await client.waitForTask(task, { timeout: 20_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TaskInputError);
      expect(error).toMatchObject({ code: 'MCPC_TASK_INPUT', reason: 'too-many-rounds', taskId: task.taskId });
      // Unbounded before: one prompt per round for as long as tasks/result stayed open.
      expect(elicitations.map((e) => e.request.message)).toEqual(Array.from({ length: 10 }, (_, i) => `give k${i}`));
      // The server goes on asking (783 requests reached the host in 200 ms when the count ended with the wait).
      await tick(200);
      expect(elicitations).toHaveLength(10);
      // Clean-up only: the fixture may already have ended the task after the refusal.
      await client.cancelTask(task).catch(() => undefined);
    });

    it('a dialog still open when the wait ends is told to stop (its signal fires)', async () => {
      let aborted = false;
      const stuck = new Client({
        servers: [server.config('s')],
        onElicitation: (_request, { signal }) =>
          new Promise((resolve) =>
            signal.addEventListener('abort', () => {
              aborted = true;
              resolve({ action: 'cancel' });
            }),
          ),
      });
      try {
        await stuck.connect();
        const task = await stuck.callToolAsTask('ask', {});
        const error = await stuck.waitForTask(task, { timeout: 1_500 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TaskTimeoutError);
        // The dialog stayed open after the wait gave up, before.
        await until(() => aborted, 3_000);
      } finally {
        await stuck.close();
      }
    });

    it('another task waited for at the same time is not counted against the first', async () => {
      elicitations.length = 0;
      const forever = await client.callToolAsTask('ask-forever', {});
      const plain = await client.callToolAsTask('ask', { keys: ['z'] });
      const [bounded, done] = await Promise.all([
        client.waitForTask(forever, { timeout: 20_000 }).catch((e: unknown) => e),
        client.waitForTask(plain, { timeout: 20_000 }),
      ]);
      expect(bounded).toBeInstanceOf(TaskInputError);
      expect(done.status).toBe('completed');
      expect(elicitations.filter((e) => e.request.message === 'give z')).toHaveLength(1);
    });
  });

  describe('failed, isError and cancelled tasks', () => {
    it('fail: waitForTask gives a failed handle with the error; getTaskResult is a TaskFailedError', async () => {
      const task = await client.callToolAsTask('fail', {});
      const done = await client.waitForTask(task);
      expect(done.status).toBe('failed');
      expect(done.statusMessage).toBe('boom');
      expect(done.error).toMatchObject({ code: -32603, message: 'boom' });
      const error = await client.getTaskResult(task).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TaskFailedError);
      expect(error).toMatchObject({
        code: 'MCPC_TASK_FAILED',
        rpcCode: -32603,
        serverMessage: 'boom',
        taskId: task.taskId,
        server: 't',
      });
    });

    it('tool-error: the task ends failed with the isError result; waitForTask carries it, getTaskResult returns it', async () => {
      const task = await client.callToolAsTask('tool-error', {});
      const done = await client.waitForTask(task);
      expect(done.status).toBe('failed');
      expect(done.result).toMatchObject({ isError: true });
      expect(textOf(done.result!)).toBe('bad');
      const result = await client.getTaskResult(task);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('bad');
    });

    it('tool-error fetched straight with getTaskResult (no wait first) is returned, not thrown', async () => {
      const task = await client.callToolAsTask('tool-error', {});
      const result = await client.getTaskResult(task);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('bad');
    });

    it('server-cancels: waitForTask ends cancelled; getTaskResult rejects with a typed task error', async () => {
      const task = await client.callToolAsTask('server-cancels', {});
      const done = await client.waitForTask(task);
      expect(done.status).toBe('cancelled');
      const error = await client.getTaskResult(task).catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(ServerError);
      expect(error instanceof TaskCancelledError || error instanceof TaskFailedError).toBe(true);
    });

    it('server-cancels: getTaskResult is a TaskCancelledError (the API doc: cancelled → TaskCancelledError)', async () => {
      const task = await client.callToolAsTask('server-cancels', {});
      const error = await client.getTaskResult(task).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TaskCancelledError);
      expect(error).toMatchObject({ code: 'MCPC_TASK_CANCELLED', taskId: task.taskId });
    });

    it('server-cancels after waitForTask saw it cancelled: getTaskResult(final handle) is a TaskCancelledError', async () => {
      const task = await client.callToolAsTask('server-cancels', {});
      const done = await client.waitForTask(task);
      expect(done.status).toBe('cancelled');
      const error = await client.getTaskResult(done).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TaskCancelledError);
    });
  });

  describe('cancel and list', () => {
    it('cancelTask sends tasks/cancel and hands back the cancelled task', async () => {
      const task = await client.callToolAsTask('never', {});
      const cancelled = await client.cancelTask(task);
      expect(cancelled).toBeInstanceOf(Task);
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.taskId).toBe(task.taskId);
      expect(forTask(await stats(client), 'tasks/cancel', task.taskId)).toHaveLength(1);
      expect((await client.getTask(task)).status).toBe('cancelled');
    });

    it('listTasks follows nextCursor through every page and hands back Task handles', async () => {
      const created: Task[] = [];
      for (let i = 0; i < 5; i++) created.push(await client.callToolAsTask('never', {}));
      const before = (await stats(client)).filter((r) => r.method === 'tasks/list').length;
      const tasks = await client.listTasks();
      const lists = (await stats(client)).filter((r) => r.method === 'tasks/list').slice(before);
      expect(tasks.length).toBeGreaterThanOrEqual(5);
      for (const t of tasks) {
        expect(t).toBeInstanceOf(Task);
        expect(t.server).toBe('t');
      }
      const ids = tasks.map((t) => t.taskId);
      for (const c of created) expect(ids).toContain(c.taskId);
      expect(new Set(ids).size).toBe(ids.length);
      // 2 a page: every page was asked for, the first without a cursor, the rest with the one given.
      expect(lists).toHaveLength(Math.ceil(tasks.length / 2));
      expect(lists[0]!.params?.cursor).toBeUndefined();
      expect(lists.slice(1).map((l) => l.params?.cursor)).toEqual(lists.slice(1).map((_, i) => `page-${(i + 1) * 2}`));
      const listed = tasks.find((t) => t.taskId === created[0]!.taskId)!;
      expect(listed).toMatchObject({ status: 'working', createdAt: created[0]!.createdAt, pollIntervalMs: 20 });
      for (const c of created) await client.cancelTask(c);
    });
  });

  describe('lifetimes, timeouts and pacing', () => {
    it('expire: waitForTask is a TaskExpiredError, bounded', async () => {
      const task = await client.callToolAsTask('expire', { ttl: 300 });
      expect(task.ttlMs).toBe(300);
      const started = performance.now();
      const error = await client.waitForTask(task).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TaskExpiredError);
      expect(error).toMatchObject({ code: 'MCPC_TASK_EXPIRED', taskId: task.taskId });
      expect(performance.now() - started).toBeLessThan(3000);
    });

    it('never + waitForTask({ timeout: 300 }) is a TaskTimeoutError; the task is not cancelled', async () => {
      const task = await client.callToolAsTask('never', {});
      const started = performance.now();
      const error = await client.waitForTask(task, { timeout: 300 }).catch((e: unknown) => e);
      const elapsed = performance.now() - started;
      expect(error).toBeInstanceOf(TaskTimeoutError);
      expect(error).toMatchObject({ code: 'MCPC_TASK_TIMEOUT', timeoutMs: 300, taskId: task.taskId });
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(2000);
      await tick(100);
      expect(forTask(await stats(client), 'tasks/cancel', task.taskId)).toEqual([]);
      expect((await client.getTask(task)).status).toBe('working');
      await client.cancelTask(task);
    });

    it('waitForTask({ timeout }) is a TaskTimeoutError every time, never the last tasks/get timing out', async () => {
      // The deadline can fall inside the last tasks/get (whose own timeout is what is left of it): the
      // wait must still end with TaskTimeoutError. Repeated, since the window is a few ms wide.
      const seen: string[] = [];
      for (let i = 0; i < 8; i++) {
        const task = await client.callToolAsTask('never', {});
        const error = await client.waitForTask(task, { timeout: 250 }).catch((e: unknown) => e);
        seen.push((error as Error).constructor.name);
        await client.cancelTask(task);
      }
      expect(seen).toEqual(Array(8).fill('TaskTimeoutError'));
    });

    it('zero-poll: the client floors the interval (tasks/get at most elapsed/100 + 2)', async () => {
      const task = await client.callToolAsTask('zero-poll', {});
      expect(task.pollIntervalMs).toBe(0);
      const started = performance.now();
      const done = await client.waitForTask(task);
      const elapsed = performance.now() - started;
      expect(done.status).toBe('completed');
      const gets = forTask(await stats(client), 'tasks/get', task.taskId).length;
      expect(gets).toBe(5);
      expect(gets).toBeLessThanOrEqual(elapsed / 100 + 2);
      expect(elapsed).toBeGreaterThanOrEqual(4 * 90);
    });

    it('abort: waitForTask with a signal aborted after 200 ms is an AbortError; the task is not cancelled', async () => {
      const task = await client.callToolAsTask('never', {});
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 200);
      const started = performance.now();
      const error = await client.waitForTask(task, { signal: controller.signal }).catch((e: unknown) => e);
      clearTimeout(timer);
      expect(error).toBeInstanceOf(AbortError);
      expect(performance.now() - started).toBeLessThan(2000);
      await tick(100);
      expect(forTask(await stats(client), 'tasks/cancel', task.taskId)).toEqual([]);
      expect((await client.getTask(task)).status).toBe('working');
      await client.cancelTask(task);
    });
  });

  describe('malformed, replaced and checked tasks', () => {
    it('garbage: a tasks/get answer that is no Task is a ValidationError', async () => {
      const task = await client.callToolAsTask('garbage', {});
      const error = await client.getTask(task).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ method: 'tasks/get' });
    });

    it('reuse: a handle on a replaced task is a TaskReplacedError; the new one gives its own result', async () => {
      const first = await client.callToolAsTask('reuse', {});
      const second = await client.callToolAsTask('reuse', {});
      expect(first.taskId).toBe('reused');
      expect(second.taskId).toBe('reused');
      expect(second.createdAt).not.toBe(first.createdAt);
      const before = forTask(await stats(client), 'tasks/get', 'reused').length;
      const error = await client.getTask(first).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TaskReplacedError);
      expect(error).toMatchObject({ code: 'MCPC_TASK_REPLACED', createdAt: first.createdAt });
      // Refused before anything was sent.
      expect(forTask(await stats(client), 'tasks/get', 'reused')).toHaveLength(before);
      expect(textOf(await client.getTaskResult(second))).toBe('call 2');
    });

    it('structured: getTaskResult(handle) checks the outputSchema (strict); a bare id is not checked', async () => {
      const task = await client.callToolAsTask(
        'structured',
        { value: { n: 'x' } },
        { validateStructuredContent: 'strict' },
      );
      const error = await client.getTaskResult(task).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StructuredContentError);
      const bare = await client.getTaskResult(task.taskId);
      expect(bare.structuredContent).toEqual({ n: 'x' });
    });
  });

  describe('notifications/tasks/status', () => {
    it('reach onNotification as sent during a wait, and do not change what the wait does', async () => {
      notifications.length = 0;
      const task = await client.callToolAsTask('job', { steps: 3 });
      const done = await client.waitForTask(task);
      expect(done.status).toBe('completed');
      expect(textOf(done.result!)).toBe('done');
      await until(() => notifications.some((n) => (n.params as { taskId?: string }).taskId === task.taskId));
      const mine = notifications.filter((n) => (n.params as { taskId?: string }).taskId === task.taskId);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toEqual({
        server: 't',
        method: 'notifications/tasks/status',
        params: {
          taskId: task.taskId,
          status: 'completed',
          createdAt: task.createdAt,
          lastUpdatedAt: done.lastUpdatedAt,
          ttl: 60000,
          pollInterval: 20,
        },
      });
      // The wait still polled to the third get (the one that completed it) and fetched the result once.
      const requests = await stats(client);
      expect(forTask(requests, 'tasks/get', task.taskId)).toHaveLength(3);
      expect(forTask(requests, 'tasks/result', task.taskId)).toHaveLength(1);
    });

    it('the notify tool: its status notification reaches the listener during the wait', async () => {
      notifications.length = 0;
      const task = await client.callToolAsTask('notify', {});
      const seen: string[] = [];
      const done = await client.waitForTask(task, { onStatus: (t) => seen.push(t.status) });
      expect(done.status).toBe('completed');
      expect(seen).toEqual(['working', 'completed']);
      const mine = notifications.filter((n) => (n.params as { taskId?: string }).taskId === task.taskId);
      expect(mine.map((n) => (n.params as { status: string }).status)).toEqual(['completed']);
    });
  });

  describe('toJSON / fromJSON', () => {
    it.runIf(mode === 'stdio')('a handle through JSON text names the same task in the same client', async () => {
      const task = await client.callToolAsTask('job', { text: 'json' });
      const text = JSON.stringify(task);
      const back = Task.fromJSON(text);
      expect(back).toMatchObject({
        server: 't',
        taskId: task.taskId,
        createdAt: task.createdAt,
        ttlMs: 60000,
        tool: 'job',
      });
      const done = await client.waitForTask(back);
      expect(done.status).toBe('completed');
      expect(textOf(done.result!)).toBe('json');
      expect(textOf(await client.getTaskResult(back))).toBe('json');
    });

    it.runIf(mode === 'http')('a handle through JSON is followed by a second client on another session', async () => {
      const task = await client.callToolAsTask('job', { text: 'moved' });
      const other = new Client({ servers: [server.config('other')], logger: recordingLogger() });
      try {
        const back = Task.fromJSON(JSON.stringify(task), { server: 'other' });
        expect(back).toMatchObject({ server: 'other', taskId: task.taskId, createdAt: task.createdAt });
        const done = await other.waitForTask(back);
        expect(done.status).toBe('completed');
        expect(textOf(done.result!)).toBe('moved');
        expect(textOf(await other.getTaskResult(back))).toBe('moved');
        const requests = await stats(client);
        const created = callsOf(requests, 'job').find(
          (c) => (c.params!.arguments as { text?: string } | undefined)?.text === 'moved',
        )!;
        const gets = forTask(requests, 'tasks/get', task.taskId);
        expect(gets).toHaveLength(2);
        // The second client's session is another one: the fixture keeps tasks per process, not per session.
        expect(gets[0]!.headers!['mcp-session-id']).toBeDefined();
        expect(gets[0]!.headers!['mcp-session-id']).not.toBe(created.headers!['mcp-session-id']);
      } finally {
        await other.close();
      }
    });
  });

  // Last: over stdio it ends the fixture process (the client starts a fresh one).
  describe('a server that loses the task', () => {
    it('crash: getTask is a typed error, in bounded time; afterwards the task is unknown (TaskNotFoundError, stdio: after a restart)', async () => {
      const task = await client.callToolAsTask('crash', {});
      const started = performance.now();
      const error = await client.getTask(task, { timeout: 5000 }).catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(error).toBeInstanceOf(McpError);
      // stdio: the process exits under the request; HTTP: the fixture forgets the task (-32602).
      if (mode === 'http') expect(error).toBeInstanceOf(TaskNotFoundError);
      else expect(error).toBeInstanceOf(ConnectionClosedError);
      const again = await client.getTask(task, { timeout: 5000 }).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(TaskNotFoundError);
      expect(again).toMatchObject({ code: 'MCPC_TASK_NOT_FOUND', taskId: task.taskId, server: 't' });
    });
  });
});

describe.each(['stdio', 'http'] as const)('a 2025-11-25 server without tasks.cancel / tasks.list (%s)', (mode) => {
  let server: Awaited<ReturnType<typeof legacyServer>>;
  let client: Client;
  beforeAll(async () => {
    server = await legacyServer(mode, ['--no-cancel', '--no-list']);
    client = new Client({ servers: [server.config('t')], logger: recordingLogger() });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('cancelTask is a CapabilityError and no tasks/cancel is sent', async () => {
    expect(client.server('t').supports('tasks.cancel')).toBe(false);
    const task = await client.callToolAsTask('never', {});
    const error = await client.cancelTask(task).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityError);
    expect((await stats(client)).filter((r) => r.method === 'tasks/cancel')).toEqual([]);
    expect((await client.getTask(task)).status).toBe('working');
  });

  it('listTasks is a CapabilityError and no tasks/list is sent', async () => {
    expect(client.server('t').supports('tasks.list')).toBe(false);
    const error = await client.listTasks({ server: 't' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityError);
    // Without { server } too (it resolved [] before).
    expect(await client.listTasks().catch((e: unknown) => e)).toBeInstanceOf(CapabilityError);
    expect((await stats(client)).filter((r) => r.method === 'tasks/list')).toEqual([]);
  });

  it('tasks still run: callToolAsTask and waitForTask work without cancel / list', async () => {
    const task = await client.callToolAsTask('job', {});
    expect((await client.waitForTask(task)).status).toBe('completed');
  });
});
