// Tools view: list, schema form + raw JSON editor, validate, run (or as a task), progress, cancel, result.
import { useEffect, useState } from 'preact/hooks';
import { AppPanel } from '../apps-host/panel.js';
import {
  api,
  callState,
  errorText,
  type CallToolResult,
  type Issue,
  type OutputVerdict,
  type ErrorInfo as RpcError,
  type ServerView,
  type TaskView as Task,
  type ToolView as Tool,
} from '../api.js';
import { ContentList, JsonView } from './content.js';
import { formCanExpress, initialValue, issuesByPath, SchemaForm } from './form.js';
import { useEvent, useServerList } from './hooks.js';
import { hintBadges, isCancellation, matches, resultParts, uiUri, verdictSummary } from './tools-logic.js';

export { isCancellation, matches } from './tools-logic.js';

export function ToolsView({ server }: { server: ServerView | undefined }) {
  const tools = useServerList(server, api.tools, 'notifications/tools/list_changed');
  const [name, setName] = useState<string>();
  const [query, setQuery] = useState('');
  const tool = tools.data?.find((t) => t.name === name);
  useEffect(() => setName(undefined), [server?.id]);
  const listed = tools.data?.filter((t) => matches(t, query));

  return (
    <div data-testid="tools-view" class="split">
      <aside class="sidebar">
        <div class="sidebar-head">
          <strong>Tools</strong>
          <button type="button" class="small" onClick={tools.reload} data-testid="tools-refresh">
            Refresh
          </button>
        </div>
        {!server && <p class="muted">Select a server.</p>}
        {server && server.state !== 'connected' && <p class="muted">Server is {server.state}.</p>}
        {tools.error && <p class="error">{tools.error}</p>}
        {tools.data && tools.data.length > 0 && (
          <input
            type="search"
            class="sidebar-search"
            data-testid="tools-search"
            placeholder="search name, title, description"
            aria-label="search tools"
            value={query}
            onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
          />
        )}
        {tools.data && query && (
          <p class="muted" data-testid="tools-search-count">
            {listed?.length ?? 0} of {tools.data.length}
          </p>
        )}
        <ul class="items">
          {listed?.map((t) => (
            <li
              key={t.name}
              data-testid={`tool-item-${t.name}`}
              class={t.name === name ? 'selected' : ''}
              onClick={() => setName(t.name)}
            >
              <strong>{t.title ?? t.name}</strong>
              {t.title && <code class="muted"> {t.name}</code>}
              {uiUri(t) && <span class="badge">app</span>}
              {t.description && <div class="desc clamp">{t.description}</div>}
            </li>
          ))}
        </ul>
      </aside>
      <div class="detail">
        {tool && server ? (
          <ToolPanel key={`${server.id}/${tool.name}`} server={server} tool={tool} />
        ) : (
          <p class="muted">Pick a tool.</p>
        )}
      </div>
    </div>
  );
}

/** The hints as badges (decided in tools-logic.ts). */
function ToolHints({ tool }: { tool: Tool }) {
  return (
    <div data-testid="tool-hints">
      {hintBadges(tool).map(({ hint, value, declared }) => (
        <span
          key={hint}
          class={declared ? 'badge' : 'badge muted'}
          data-testid={`hint-${hint}`}
          data-declared={declared ? 'yes' : 'no'}
          title={declared ? 'declared by the server' : 'not declared: the value MCP assumes'}
        >
          {hint}: {String(value)}
          {!declared && ' (default)'}
        </span>
      ))}
    </div>
  );
}

interface Run {
  callId?: string;
  asTask: boolean;
  args: unknown;
  progress?: { progress: number; total?: number; message?: string };
  task?: Task;
  result?: CallToolResult;
  error?: RpcError | { message: string; code?: string | number };
  output?: OutputVerdict;
  done: boolean;
  cancelling?: boolean;
}

function ToolPanel({ server, tool }: { server: ServerView; tool: Tool }) {
  const schema = tool.inputSchema ?? { type: 'object' };
  const [value, setValue] = useState<unknown>(() => initialValue(schema));
  const [raw, setRaw] = useState(() => JSON.stringify(value, null, 2));
  const [rawBad, setRawBad] = useState<string>();
  const [showRaw, setShowRaw] = useState(() => !formCanExpress(schema));
  const [issues, setIssues] = useState<Issue[]>([]);
  const [run, setRun] = useState<Run>();

  // Form → raw text (unless the raw text is mid-edit and unparsable).
  const setFromForm = (v: unknown) => {
    setValue(v);
    setRaw(JSON.stringify(v ?? {}, null, 2));
    setRawBad(undefined);
  };
  const setFromRaw = (text: string) => {
    setRaw(text);
    try {
      const v = JSON.parse(text);
      setValue(v);
      setRawBad(undefined);
    } catch (e) {
      setRawBad(errorText(e));
    }
  };

  const apply = (callId: string, patch: Partial<Run>) =>
    setRun((r) => (r && r.callId === callId ? { ...r, ...patch } : r));
  useEvent('progress', (e) => apply(e.callId, { progress: e }));
  useEvent('task', (e) => apply(e.callId, { task: e.task }));
  useEvent('result', (e) => apply(e.callId, { result: e.result, error: e.error, output: e.output, done: true }));

  const submit = async (asTask: boolean) => {
    if (rawBad) return;
    const args: unknown = value ?? {};
    setIssues([]);
    try {
      const v = await api.validate(schema, args);
      if (!v.valid) {
        setIssues(v.issues);
        return;
      }
    } catch {
      /* validation unavailable (e.g. a dialect the validator refuses): let the server judge */
    }
    setRun({ asTask, args, done: false });
    try {
      // An object once the schema check passed; anything else the server refuses with a 400, shown below.
      const { callId } = await api.call(server.id, tool.name, args as Record<string, unknown>, asTask);
      const early = callState(callId);
      setRun((r) =>
        r && !r.callId
          ? {
              ...r,
              callId,
              progress: early?.progress,
              task: early?.task,
              result: early?.result,
              error: early?.error,
              output: early?.output,
              done: early?.done ?? false,
            }
          : r,
      );
    } catch (e) {
      setRun({ asTask, args, done: true, error: { message: errorText(e) } });
    }
  };

  const cancel = async () => {
    if (!run?.callId) return;
    setRun((r) => r && { ...r, cancelling: true });
    try {
      await api.cancelCall(run.callId);
    } catch (e) {
      setRun((r) => r && { ...r, error: { message: `cancel failed: ${errorText(e)}` } });
    }
  };

  const byPath = issuesByPath(issues);
  const running = !!run && !run.done;
  const ui = uiUri(tool);

  return (
    <div class="tool-panel">
      <h2>{tool.title ?? tool.name}</h2>
      {tool.description && <p class="desc">{tool.description}</p>}
      <ToolHints tool={tool} />
      <form
        data-testid="tool-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(false);
        }}
      >
        <SchemaForm schema={schema} value={value} onChange={setFromForm} issues={byPath} idPrefix="field-" />
        {issues.length > 0 && (
          <ul class="form-issues" data-testid="form-issues" role="alert">
            {issues.map((i, k) => (
              <li key={k}>
                <code>{i.instancePath || '/'}</code> {i.message}
              </li>
            ))}
          </ul>
        )}
        <label class="inline toggle">
          <input
            type="checkbox"
            data-testid="raw-json-toggle"
            checked={showRaw}
            onChange={(e) => setShowRaw((e.currentTarget as HTMLInputElement).checked)}
          />{' '}
          Raw JSON
        </label>
        {showRaw && (
          <div>
            <textarea
              class={`json${rawBad ? ' invalid' : ''}`}
              data-testid="raw-json-editor"
              rows={8}
              spellcheck={false}
              value={raw}
              onInput={(e) => setFromRaw((e.currentTarget as HTMLTextAreaElement).value)}
            />
            {rawBad && <div class="field-issues">{rawBad}</div>}
          </div>
        )}
        <div class="buttons">
          <button type="submit" data-testid="tool-run" disabled={running || !!rawBad}>
            Run
          </button>
          <button
            type="button"
            data-testid="tool-run-task"
            disabled={running || !!rawBad}
            onClick={() => void submit(true)}
          >
            Run as task
          </button>
          <button
            type="button"
            class="danger"
            data-testid="tool-cancel"
            disabled={!running || !run?.callId || run.cancelling}
            onClick={() => void cancel()}
          >
            Cancel
          </button>
        </div>
      </form>
      {run && <RunView run={run} tool={tool} server={server} ui={ui} />}
    </div>
  );
}

function RunView({ run, tool, server, ui }: { run: Run; tool: Tool; server: ServerView; ui?: string }) {
  const p = run.progress;
  return (
    <div class="run" data-testid="tool-run-state" data-done={String(run.done)}>
      <div class="run-status">
        {run.done ? (
          <span class="muted">finished</span>
        ) : (
          <span class="spinner" data-testid="tool-running">
            running{run.cancelling ? ' (cancelling…)' : ''}
          </span>
        )}
        {run.callId && <code class="muted"> call {run.callId}</code>}
      </div>
      {(p || !run.done) && (
        <div class="progress">
          <progress
            data-testid="progress-bar"
            value={p?.progress ?? 0}
            max={p?.total ?? Math.max(1, p?.progress ?? 1)}
          />
          <span class="muted" data-testid="progress-text">
            {p
              ? `${p.progress}${p.total !== undefined ? ` / ${p.total}` : ''}${p.message ? ` — ${p.message}` : ''}`
              : ''}
          </span>
        </div>
      )}
      {run.task && (
        <div class="task-line">
          Task <code>{run.task.taskId}</code>:{' '}
          <span class={`status status-${run.task.status}`} data-testid="tool-task-status" data-status={run.task.status}>
            {run.task.status}
          </span>
          {run.task.statusMessage && <span class="muted"> — {run.task.statusMessage}</span>}
        </div>
      )}
      {run.error && isCancellation(run.error.code) && (
        <div class="result cancelled-result" data-testid="tool-result" data-error="false" data-cancelled="true">
          <strong>Cancelled</strong> <span class="muted">{run.error.message}</span>
        </div>
      )}
      {run.error && !isCancellation(run.error.code) && (
        <div class="result error-result" data-testid="tool-result" data-error="true">
          <strong>Error{run.error.code !== undefined ? ` ${run.error.code}` : ''}:</strong> {run.error.message}
        </div>
      )}
      {run.result && <ToolResult result={run.result} tool={tool} output={run.output} />}
      {ui && run.callId && (
        <AppPanel
          serverId={server.id}
          resourceUri={ui}
          toolInput={run.args}
          toolResult={run.result ?? (run.error ? { error: run.error } : undefined)}
          tool={tool}
        />
      )}
    </div>
  );
}

export function ToolResult({
  result,
  tool,
  output,
  testid = 'tool-result',
}: {
  result: CallToolResult;
  tool?: Tool;
  /** The client's verdict on the output schema, as the result event brought it. */
  output?: OutputVerdict;
  testid?: string;
}) {
  const main = testid === 'tool-result';
  const parts = resultParts(result, tool, main);
  return (
    <div
      class={`result${result.isError ? ' error-result' : ''}`}
      data-testid={testid}
      data-error={String(!!result.isError)}
    >
      {result.isError && <div class="error">The tool reported an error (isError).</div>}
      <ContentList content={result.content} />
      {parts.structured && (
        <div class="structured">
          <h4>structuredContent</h4>
          <JsonView value={result.structuredContent} testid={main ? 'structured-content' : undefined} />
          {parts.outputCheck && <OutputCheck verdict={output} />}
        </div>
      )}
      {parts.structuredMissing && (
        <div class="error" data-testid="structured-missing">
          The tool declares an outputSchema but returned no structuredContent.
        </div>
      )}
      <details>
        <summary>Raw result</summary>
        <JsonView value={result} />
      </details>
    </div>
  );
}

/** The client's verdict on the structured content (it checked the result before the page got it). */
function OutputCheck({ verdict }: { verdict: OutputVerdict | undefined }) {
  const issues = verdict?.issues ?? [];
  const summary = verdictSummary(verdict);
  return (
    <div
      class="output-check"
      data-testid="structured-issues"
      data-valid={verdict === undefined || verdict.valid === null ? undefined : String(verdict.valid)}
      data-count={String(issues.length)}
    >
      <div>
        outputSchema check by the client: <span class={summary.tone}>{summary.text}</span>
      </div>
      <ul class="form-issues">
        {issues.map((i, k) => (
          <li key={k}>
            <code>{i.instancePath || '/'}</code> {i.message} <span class="muted">({i.keyword})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
