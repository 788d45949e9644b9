// Logs view: a server's log messages as they arrive (and those kept before the page opened), and their levels.
//
// A minimum level to show, and the level the server is asked to send from.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type LogRecord, type ServerView } from '../api.js';
import { JsonView } from './content.js';
import { useEvent } from './hooks.js';

/** RFC 5424 severities, least severe first, as MCP names them. */
export const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
const MAX_SHOWN = 1_000;

const rank = (level: string): number => LEVELS.indexOf(level as (typeof LEVELS)[number]);

export function LogsView({ server }: { server: ServerView | undefined }) {
  const [logs, setLogs] = useState<LogRecord[]>([]);
  const [error, setError] = useState<string>();
  const [shown, setShown] = useState<string>('debug');
  const [serverLevel, setServerLevel] = useState<string>('');
  const [note, setNote] = useState<string>();
  const id = server?.id;
  const ready = server?.state === 'connected';

  useEffect(() => {
    setLogs([]);
    setNote(undefined);
    setServerLevel('');
    if (!id) return;
    let live = true;
    api
      .logs(id)
      .then((list) => {
        if (!live) return;
        setError(undefined);
        // Events may have arrived first: merge by sequence number.
        setLogs((cur) => merge(list, cur));
      })
      .catch((e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [id]);

  useEvent('log', (e) => {
    if (e.serverId === id) setLogs((cur) => merge(cur, [e.log]));
  });

  const setLevel = async (level: string) => {
    const known = LEVELS.find((l) => l === level);
    if (!id || known === undefined) return;
    setServerLevel(level);
    setNote(undefined);
    try {
      await api.setLogLevel(id, known);
      setNote(`asked the server to send ${level} and above`);
    } catch (e) {
      setNote(errorText(e));
    }
  };

  const floor = rank(shown);
  const visible = logs.filter((l) => rank(l.level) >= floor);

  return (
    <div data-testid="logs-view">
      <div class="toolbar">
        <LevelSelect label="Show from" testid="logs-shown-level" value={shown} onChange={setShown} />
        <LevelSelect
          label="Server sends from"
          testid="logs-server-level"
          value={serverLevel}
          disabled={!ready}
          none="(its default)"
          onChange={(level) => void setLevel(level)}
        />
        <button type="button" class="small" data-testid="logs-clear" onClick={() => setLogs([])}>
          Clear
        </button>
        <span class="muted" data-testid="logs-count">
          {visible.length} of {logs.length} messages
        </span>
        {note && (
          <span class="muted" data-testid="logs-note">
            {note}
          </span>
        )}
      </div>
      {!server && <p class="muted">Select a server.</p>}
      {error && <p class="error">{error}</p>}
      {server && logs.length === 0 && !error && (
        <p class="muted">No log messages yet. A server sends them with notifications/message.</p>
      )}
      <ol class="logs">
        {visible.map((l) => (
          <li key={l.seq} data-testid="log-row" data-level={l.level} class={`log level-${l.level}`}>
            <span class="muted mono">{new Date(l.at).toLocaleTimeString([], { hour12: false })}</span>
            <span class={`badge level level-${l.level}`}>{l.level}</span>
            {l.logger && <code class="muted">{l.logger}</code>}
            {typeof l.data === 'string' ? <span class="log-text">{l.data}</span> : <JsonView value={l.data} />}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** A choice of severity (and, with `none`, of no choice at all). */
function LevelSelect(props: {
  label: string;
  testid: string;
  value: string;
  onChange: (level: string) => void;
  disabled?: boolean;
  none?: string;
}) {
  return (
    <label class="inline">
      {props.label}{' '}
      <select
        data-testid={props.testid}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value)}
      >
        {props.none !== undefined && <option value="">{props.none}</option>}
        {LEVELS.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Two lists of records as one, by sequence number, newest `MAX_SHOWN` kept. */
function merge(a: LogRecord[], b: LogRecord[]): LogRecord[] {
  const bySeq = new Map<number, LogRecord>();
  for (const l of a) bySeq.set(l.seq, l);
  for (const l of b) bySeq.set(l.seq, l);
  return [...bySeq.values()].sort((x, y) => x.seq - y.seq).slice(-MAX_SHOWN);
}
