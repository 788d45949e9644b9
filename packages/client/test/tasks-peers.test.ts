// Task support against real peers: the SDK v2 Tasks-extension server and server-everything.
//
// Each is reached over stdio and over Streamable HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  MissingRequiredClientCapabilityError,
  TaskFailedError,
  stdio,
  streamableHttp,
  textOf,
  type ServerConfig,
  type Task,
} from '@mcpc/client';
import type { ElicitationAnswer, ElicitationRequest } from '@mcpc/client/types';
import { getJson, startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { EVERYTHING, modernFixturePath, recordingLogger, tick, until } from './helpers.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const TRANSPORTS = ['stdio', 'http'] as const;
type Kind = (typeof TRANSPORTS)[number];

interface Stats {
  methods: Record<string, number>;
  headers: { method: string; headers: Record<string, string | undefined> }[];
}

/** Polls `getTask` until the task reaches `status` (bounded: 50 × 50 ms). */
async function settle(client: Client, task: Task, status: Task['status']): Promise<Task> {
  let seen = task;
  for (let i = 0; i < 50 && seen.status !== status; i++) {
    await tick(50);
    seen = await client.getTask(task);
  }
  return seen;
}

// ── 1. The official SDK v2 server with the ext-tasks 0.2.2 v2 schemas (MCP 2026-07-28 Tasks extension) ──

describe.each(TRANSPORTS)('tasks-sdk-server (SDK v2 + ext-tasks) over %s', (kind: Kind) => {
  let http: Fixture | undefined;
  let client: Client;
  let plain: Client;
  const elicited: ElicitationRequest[] = [];
  const config = (name: string): ServerConfig =>
    kind === 'stdio'
      ? stdio({ name, command: process.execPath, args: [modernFixturePath('tasks-sdk-server.mjs'), 'stdio'] })
      : streamableHttp({ name, url: http!.url, retries: 0 });

  beforeAll(async () => {
    if (kind === 'http') http = await startFixture(modernFixturePath('tasks-sdk-server.mjs'), ['http']);
    client = new Client({
      servers: [config('tasks')],
      extensions: [TASKS],
      logger: recordingLogger(),
      onElicitation: (request) => {
        elicited.push(request);
        return { action: 'accept', content: { v: 'forty-two' } };
      },
    });
    plain = new Client({ servers: [config('tasks')], logger: recordingLogger() });
    await Promise.all([client.connect(), plain.connect()]);
  });
  afterAll(async () => {
    await client?.close();
    await plain?.close();
    await http?.stop();
  });

  it('speaks the modern era and sees the declared extension', async () => {
    expect(client.server('tasks').protocolEra).toBe('modern');
    expect((await client.listTools()).map((t) => t.name)).toEqual(
      expect.arrayContaining(['job', 'ask', 'fail', 'tool-error', 'structured']),
    );
  });

  it('callTool follows the task transparently to its result', async () => {
    const statuses: Task[] = [];
    const result = await client.callTool('job', { steps: 3 }, { onTaskStatus: (t) => void statuses.push(t) });
    expect(textOf(result)).toBe('done');
    // It was a task, not an inline answer: the status listener saw it by id.
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses[0]!.taskId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('callToolAsTask hands back a working task; waitForTask takes it to completed', async () => {
    const task = await client.callToolAsTask('job', { steps: 3 });
    expect(task).toMatchObject({ server: 'tasks', status: 'working', direct: false, tool: 'job', ttlMs: 60_000 });
    expect(task.taskId).not.toBe('');
    const done = await client.waitForTask(task, { timeout: 10_000 });
    expect(done.status).toBe('completed');
    expect(done.terminal).toBe(true);
    expect(textOf(done.result!)).toBe('done');
  });

  it('input_required: the elicitation goes to onElicitation once and the answer returns through tasks/update', async () => {
    elicited.length = 0;
    const result = await client.callTool('ask', {});
    expect(elicited).toHaveLength(1);
    expect(elicited[0]).toMatchObject({ message: 'Give me a value', requestedSchema: { type: 'object' } });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe('forty-two');

    // The same through an explicit handle: waitForTask answers the round, the handler is asked once more.
    const task = await client.callToolAsTask('ask', {});
    const done = await client.waitForTask(task, { timeout: 10_000 });
    expect(elicited).toHaveLength(2);
    expect(done.status).toBe('completed');
    expect(textOf(done.result!)).toBe('forty-two');
  });

  it('a failed task rejects callTool with TaskFailedError carrying the server error', async () => {
    const error = await client.callTool('fail', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ code: 'MCPC_TASK_FAILED', server: 'tasks', rpcCode: -32603 });
    expect((error as TaskFailedError).serverMessage).toBe('job failed');
    expect((error as TaskFailedError).task).toMatchObject({ status: 'failed' });
  });

  it('a completed task with isError is returned as a result', async () => {
    const result = await client.callTool('tool-error', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('tool failed');
  });

  it('structuredContent of a task result passes strict outputSchema validation', async () => {
    const result = await client.callTool('structured', {}, { validateStructuredContent: 'strict' });
    expect(result.structuredContent).toEqual({ n: 1 });
    const task = await client.callToolAsTask('structured', {}, { validateStructuredContent: 'strict' });
    expect((await client.getTaskResult(task)).structuredContent).toEqual({ n: 1 });
  });

  it('cancelTask on a running job is acknowledged; a later getTask shows cancelled', async () => {
    const task = await client.callToolAsTask('job', { steps: 1_500 });
    const acked = await client.cancelTask(task);
    // The server's answer is an empty acknowledgement (cancellation is eventually consistent); the handle
    // handed back is either the last status seen or one fresh look, so both are fine here.
    expect(acked.taskId).toBe(task.taskId);
    expect(['working', 'cancelled']).toContain(acked.status);
    const later = await settle(client, task, 'cancelled');
    expect(later.status).toBe('cancelled');
  });

  it('without the declared extension, a task-only tool is MissingRequiredClientCapabilityError (-32021)', async () => {
    const error = await plain.callTool('ask', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect(error).toMatchObject({ rpcCode: -32021, code: 'MCPC_MISSING_CLIENT_CAPABILITY' });
    expect((error as MissingRequiredClientCapabilityError).requiredCapabilities).toMatchObject({
      extensions: { [TASKS]: {} },
    });
    // An inline-capable tool is answered directly instead.
    expect(textOf(await plain.callTool('job', { steps: 1 }))).toBe('done');
  });

  it.runIf(kind === 'http')('sends Mcp-Name: <taskId> on tasks/get, tasks/update and tasks/cancel', async () => {
    // The SDK itself rejects tasks/get (and update, cancel) whose Mcp-Name header does not equal
    // params.taskId (HTTP 400, -32020), so every passing HTTP test above already proves the header;
    // this only makes it visible.
    const stats = await getJson<Stats>(new URL('/_stats', http!.url));
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const seen = stats.headers.filter((h) => h.method === method);
      expect(seen.length, method).toBeGreaterThan(0);
      for (const h of seen) expect(h.headers['mcp-name'], method).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

// ── 2. server-everything: MCP 2025-11-25 tasks through SDK v1 ──

const RESEARCH = 'simulate-research-query';

describe.each(TRANSPORTS)('server-everything (2025-11-25 tasks) over %s', (kind: Kind) => {
  let http: Fixture | undefined;
  let client: Client;
  const elicited: ElicitationRequest[] = [];
  let answer: ElicitationAnswer = { action: 'accept', content: { interpretation: 'snake' } };
  const notifications: { method: string; params: unknown }[] = [];

  beforeAll(async () => {
    if (kind === 'http') http = await startFixture('everything.mjs', ['streamableHttp']);
    client = new Client({
      servers: [
        kind === 'stdio'
          ? stdio({ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'] })
          : streamableHttp({ name: 'everything', url: http!.url, retries: 0 }),
      ],
      logger: recordingLogger(),
      deprecationNotices: false,
      // Declares elicitation: server-everything only takes the ambiguous path when the client has it.
      onElicitation: (request) => {
        elicited.push(request);
        return answer;
      },
    });
    client.onNotification((_server, method, params) => void notifications.push({ method, params }));
    await client.connect();
    // The tool is registered only after notifications/initialized: list again until it shows (bounded).
    for (let i = 0; i < 20 && !(await client.listTools()).some((t) => t.name === RESEARCH); i++) {
      client.clearCache('tools');
      await tick(100);
    }
  });
  afterAll(async () => {
    await client?.close();
    await http?.stop();
  });

  it('sees the legacy tasks capability and the required-task tool', async () => {
    const server = client.server('everything');
    expect(server.protocolEra).toBe('legacy');
    expect(server.supports('tasks.requests.tools.call')).toBe(true);
    const tool = await client.findTool(RESEARCH);
    expect(tool?.taskSupport).toBe('required');
    expect(server.supportsTask(tool!)).toBe(true);
  });

  it('callTool on a taskSupport:required tool runs it as a task and resolves with the result', async () => {
    const result = await client.callTool(RESEARCH, { topic: 'x' });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain('Research Report: x');
  }, 30_000);

  it('callToolAsTask + waitForTask reports changing status messages; listTasks lists it', async () => {
    notifications.length = 0;
    const task = await client.callToolAsTask(RESEARCH, { topic: 'tasks' });
    expect(task).toMatchObject({ server: 'everything', status: 'working', direct: false });
    expect(task.taskId).not.toBe('');

    const listed = await client.listTasks();
    expect(listed.map((t) => t.taskId)).toContain(task.taskId);

    const messages: string[] = [];
    const done = await client.waitForTask(task, {
      timeout: 20_000,
      onStatus: (t) => {
        if (t.statusMessage !== undefined && messages.at(-1) !== t.statusMessage) messages.push(t.statusMessage);
      },
    });
    expect(done.status).toBe('completed');
    expect(new Set(messages).size).toBeGreaterThanOrEqual(2);
    expect(textOf(await client.getTaskResult(done))).toContain('Research Report: tasks');

    if (kind === 'stdio') {
      // SDK v1 sends notifications/tasks/status as the task store changes; they reach onNotification.
      await until(() =>
        notifications.some(
          (n) => n.method === 'notifications/tasks/status' && (n.params as { taskId?: string }).taskId === task.taskId,
        ),
      );
    }
  }, 30_000);

  it('cancelTask on a fresh task answers cancelled', async () => {
    const task = await client.callToolAsTask(RESEARCH, { topic: 'cancel me' });
    const cancelled = await client.cancelTask(task);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect((await client.getTask(task)).status).toBe('cancelled');
    // (server-everything's background work keeps running after the cancel: its quirk, not asserted.)
  });

  it('an ambiguous query elicits through tasks/result and the task completes with the answer', async () => {
    elicited.length = 0;
    answer = { action: 'accept', content: { interpretation: 'snake' } };
    const result = await client.callTool(RESEARCH, { topic: 'python', ambiguous: true });
    expect(elicited).toHaveLength(1);
    expect(elicited[0]).toMatchObject({ message: expect.stringContaining('python') });
    expect(textOf(result)).toContain('Research Report: python (snake)');
  }, 30_000);
});
