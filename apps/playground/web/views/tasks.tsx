// Tasks view: the tasks this page created on the selected server, live status, cancel, and the final result.
import { useEffect, useState } from 'preact/hooks';
import {
  api,
  callState,
  errorText,
  type CallToolResult,
  type ErrorInfo as RpcError,
  type ServerView,
  type TaskRow,
} from '../api.js';
import { useEvent } from './hooks.js';
import { isCancellation, ToolResult } from './tools.js';

interface Row extends TaskRow {
  result?: CallToolResult;
  error?: RpcError;
  updatedAt?: number;
}

/** Statuses after which nothing more happens; 'expired' is the page's own word for a task whose ttl ran out. */
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'expired']);

export function TasksView({ server }: { server: ServerView | undefined }) {
  const [rows, setRows] = useState<Row[]>([]);
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  const id = server?.id;

  useEffect(() => {
    setRows([]);
    if (!id) return;
    let live = true;
    api
      .tasks(id)
      .then((list) => {
        if (!live) return;
        setError(undefined);
        setRows((cur) => {
          const byId = new Map(cur.map((r) => [r.taskId, r]));
          for (const t of list) {
            const s = callState(t.callId);
            byId.set(t.taskId, { ...byId.get(t.taskId), ...t, result: s?.result, error: s?.error });
          }
          return [...byId.values()];
        });
      })
      .catch((e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [id, tick]);

  useEvent('task', (e) => {
    if (e.serverId !== id) return;
    setRows((cur) => {
      const i = cur.findIndex((r) => r.taskId === e.task.taskId);
      const prev = cur[i];
      const row: Row = {
        tool: prev?.tool ?? '',
        ...prev,
        taskId: e.task.taskId,
        callId: e.callId,
        status: e.task.status,
        statusMessage: e.task.statusMessage,
        updatedAt: Date.now(),
      };
      if (i < 0) {
        setTimeout(() => setTick((t) => t + 1), 0); // learn the tool name from the list
        return [...cur, row];
      }
      const next = cur.slice();
      next[i] = row;
      return next;
    });
  });
  useEvent('result', (e) =>
    setRows((cur) =>
      cur.some((r) => r.callId === e.callId)
        ? cur.map((r) => (r.callId === e.callId ? { ...r, result: e.result, error: e.error } : r))
        : cur,
    ),
  );

  return (
    <div data-testid="tasks-view">
      <div class="sidebar-head">
        <strong>Tasks</strong>
        <button type="button" class="small" onClick={() => setTick((t) => t + 1)} data-testid="tasks-refresh">
          Refresh
        </button>
      </div>
      {!server && <p class="muted">Select a server.</p>}
      {error && <p class="error">{error}</p>}
      {server && !rows.length && <p class="muted">No tasks yet: run a tool as a task from the tools tab.</p>}
      <div class="task-list">
        {rows.map((r) => (
          <TaskItem key={r.taskId} row={r} serverId={server!.id} />
        ))}
      </div>
    </div>
  );
}

function TaskItem({ row, serverId }: { row: Row; serverId: string }) {
  const [err, setErr] = useState<string>();
  const [busy, setBusy] = useState(false);
  const terminal = TERMINAL.has(row.status);
  return (
    <div class="card task" data-testid={`task-row-${row.taskId}`} data-status={row.status}>
      <div class="task-head">
        <code>{row.taskId}</code> <strong>{row.tool}</strong>{' '}
        <span class={`status status-${row.status}`} data-testid={`task-status-${row.taskId}`}>
          {row.status}
        </span>
        {row.statusMessage && <span class="muted"> — {row.statusMessage}</span>}
        {row.status === 'input_required' && <span class="badge warn">waiting for your answer in the dialog</span>}
        <button
          type="button"
          class="small danger"
          data-testid={`task-cancel-${row.taskId}`}
          disabled={terminal || busy}
          onClick={async () => {
            setBusy(true);
            setErr(undefined);
            try {
              await api.cancelTask(serverId, row.taskId);
            } catch (e) {
              setErr(errorText(e));
            } finally {
              setBusy(false);
            }
          }}
        >
          Cancel
        </button>
      </div>
      {err && <div class="error">{err}</div>}
      {row.error && isCancellation(row.error.code) && (
        <div class="result cancelled-result" data-testid={`task-result-${row.taskId}`} data-cancelled="true">
          <strong>Cancelled</strong> <span class="muted">{row.error.message}</span>
        </div>
      )}
      {row.error && !isCancellation(row.error.code) && (
        <div class="result error-result" data-testid={`task-result-${row.taskId}`}>
          Error {row.error.code}: {row.error.message}
        </div>
      )}
      {row.result && <ToolResult result={row.result} testid={`task-result-${row.taskId}`} />}
    </div>
  );
}
