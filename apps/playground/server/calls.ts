// Tool calls the page started, each run in the background in a span, reported as progress, task and result events.
//
// Tasks are kept per entry.
import { randomUUID } from 'node:crypto';
import { StructuredContentError, type CallToolResult, type Client, type Task } from '@mcpc/client';
import type { TaskJSON } from '@mcpc/client/types';
import type { Span } from '@opentelemetry/api';
import type { CallRequest, OutputVerdict, TaskRow, TaskView } from '../contract/api.js';
import type { Entry } from './entry.js';
import type { Emit } from './events.js';
import { ApiError, errorJson } from './http.js';
import { markFailed } from './timeline.js';

/** Tasks kept per server. */
const TASK_RECORDS = 500;

interface CallRecord {
  callId: string;
  entry: Entry;
  controller: AbortController;
  task?: Task;
}

/** What the page shows instead of a task's own status (a task whose ttl ran out). */
type Shown = { status: 'expired'; statusMessage: string };

export class Calls {
  readonly #calls = new Map<string, CallRecord>();

  constructor(private readonly emit: Emit) {}

  /**
   * Starts a tool call on the entry's client; progress, task and result arrive as events. The call runs inside
   * its own span (`playground call tools/call <tool>`): the client's spans are its children, and its progress
   * and task statuses are events on it.
   */
  start(entry: Entry, client: Client, body: CallRequest): string {
    const callId = randomUUID();
    const controller = new AbortController();
    const call: CallRecord = { callId, entry, controller };
    this.#calls.set(callId, call);
    const attributes = { 'playground.call.id': callId, ...(body.asTask === true && { 'playground.call.task': true }) };
    void entry.timeline.run(`call tools/call ${body.tool}`, attributes, (span) => this.#run(call, client, body, span));
    return callId;
  }

  async #run(call: CallRecord, client: Client, body: CallRequest, span: Span): Promise<void> {
    const { callId, entry } = call;
    const signal = call.controller.signal;
    const onProgress = (p: { progress: number; total?: number; message?: string }) => {
      span.addEvent('progress', {
        'mcp.progress': p.progress,
        ...(p.total !== undefined && { 'mcp.progress.total': p.total }),
      });
      this.emit({
        type: 'progress',
        callId,
        progress: p.progress,
        ...(p.total !== undefined && { total: p.total }),
        ...(p.message !== undefined && { message: p.message }),
      });
    };
    let status: string | undefined;
    const onTask = (task: Task) => {
      if (task.status !== status)
        span.addEvent('task status', { 'mcp.task.id': task.taskId, 'mcp.task.status': task.status });
      status = task.status;
      call.task = task;
      this.#recordTask(entry, task, callId, body.tool);
    };
    const args = body.arguments ?? {};
    try {
      const result =
        body.asTask === true
          ? await this.#runAsTask(client, body.tool, args, signal, onProgress, onTask)
          : await client.callTool(body.tool, args, {
              signal,
              onProgress,
              resetTimeoutOnProgress: true,
              onTaskStatus: onTask,
              // Strict, so the client's verdict on the output schema comes back with the result: the page
              // shows it rather than checking the result again.
              validateStructuredContent: 'strict',
            });
      // A tool's own failure is a result, which the MCP conventions call `tool_error`.
      span.addEvent('answer', { 'playground.answer': result.isError === true ? 'tool_error' : 'result' });
      if (result.isError === true) markFailed(span, { code: 'tool_error' });
      this.emit({ type: 'result', callId, result, output: { valid: true, issues: [] } });
    } catch (error) {
      if (error instanceof StructuredContentError) {
        // The client found the output breaking its schema (or could not decide): the result, with why.
        const output: OutputVerdict = {
          valid: error.reason === 'undecided' ? null : false,
          reason: error.reason,
          issues: error.errors.map((e) => ({
            instancePath: e.instancePath,
            keyword: e.keyword,
            schemaPath: e.schemaPath,
            message: e.message,
          })),
        };
        span.addEvent('answer', { 'playground.answer': `output ${error.reason}` });
        span.setAttribute('playground.output', error.reason);
        this.emit({ type: 'result', callId, result: error.result, output });
        return;
      }
      markFailed(span, error);
      const failure = errorJson(error);
      // A task whose ttl ran out (while a dialog was open, or while polling) is over for the page: it says
      // "expired", not the input_required it was last seen in, and cannot be cancelled any more.
      if (failure.code === 'MCPC_TASK_EXPIRED' && call.task !== undefined && !call.task.terminal)
        this.#recordTask(entry, call.task, callId, body.tool, {
          status: 'expired',
          statusMessage: 'its ttl passed before it ended',
        });
      this.emit({ type: 'result', callId, error: failure });
    } finally {
      this.#calls.delete(callId);
    }
  }

  async #runAsTask(
    client: Client,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress: (p: { progress: number; total?: number; message?: string }) => void,
    onTask: (task: Task) => void,
  ): Promise<CallToolResult> {
    let task = await client.callToolAsTask(tool, args, { signal, onProgress, validateStructuredContent: 'strict' });
    onTask(task);
    if (!task.terminal) task = await client.waitForTask(task, { signal, onStatus: onTask });
    onTask(task);
    // waitForTask fetched the result of a completed task: an empty one only if the server sent none.
    if (task.status === 'completed') return task.result ?? { content: [] };
    if (task.status === 'failed')
      throw Object.assign(new Error(task.error?.message ?? 'the task failed'), { code: 'MCPC_TASK_FAILED' });
    throw Object.assign(new Error('the task was cancelled'), { code: 'MCPC_TASK_CANCELLED' });
  }

  /** Cancels a call in flight (its task first, with tasks/cancel: a task outlives an aborted wait). */
  async cancel(callId: string): Promise<void> {
    const call = this.#calls.get(callId);
    if (call === undefined) throw new ApiError(404, 'unknown_call', `no call "${callId}" in flight`);
    const { task, entry } = call;
    if (task !== undefined && !task.terminal && entry.client !== undefined) {
      const cancelled = await entry.client.cancelTask(task).catch(() => undefined);
      if (cancelled !== undefined) this.#recordTask(entry, cancelled, callId, task.tool ?? '');
    }
    call.controller.abort(new Error('cancelled from the playground'));
  }

  /** Aborts every call on the entry (it is closing). */
  abortAll(entry: Entry): void {
    for (const call of [...this.#calls.values()]) if (call.entry === entry) call.controller.abort(new Error('closed'));
  }

  tasks(entry: Entry): TaskRow[] {
    return [...entry.tasks.values()].map(({ handle: _h, ...row }) => row);
  }

  async cancelTask(entry: Entry, client: Client, taskId: string): Promise<TaskJSON> {
    const record = entry.tasks.get(taskId);
    if (record === undefined) throw new ApiError(404, 'unknown_task', `no task "${taskId}" created here`);
    const task = await client.cancelTask(record.handle);
    this.#recordTask(entry, task, record.callId, record.tool);
    return task.toJSON();
  }

  #recordTask(entry: Entry, task: Task, callId: string, tool: string, shown?: Shown): void {
    const status = shown?.status ?? task.status;
    const statusMessage = shown?.statusMessage ?? task.statusMessage;
    entry.tasks.delete(task.taskId);
    entry.tasks.set(task.taskId, {
      taskId: task.taskId,
      status,
      ...(statusMessage !== undefined && { statusMessage }),
      tool: task.tool ?? tool,
      callId,
      handle: task,
    });
    while (entry.tasks.size > TASK_RECORDS) {
      const oldest = entry.tasks.keys().next().value;
      if (oldest === undefined) break;
      entry.tasks.delete(oldest);
    }
    const view: TaskView = { ...task.toJSON(), ...shown };
    this.emit({ type: 'task', callId, serverId: entry.id, task: view });
  }
}
