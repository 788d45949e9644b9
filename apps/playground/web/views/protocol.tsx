// Protocol view: every JSON-RPC frame of a server, requests paired with responses, MRTR rounds grouped, copy.
//
// Frames are filtered, and a composer replays a request or sends an edited one.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, errorText, isObject, type Frame, type Obj, type ServerView } from '../api.js';
import { CopyButton, JsonView } from './content.js';
import { useEvent } from './hooks.js';

const MAX_FRAMES = 2000;
const MAX_ROWS = 600;

export interface Entry {
  kind: 'request' | 'notification' | 'response';
  method: string;
  frame: Frame;
  response?: Frame;
  cancelled?: Frame;
  rounds: Entry[];
}

/** A message's `params` when it is an object. */
const paramsOf = (m: Obj | undefined): Obj | undefined => (isObject(m?.params) ? m.params : undefined);

const isMrtrRetry = (m: Obj) => {
  const params = paramsOf(m);
  return (
    m?.method === 'tools/call' && !!params && (params.inputResponses !== undefined || params.requestState !== undefined)
  );
};

/** Pair requests with responses by id and direction; fold MRTR retries under the call they continue. */
export function buildEntries(frames: Frame[]): Entry[] {
  const out: Entry[] = [];
  const pending = new Map<string, Entry>();
  let lastCall: Entry | undefined;
  for (const f of frames) {
    const m: Obj = f.message ?? {};
    const params = paramsOf(m);
    const hasId = m.id !== undefined && m.id !== null;
    if (typeof m.method === 'string') {
      const e: Entry = { kind: hasId ? 'request' : 'notification', method: m.method, frame: f, rounds: [] };
      if (m.method === 'notifications/cancelled' && params?.requestId !== undefined) {
        const target = pending.get(`${f.dir}:${JSON.stringify(params.requestId)}`);
        if (target) target.cancelled = f;
      }
      if (hasId) pending.set(`${f.dir}:${JSON.stringify(m.id)}`, e);
      if (hasId && f.dir === 'out' && m.method === 'tools/call') {
        const prev = paramsOf(lastCall?.frame.message);
        if (lastCall && isMrtrRetry(m) && prev?.name === params?.name) {
          lastCall.rounds.push(e);
          continue;
        }
        lastCall = e;
      }
      out.push(e);
    } else if (hasId) {
      const key = `${f.dir === 'in' ? 'out' : 'in'}:${JSON.stringify(m.id)}`;
      const req = pending.get(key);
      if (req && !req.response) {
        req.response = f;
        pending.delete(key);
      } else {
        out.push({ kind: 'response', method: '(response)', frame: f, rounds: [] });
      }
    } else {
      out.push({ kind: 'response', method: '(unknown)', frame: f, rounds: [] });
    }
  }
  return out;
}

function outcome(resp: Frame | undefined, cancelled?: Frame): { label: string; cls: string } {
  if (!resp) return cancelled ? { label: 'cancelled', cls: 'warn' } : { label: 'pending', cls: 'pending' };
  const m: Obj = resp.message;
  if (m.error) return { label: `error ${isObject(m.error) ? m.error.code : undefined}`, cls: 'error' };
  const r: Obj = isObject(m.result) ? m.result : {};
  if (r.resultType === 'input_required' || r.inputRequests) return { label: 'input required', cls: 'warn' };
  if (r.isError) return { label: 'isError', cls: 'error' };
  return { label: 'ok', cls: 'ok' };
}

/** The `_meta` keys the client writes on every request itself (revision, capabilities, identity): not replayed. */
const CLIENT_META = /^io\.modelcontextprotocol\//;

/** A request's params as a replay sends them: the client's own `_meta` keys left for the client to write again. */
export function replayParams(message: Obj): Obj | undefined {
  const params = paramsOf(message);
  if (params === undefined) return undefined;
  const { _meta, ...rest } = params;
  if (!isObject(_meta)) return rest;
  const kept = Object.fromEntries(Object.entries(_meta).filter(([k]) => !CLIENT_META.test(k) && k !== 'progressToken'));
  return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : rest;
}

/** Requests a replay may not send: the handshake is the client's, and a message without an id is no request. */
const canReplay = (e: Entry) => e.kind === 'request' && e.frame.dir === 'out' && e.method !== 'initialize';

interface Draft {
  method: string;
  params: string;
}
interface Sent {
  busy: boolean;
  result?: unknown;
  error?: string;
}

function time(ms: number): string {
  const d = new Date(ms);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function ProtocolView({ server }: { server: ServerView | undefined }) {
  const [frames, setFrames] = useState<Map<number, Frame>>(new Map());
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState('');
  const [hideNotifications, setHideNotifications] = useState(false);
  const [tick, setTick] = useState(0);
  const [draft, setDraft] = useState<Draft>();
  const [sent, setSent] = useState<Sent>();
  const id = server?.id;
  useEffect(() => {
    setDraft(undefined);
    setSent(undefined);
  }, [id]);

  const send = async (method: string, paramsText: string) => {
    if (!id) return;
    let params: unknown;
    try {
      params = paramsText.trim() === '' ? undefined : JSON.parse(paramsText);
    } catch (e) {
      setSent({ busy: false, error: `params are not JSON: ${errorText(e)}` });
      return;
    }
    if (params !== undefined && (!isObject(params) || Array.isArray(params))) {
      setSent({ busy: false, error: 'params must be a JSON object' });
      return;
    }
    setSent({ busy: true });
    try {
      const { result } = await api.send(id, method.trim(), params);
      setSent({ busy: false, result });
    } catch (e) {
      setSent({ busy: false, error: errorText(e) });
    }
  };
  const replay = (e: Entry) => {
    const params = replayParams(e.frame.message);
    setDraft(undefined);
    void send(e.method, params === undefined ? '' : JSON.stringify(params));
  };
  const edit = (e: Entry) => {
    const params = replayParams(e.frame.message);
    setSent(undefined);
    setDraft({ method: e.method, params: params === undefined ? '' : JSON.stringify(params, null, 2) });
  };

  useEffect(() => {
    setFrames(new Map());
    if (!id) return;
    let live = true;
    api
      .frames(id)
      .then((list) => {
        if (!live) return;
        setError(undefined);
        setFrames((cur) => {
          const next = new Map(cur);
          for (const f of list) next.set(f.seq, f);
          return trim(next);
        });
      })
      .catch((e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [id, tick]);

  useEvent('frame', (e) => {
    if (e.serverId !== id) return;
    setFrames((cur) => trim(new Map(cur).set(e.frame.seq, e.frame)));
  });

  const entries = useMemo(() => buildEntries([...frames.values()].sort((a, b) => a.seq - b.seq)), [frames]);
  const methods = useMemo(() => [...new Set(entries.map((e) => e.method))].sort(), [entries]);
  const shown = entries.filter(
    (e) => (!filter || e.method.startsWith(filter)) && !(hideNotifications && e.kind === 'notification'),
  );
  const visible = shown.slice(-MAX_ROWS);

  return (
    <div data-testid="protocol-view">
      <div class="toolbar">
        <input
          data-testid="frames-filter"
          list="frame-methods"
          placeholder="filter by method prefix (e.g. notifications/)"
          value={filter}
          onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)}
        />
        <datalist id="frame-methods">
          {methods.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <label class="inline">
          <input
            type="checkbox"
            data-testid="frames-hide-notifications"
            checked={hideNotifications}
            onChange={(e) => setHideNotifications((e.currentTarget as HTMLInputElement).checked)}
          />{' '}
          hide notifications
        </label>
        <button type="button" class="small" onClick={() => setTick((t) => t + 1)}>
          Reload
        </button>
        <button
          type="button"
          class="small"
          data-testid="frames-compose"
          disabled={server?.state !== 'connected'}
          onClick={() => {
            setSent(undefined);
            setDraft({ method: 'tools/list', params: '{}' });
          }}
        >
          New request
        </button>
        <CopyButton
          label="Copy all"
          text={() =>
            JSON.stringify(
              [...frames.values()].sort((a, b) => a.seq - b.seq),
              null,
              2,
            )
          }
        />
        <span class="muted">
          {shown.length} of {entries.length} entries · {frames.size} frames
        </span>
      </div>
      {!server && <p class="muted">Select a server.</p>}
      {error && <p class="error">{error}</p>}
      {draft && (
        <form
          class="composer"
          data-testid="composer"
          onSubmit={(ev) => {
            ev.preventDefault();
            void send(draft.method, draft.params);
          }}
        >
          <label>
            <span>Method</span>
            <input
              data-testid="composer-method"
              class="mono"
              value={draft.method}
              onInput={(ev) => setDraft({ ...draft, method: (ev.currentTarget as HTMLInputElement).value })}
            />
          </label>
          <label>
            <span>Params (JSON object; the client adds its own _meta)</span>
            <textarea
              data-testid="composer-params"
              class="mono"
              rows={8}
              value={draft.params}
              onInput={(ev) => setDraft({ ...draft, params: (ev.currentTarget as HTMLTextAreaElement).value })}
            />
          </label>
          <div class="actions">
            <button type="submit" data-testid="composer-send" disabled={sent?.busy || !draft.method.trim()}>
              Send
            </button>
            <button type="button" class="small" onClick={() => setDraft(undefined)}>
              Close
            </button>
          </div>
        </form>
      )}
      {sent && (
        <div
          class="composer-result"
          data-testid="composer-result"
          data-state={sent.busy ? 'busy' : sent.error ? 'error' : 'ok'}
        >
          {sent.busy ? (
            <p class="muted">Sending…</p>
          ) : sent.error !== undefined ? (
            <p class="error">{sent.error}</p>
          ) : (
            <JsonView value={sent.result} />
          )}
        </div>
      )}
      {shown.length > visible.length && <p class="muted">Showing the last {MAX_ROWS}.</p>}
      <div class="frames">
        {visible.map((e) => (
          <FrameRow key={e.frame.seq} e={e} onReplay={replay} onEdit={edit} />
        ))}
      </div>
    </div>
  );
}

function trim(m: Map<number, Frame>): Map<number, Frame> {
  if (m.size <= MAX_FRAMES) return m;
  const keys = [...m.keys()].sort((a, b) => a - b);
  for (const k of keys.slice(0, m.size - MAX_FRAMES)) m.delete(k);
  return m;
}

/** A small button on a frame's row that does not also open or close the row. */
function RowAction({ label, testid, title, run }: { label: string; testid: string; title: string; run: () => void }) {
  return (
    <button
      type="button"
      class="small"
      data-testid={testid}
      title={title}
      onClick={(ev) => {
        ev.stopPropagation();
        run();
      }}
    >
      {label}
    </button>
  );
}

function FrameRow({
  e,
  round,
  onReplay,
  onEdit,
}: {
  e: Entry;
  round?: number;
  onReplay?: (e: Entry) => void;
  onEdit?: (e: Entry) => void;
}) {
  const [open, setOpen] = useState(false);
  const m: Obj = e.frame.message;
  const params = paramsOf(m);
  const o = e.kind === 'request' ? outcome(e.response, e.cancelled) : undefined;
  const duration = e.response ? e.response.at - e.frame.at : undefined;
  const json = () => JSON.stringify(e.response ? { request: m, response: e.response.message } : m, null, 2);
  const summary =
    e.method === 'tools/call' || e.method === 'prompts/get'
      ? String(params?.name ?? '')
      : e.method.startsWith('resources/')
        ? String(params?.uri ?? '')
        : e.method === 'notifications/progress'
          ? `${params?.progress}${params?.total !== undefined ? `/${params.total}` : ''}`
          : '';
  return (
    <div
      class={`frame-row kind-${e.kind}${round ? ' round' : ''}`}
      data-testid="frame-row"
      data-method={e.method}
      data-dir={e.frame.dir}
      data-kind={e.kind}
      data-round={round}
    >
      <div class="frame-head" onClick={() => setOpen(!open)}>
        <span class="muted mono">{time(e.frame.at)}</span>
        <span class={`dir dir-${e.frame.dir}`} title={e.frame.dir === 'out' ? 'client → server' : 'server → client'}>
          {e.frame.dir === 'out' ? '→' : '←'}
        </span>
        <span class="method mono">{e.method}</span>
        {m.id !== undefined && <span class="muted mono">#{String(m.id)}</span>}
        {round && <span class="badge">round {round + 1}</span>}
        {summary && <span class="mono">{summary}</span>}
        {o && <span class={`badge ${o.cls}`}>{o.label}</span>}
        {duration !== undefined && (
          <span class="muted" data-testid="frame-duration">
            {duration} ms
          </span>
        )}
        {e.rounds.length > 0 && <span class="badge">{e.rounds.length + 1} rounds</span>}
        <span class="muted">{e.frame.bytes} B</span>
        <span class="spacer" />
        {!round && canReplay(e) && onReplay && onEdit && (
          <>
            <RowAction label="Replay" testid="frame-replay" title="send this request again" run={() => onReplay(e)} />
            <RowAction label="Edit" testid="frame-edit" title="edit this request, then send it" run={() => onEdit(e)} />
          </>
        )}
        <CopyButton text={json} testid="frame-copy" />
      </div>
      {open && (
        <div class="frame-body">
          <JsonView value={m} />
          {e.response && (
            <>
              <div class="muted">
                response {e.response.bytes} B{duration !== undefined ? `, after ${duration} ms` : ''}
              </div>
              <JsonView value={e.response.message} />
            </>
          )}
        </div>
      )}
      {e.rounds.length > 0 && (
        <div class="rounds">
          {e.rounds.map((r, i) => (
            <FrameRow key={r.frame.seq} e={r} round={i + 1} />
          ))}
        </div>
      )}
    </div>
  );
}
