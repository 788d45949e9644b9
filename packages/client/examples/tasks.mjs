// @ts-check
// The task flow end to end: a tool call that becomes a task, followed transparently; one created as a task
// and waited for (its input request answered by the elicitation handler); a handle moved through JSON; a
// cancellation. Run it from the repository: `node packages/client/examples/tasks.mjs [modern|legacy]` —
// it starts the repository's task fixture server (MCP 2026-07-28 tasks extension, or 2025-11-25 tasks).
import { Client, Task, TaskFailedError, stdio, textOf } from '@mcpc/client';
import { fileURLToPath } from 'node:url';

const era = process.argv[2] === 'legacy' ? 'legacy' : 'modern';
const server = fileURLToPath(new URL('../../../tooling/fixtures/tasks/scripted-tasks-server.mjs', import.meta.url));

const client = new Client({
  servers: [stdio({ name: 'tasks', command: process.execPath, args: [server, 'stdio', '--era', era] })],
  // MCP 2026-07-28: the server may answer any tools/call with a task once the client declares the extension.
  // A 2025-11-25 server is read from its tasks capability instead (a tool that requires a task runs as one).
  extensions: ['io.modelcontextprotocol/tasks'],
  // Input a task asks for while it runs reaches the same handlers a direct request would.
  onElicitation: (request) => {
    console.log(`the task asks: ${request.message}`);
    return { action: 'accept', content: { v: 'forty-two' } };
  },
});

try {
  // 1. Transparent: the call polls the task it became and resolves with the tool's result.
  const direct = await client.callTool(
    'required-job',
    { steps: 2 },
    { onTaskStatus: (t) => console.log(`  ${t.status}`) },
  );
  console.log(`callTool → ${textOf(direct)}`);

  // 2. A handle at once, then the whole lifecycle driven by waitForTask.
  const task = await client.callToolAsTask('ask', {});
  console.log(`created task ${task.taskId.slice(0, 8)}… (${task.status}, poll every ${task.pollIntervalMs} ms)`);
  const done = await client.waitForTask(task, { timeout: 30_000 });
  console.log(`finished: ${done.status} → ${textOf(done.result ?? [])}`);

  // 3. Handles move between processes as JSON; the server's tasks live on.
  const saved = JSON.stringify(await client.callToolAsTask('job', { steps: 3 }));
  const restored = Task.fromJSON(saved);
  console.log(`restored from JSON → ${textOf(await client.getTaskResult(restored))}`);

  // 4. Cancelling sends tasks/cancel (never notifications/cancelled).
  const endless = await client.callToolAsTask('never', {});
  const cancelled = await client.cancelTask(endless);
  console.log(`cancel acknowledged (status ${cancelled.status})`);

  // 5. A task that fails rejects with a typed error carrying the server's JSON-RPC error.
  await client.getTaskResult(await client.callToolAsTask('fail', {})).catch((error) => {
    if (!(error instanceof TaskFailedError)) throw error;
    console.log(`failed task: ${error.code} (${error.rpcCode}: ${error.serverMessage})`);
  });
} finally {
  await client.close();
}
