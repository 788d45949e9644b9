// Servers view: add a stdio command, a URL or an mcpServers file; list each server's era, protocol, health.
import { useState } from 'preact/hooks';
import { api, errorText, type ServerView } from '../api.js';

/** Split a command line into words: whitespace-separated, '…' and "…" quoting, backslash escapes. */
export function splitCommand(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else cur += ch;
  }
  if (has || cur) out.push(cur);
  return out;
}

function errText(e: ServerView['error']): string {
  if (!e) return '';
  if (typeof e === 'string') return e;
  return String((e as { message?: string }).message ?? JSON.stringify(e));
}

export function ServersView(props: {
  servers: ServerView[];
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  const [command, setCommand] = useState('');
  const [env, setEnv] = useState('');
  const [url, setUrl] = useState('');
  const [transport, setTransport] = useState<'auto' | 'streamable-http' | 'http' | 'sse'>('auto');
  const [headers, setHeaders] = useState('');
  const [config, setConfig] = useState('');
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: string }>();

  const add = async (body: Parameters<typeof api.addServer>[0]) => {
    setBusy(true);
    setMsg(undefined);
    try {
      const added = await api.addServer(body);
      setMsg({ ok: true, text: `added ${added.map((s) => s.name).join(', ') || 'nothing'}` });
      if (added[0]) props.onSelect(added[0].id);
      return true;
    } catch (e) {
      setMsg({ ok: false, text: errorText(e) });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const parsePairs = (text: string, sep: RegExp): Record<string, string> | undefined => {
    const out: Record<string, string> = {};
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const m = sep.exec(line);
      if (!m) continue;
      out[line.slice(0, m.index).trim()] = line.slice(m.index + m[0].length).trim();
    }
    return Object.keys(out).length ? out : undefined;
  };

  return (
    <div data-testid="servers-view">
      <div class="cards">
        <form
          class="card"
          onSubmit={async (e) => {
            e.preventDefault();
            const words = splitCommand(command.trim());
            if (!words.length) return setMsg({ ok: false, text: 'enter a command' });
            const envs = parsePairs(env, /=/);
            if (await add({ kind: 'stdio', command: words[0]!, args: words.slice(1), ...(envs ? { env: envs } : {}) }))
              setCommand('');
          }}
        >
          <h3>Add a stdio server</h3>
          <input
            data-testid="add-stdio-command"
            placeholder="npx -y @modelcontextprotocol/server-everything"
            value={command}
            onInput={(e) => setCommand((e.currentTarget as HTMLInputElement).value)}
          />
          <details>
            <summary>Environment</summary>
            <textarea
              data-testid="add-stdio-env"
              rows={2}
              placeholder="KEY=value (one a line)"
              value={env}
              onInput={(e) => setEnv((e.currentTarget as HTMLTextAreaElement).value)}
            />
          </details>
          <button data-testid="add-stdio-submit" type="submit" disabled={busy}>
            Spawn and connect
          </button>
        </form>
        <form
          class="card"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!url.trim()) return setMsg({ ok: false, text: 'enter a URL' });
            const h = parsePairs(headers, /:/);
            if (await add({ kind: 'url', url: url.trim(), transport, ...(h ? { headers: h } : {}) })) setUrl('');
          }}
        >
          <h3>Add a URL</h3>
          <input
            data-testid="add-url-input"
            type="url"
            placeholder="http://127.0.0.1:3000/mcp"
            value={url}
            onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
          />
          <label class="inline">
            Transport{' '}
            <select
              data-testid="add-url-transport"
              value={transport}
              onChange={(e) => setTransport((e.currentTarget as HTMLSelectElement).value as typeof transport)}
            >
              <option value="auto">auto-detect</option>
              <option value="streamable-http">Streamable HTTP</option>
              <option value="http">plain HTTP</option>
              <option value="sse">HTTP+SSE (legacy)</option>
            </select>
          </label>
          <details>
            <summary>Headers</summary>
            <textarea
              data-testid="add-url-headers"
              rows={2}
              placeholder="Name: value (one a line)"
              value={headers}
              onInput={(e) => setHeaders((e.currentTarget as HTMLTextAreaElement).value)}
            />
          </details>
          <button data-testid="add-url-submit" type="submit" disabled={busy}>
            Connect
          </button>
        </form>
        <form
          class="card"
          onSubmit={async (e) => {
            e.preventDefault();
            let document: unknown;
            try {
              document = JSON.parse(config);
            } catch (err) {
              return setMsg({ ok: false, text: `config is not JSON: ${errorText(err)}` });
            }
            if (await add({ kind: 'config', document })) setConfig('');
          }}
        >
          <h3>Load an mcpServers file</h3>
          <input
            type="file"
            accept=".json,application/json"
            data-testid="add-config-file"
            onChange={async (e) => {
              const f = (e.currentTarget as HTMLInputElement).files?.[0];
              if (f) setConfig(await f.text());
            }}
          />
          <textarea
            data-testid="add-config-text"
            rows={3}
            placeholder='{ "mcpServers": { "name": { "command": "…" } } }'
            value={config}
            onInput={(e) => setConfig((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <button data-testid="add-config-submit" type="submit" disabled={busy || !config.trim()}>
            Load
          </button>
        </form>
      </div>
      {msg && (
        <div class={`banner ${msg.ok ? 'ok' : 'error'}`} data-testid="servers-message">
          {msg.text}
        </div>
      )}
      <table class="list servers">
        <thead>
          <tr>
            <th>Name</th>
            <th>State</th>
            <th>Era</th>
            <th>Protocol</th>
            <th>Transport</th>
            <th>Server</th>
            <th>Capabilities</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {props.servers.map((s) => (
            <ServerRow key={s.id} s={s} selected={s.id === props.selected} onSelect={() => props.onSelect(s.id)} />
          ))}
          {!props.servers.length && (
            <tr>
              <td colSpan={8} class="muted">
                No servers yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function ServerRow({ s, selected, onSelect }: { s: ServerView; selected: boolean; onSelect: () => void }) {
  const [err, setErr] = useState<string>();
  const act = (fn: () => Promise<unknown>) => (e: Event) => {
    e.stopPropagation();
    setErr(undefined);
    fn().catch((x) => setErr(errorText(x)));
  };
  const caps = Object.keys(s.capabilities ?? {});
  return (
    <>
      <tr
        data-testid={`server-row-${s.name}`}
        data-state={s.state}
        data-era={s.era}
        class={selected ? 'selected' : ''}
        onClick={onSelect}
      >
        <td>
          <strong>{s.name}</strong>
          <div class="muted small-text" title={s.target}>
            {s.kind}: {s.target}
          </div>
        </td>
        <td>
          <span class={`state state-${s.state}`} data-testid={`server-state-${s.name}`}>
            {s.state}
          </span>
        </td>
        <td data-testid={`server-era-${s.name}`}>{s.era ?? '—'}</td>
        <td data-testid={`server-protocol-${s.name}`}>{s.protocolVersion ?? '—'}</td>
        <td data-testid={`server-transport-${s.name}`}>{s.transport ?? '—'}</td>
        <td>{s.serverInfo ? `${s.serverInfo.title ?? s.serverInfo.name ?? ''} ${s.serverInfo.version ?? ''}` : '—'}</td>
        <td>
          {caps.map((c) => (
            <span key={c} class="badge">
              {c}
            </span>
          ))}
        </td>
        <td class="actions">
          <button
            type="button"
            class="small"
            data-testid={`server-reconnect-${s.name}`}
            onClick={act(() => api.reconnect(s.id))}
          >
            Reconnect
          </button>
          <button
            type="button"
            class="small danger"
            data-testid={`server-remove-${s.name}`}
            onClick={act(() => api.removeServer(s.id))}
          >
            Remove
          </button>
        </td>
      </tr>
      {(s.instructions || s.error || err) && (
        <tr class="sub">
          <td colSpan={8}>
            {s.instructions && (
              <details>
                <summary>Instructions</summary>
                <pre class="text">{s.instructions}</pre>
              </details>
            )}
            {(s.error || err) && <div class="error">{err ?? errText(s.error)}</div>}
          </td>
        </tr>
      )}
    </>
  );
}
