// The demo's tasks (MCP 2026-07-28 tasks extension): an in-memory task table, long-task's run, the tasks/* handlers.
//
// The wire shapes are @modelcontextprotocol/ext-tasks core/v2's; neither it nor the SDK ships a task runtime, so the
// table is this module's own. The handlers are installed on the 2026-07-28 leg only (the SDK v2 server has no
// 2025-11-25 task runtime).
import { randomUUID } from 'node:crypto';
import { ProtocolError, acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import {
  TASKS_EXTENSION_ID_V2,
  GetTaskRequestV2Schema,
  InputResponsesV2Schema,
  CancelTaskRequestV2Schema,
  hasTaskClientCapabilityV2,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { z } from 'zod';
import { MAX_STEPS, TASK_POLL_MS, TASK_STEP_MS, TASK_TTL_MS, now, sleep, text } from './state.mjs';

export { TASKS_EXTENSION_ID_V2 };

const tasks = new Map();
const declaresTasks = (ctx) => hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope ?? {} });
function requireTasks(ctx) {
  if (declaresTasks(ctx)) return;
  throw new ProtocolError(-32021, 'Missing required client capability', {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } },
  });
}
function taskView(task) {
  const out = {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.status === 'input_required') out.inputRequests = task.inputRequests;
  if (task.status === 'completed') out.result = task.result;
  if (task.status === 'failed') out.error = task.error;
  return out;
}
function moveTask(task, status, fields = {}) {
  if (task.terminal) return;
  Object.assign(task, { status, lastUpdatedAt: now(), ...fields });
  if (status !== 'input_required') task.inputRequests = undefined;
  task.terminal = status === 'completed' || status === 'failed' || status === 'cancelled';
}
function startTask(work, ttlMs = TASK_TTL_MS) {
  const task = {
    taskId: randomUUID(),
    status: 'working',
    statusMessage: 'Starting',
    createdAt: now(),
    lastUpdatedAt: now(),
    ttlMs,
    pollIntervalMs: TASK_POLL_MS,
    controller: new AbortController(),
    answers: {},
    wake: undefined,
    terminal: false,
  };
  tasks.set(task.taskId, task);
  setTimeout(() => tasks.delete(task.taskId), ttlMs).unref();
  queueMicrotask(async () => {
    try {
      const result = await work(task);
      moveTask(task, 'completed', { result, statusMessage: 'Done' });
    } catch (e) {
      const error =
        e instanceof ProtocolError
          ? { code: e.code, message: e.message }
          : { code: -32603, message: e instanceof Error ? e.message : String(e) };
      moveTask(task, 'failed', { error, statusMessage: `Failed: ${error.message}` });
    }
  });
  return { resultType: 'task', ...taskView(task) };
}
async function askTask(task, key, request) {
  moveTask(task, 'input_required', { inputRequests: { [key]: request }, statusMessage: 'Waiting for input' });
  for (let i = 0; i < TASK_TTL_MS / TASK_POLL_MS && !task.terminal && task.answers[key] === undefined; i++) {
    await new Promise((resolve) => {
      task.wake = resolve;
      setTimeout(resolve, TASK_POLL_MS);
    });
  }
  moveTask(task, 'working', { statusMessage: 'Input received' });
  return task.answers[key];
}

export const CONFIRM = z.object({ proceed: z.boolean() });
export const confirmRequest = (steps) =>
  inputRequired.elicit({
    message: `Halfway through ${steps} steps. Carry on?`,
    requestedSchema: {
      type: 'object',
      properties: { proceed: { type: 'boolean', title: 'Carry on', default: true } },
      required: ['proceed'],
    },
  });

// long-task as a task: steps × TASK_STEP_MS, statusMessage `step i/n`, one elicitation midway.
async function runLongTask({ steps }, task) {
  const n = Math.max(1, Math.min(MAX_STEPS, steps));
  const half = Math.ceil(n / 2);
  for (let i = 1; i <= n && !task.terminal; i++) {
    await sleep(TASK_STEP_MS, task.controller.signal);
    if (task.terminal) break;
    Object.assign(task, { statusMessage: `step ${i}/${n}`, lastUpdatedAt: now() });
    if (i === half) {
      const answer = await askTask(task, 'proceed', confirmRequest(n));
      const given = acceptedContent({ proceed: answer }, 'proceed', CONFIRM);
      if (!given?.proceed) return { ...text(`stopped after step ${i} of ${n}`), isError: true };
    }
  }
  return text(`long task finished ${n} steps`);
}

/**
 * Installs the tasks extension on a 2026-07-28 instance: long-task becomes a task when the request declares the
 * extension (every other tools/call goes to McpServer's own handler), and tasks/get, tasks/update, tasks/cancel.
 */
export function registerTasks(server) {
  const original = server.server._getRequestHandler('tools/call');
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    if (request.params.name === 'long-task' && declaresTasks(ctx)) {
      const parsed = z
        .object({
          steps: z.number().int().min(1).max(MAX_STEPS).default(5),
          ttlMs: z.number().int().min(1_000).max(TASK_TTL_MS).optional(),
        })
        .safeParse(request.params.arguments ?? {});
      if (!parsed.success)
        throw new ProtocolError(-32602, `Invalid arguments for tool long-task: ${parsed.error.message}`);
      return startTask((task) => runLongTask(parsed.data, task), parsed.data.ttlMs);
    }
    return original(request, ctx);
  });
  const params = (schema) => ({ params: schema.shape.params });
  const find = (taskId) => {
    const task = tasks.get(taskId);
    if (task === undefined) throw new ProtocolError(-32602, 'Failed to retrieve task: Task not found');
    return task;
  };
  server.server.setRequestHandler('tasks/get', params(GetTaskRequestV2Schema), async ({ taskId }, ctx) => {
    requireTasks(ctx);
    return taskView(find(taskId));
  });
  server.server.setRequestHandler('tasks/update', params(GetTaskRequestV2Schema), async ({ taskId }, ctx) => {
    requireTasks(ctx);
    const responses = InputResponsesV2Schema.safeParse(ctx.mcpReq.inputResponses);
    if (!responses.success) throw new ProtocolError(-32602, 'Invalid params for tasks/update: inputResponses');
    const task = find(taskId);
    for (const [key, response] of Object.entries(responses.data)) {
      if (task.status === 'input_required' && key in task.inputRequests && task.answers[key] === undefined)
        task.answers[key] = response;
    }
    task.wake?.();
    return {};
  });
  server.server.setRequestHandler('tasks/cancel', params(CancelTaskRequestV2Schema), async ({ taskId }, ctx) => {
    requireTasks(ctx);
    const task = find(taskId);
    task.controller.abort();
    moveTask(task, 'cancelled', { statusMessage: 'Cancelled by request' });
    task.wake?.();
    return {};
  });
}
