// Network view: the HTTP exchanges of an HTTP server: method, URL, status, timing, MCP headers, SSE streams.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, errorText, type HttpExchange, type ServerView } from '../api.js';
import { CopyButton } from './content.js';
import { useEvent } from './hooks.js';

const MAX = 2000;
const KEY_HEADERS = /^(mcp-|authorization$|www-authenticate$|content-type$|last-event-id$|dpop$)/i;

function hget(h: Record<string, string> | undefined, name: string): string | undefined {
  for (const [k, v] of Object.entries(h ?? {})) if (k.toLowerCase() === name) return v;
  return undefined;
}

function pick(h: Record<string, string> | undefined): [string, string][] {
  return Object.entries(h ?? {}).filter(([k]) => KEY_HEADERS.test(k));
}

export function NetworkView({ server }: { server: ServerView | undefined }) {
  const [rows, setRows] = useState<Map<number, HttpExchange>>(new Map());
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  const id = server?.id;

  useEffect(() => {
    setRows(new Map());
    if (!id || server?.kind !== 'url') return;
    let live = true;
    api
      .http(id)
      .then((list) => {
        if (!live) return;
        setError(undefined);
        setRows((cur) => {
          const next = new Map(cur);
          for (const x of list) next.set(x.seq, { ...next.get(x.seq), ...x });
          return next;
        });
      })
      .catch((e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [id, tick, server?.kind]);

  useEvent('http', (e) => {
    if (e.serverId !== id) return;
    setRows((cur) => {
      const next = new Map(cur).set(e.exchange.seq, { ...cur.get(e.exchange.seq), ...e.exchange });
      if (next.size > MAX) next.delete(Math.min(...next.keys()));
      return next;
    });
  });

  const list = useMemo(() => [...rows.values()].sort((a, b) => a.seq - b.seq).slice(-600), [rows]);

  return (
    <div data-testid="network-view">
      <div class="toolbar">
        <button type="button" class="small" onClick={() => setTick((t) => t + 1)}>
          Reload
        </button>
        <span class="muted">{rows.size} exchanges</span>
      </div>
      {!server && <p class="muted">Select a server.</p>}
      {server && server.kind !== 'url' && <p class="muted">{server.name} is a stdio server: no HTTP traffic.</p>}
      {error && <p class="error">{error}</p>}
      <table class="list http">
        <thead>
          <tr>
            <th>#</th>
            <th>Method</th>
            <th>JSON-RPC</th>
            <th>URL</th>
            <th>Status</th>
            <th>Time</th>
            <th>Headers</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.map((x) => (
            <HttpRow key={x.seq} x={x} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HttpRow({ x }: { x: HttpExchange }) {
  const [open, setOpen] = useState(false);
  const status = x.status === undefined ? (x.error ? 'error' : 'pending') : String(x.status);
  const cls = x.status === undefined ? (x.error ? 'error' : 'pending') : x.status >= 400 ? 'error' : 'ok';
  const session = hget(x.requestHeaders, 'mcp-session-id') ?? hget(x.responseHeaders, 'mcp-session-id');
  return (
    <>
      <tr
        data-testid="http-row"
        data-status={status}
        data-method={x.method}
        data-rpc={x.rpc ?? ''}
        data-sse={String(x.sse)}
        class="clickable"
        onClick={() => setOpen(!open)}
      >
        <td class="muted">{x.seq}</td>
        <td class="mono">{x.method}</td>
        <td class="mono" data-testid="http-rpc">
          {x.rpc ?? ''}
        </td>
        <td class="mono url" title={x.url}>
          {x.url}
        </td>
        <td>
          <span class={`badge ${cls}`}>{status}</span>
          {x.sse && (
            <span class="badge sse" data-testid="http-sse">
              SSE
            </span>
          )}
        </td>
        <td class="muted">{x.durationMs !== undefined ? `${Math.round(x.durationMs)} ms` : '…'}</td>
        <td class="mono small-text">
          {pick(x.requestHeaders)
            .filter(([k]) => /^mcp-protocol-version$/i.test(k))
            .map(([k, v]) => (
              <div key={k}>
                {k}: {v}
              </div>
            ))}
          {session && <div>session: {session}</div>}
        </td>
        <td>
          <CopyButton text={() => JSON.stringify(x, null, 2)} />
        </td>
      </tr>
      {open && (
        <tr class="sub">
          <td colSpan={8}>
            {x.error && <div class="error">{typeof x.error === 'string' ? x.error : JSON.stringify(x.error)}</div>}
            <div class="headers">
              <HeaderList title="Request headers" h={x.requestHeaders} />
              <HeaderList title="Response headers" h={x.responseHeaders} />
            </div>
          </td>
        </tr>
      )}
    </>
  );
}

function HeaderList({ title, h }: { title: string; h: Record<string, string> | undefined }) {
  const entries = Object.entries(h ?? {});
  return (
    <div>
      <h4>{title}</h4>
      {!entries.length && <div class="muted">none</div>}
      <dl class="mono small-text">
        {entries.map(([k, v]) => (
          <div key={k} class={KEY_HEADERS.test(k) ? 'key-header' : ''}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
