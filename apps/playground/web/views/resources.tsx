// Resources view: resources and templates, read (text/JSON/images/binary), subscribe and live updates.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, isObject, type ContentsView, type ResourceTemplate, type ServerView } from '../api.js';
import { ResourceBody } from './content.js';
import { useEvent, useServerList } from './hooks.js';

/** Variables named in a URI template (RFC 6570 expressions, operators stripped). */
export function templateVars(t: string): string[] {
  const out: string[] = [];
  for (const m of t.matchAll(/\{([^}]+)\}/g)) {
    for (const v of m[1]!.replace(/^[+#./;?&]/, '').split(',')) {
      const name = v.replace(/[*]|:\d+$/g, '');
      if (name && !out.includes(name)) out.push(name);
    }
  }
  return out;
}

/** Expand a URI template with string values (levels 1–3, enough for resource templates). */
export function expandTemplate(t: string, vals: Record<string, string>): string {
  return t.replace(/\{([^}]+)\}/g, (_, expr: string) => {
    const op = /^[+#./;?&]/.test(expr) ? expr[0]! : '';
    const names = (op ? expr.slice(1) : expr).split(',').map((v) => v.replace(/[*]|:\d+$/g, ''));
    const reserved = op === '+' || op === '#';
    const encode = (s: string) => (reserved ? encodeURI(s) : encodeURIComponent(s));
    const parts = names.filter((n) => vals[n] !== undefined && vals[n] !== '');
    if (!parts.length) return '';
    switch (op) {
      case '?':
      case '&':
        return op + parts.map((n) => `${n}=${encode(vals[n]!)}`).join('&');
      case '/':
      case '.':
        return parts.map((n) => op + encode(vals[n]!)).join('');
      case ';':
        return parts.map((n) => `;${n}=${encode(vals[n]!)}`).join('');
      case '#':
        return '#' + parts.map((n) => encode(vals[n]!)).join(',');
      default:
        return parts.map((n) => encode(vals[n]!)).join(',');
    }
  });
}

interface Update {
  at: number;
  uri: string;
  params: unknown;
}

export function ResourcesView({ server }: { server: ServerView | undefined }) {
  const resources = useServerList(server, api.resources, 'notifications/resources/list_changed');
  const templates = useServerList(server, api.templates, 'notifications/resources/list_changed');
  const [uri, setUri] = useState<string>();
  const [template, setTemplate] = useState<ResourceTemplate>();
  const [contents, setContents] = useState<ContentsView[]>();
  const [readError, setReadError] = useState<string>();
  const [reading, setReading] = useState(false);
  const [subscribed, setSubscribed] = useState<Set<string>>(new Set());
  const [updates, setUpdates] = useState<Update[]>([]);
  const [subError, setSubError] = useState<string>();

  useEffect(() => {
    setUri(undefined);
    setTemplate(undefined);
    setContents(undefined);
    setSubscribed(new Set());
    setUpdates([]);
  }, [server?.id]);

  const read = async (target = uri) => {
    if (!server || !target) return;
    setReading(true);
    setReadError(undefined);
    try {
      setContents((await api.read(server.id, target)).contents);
    } catch (e) {
      setContents(undefined);
      setReadError(errorText(e));
    } finally {
      setReading(false);
    }
  };

  useEvent('notification', (e) => {
    if (!server || e.serverId !== server.id || e.method !== 'notifications/resources/updated') return;
    const u = String(e.params?.uri ?? '');
    setUpdates((list) => [{ at: Date.now(), uri: u, params: e.params }, ...list].slice(0, 200));
    if (u && u === uri && contents) void read(u);
  });

  const toggleSubscribe = async () => {
    if (!server || !uri) return;
    setSubError(undefined);
    const on = subscribed.has(uri);
    try {
      if (on) await api.unsubscribe(server.id, uri);
      else await api.subscribe(server.id, uri);
      setSubscribed((s) => {
        const n = new Set(s);
        if (on) n.delete(uri);
        else n.add(uri);
        return n;
      });
    } catch (e) {
      setSubError(errorText(e));
    }
  };

  const select = (u: string) => {
    setUri(u);
    setTemplate(undefined);
    setContents(undefined);
    setReadError(undefined);
  };

  const resourcesCap = server?.capabilities?.resources;
  const canSubscribe = isObject(resourcesCap) && !!resourcesCap.subscribe;

  return (
    <div data-testid="resources-view" class="split">
      <aside class="sidebar">
        <div class="sidebar-head">
          <strong>Resources</strong>
          <button
            type="button"
            class="small"
            onClick={() => {
              resources.reload();
              templates.reload();
            }}
          >
            Refresh
          </button>
        </div>
        {!server && <p class="muted">Select a server.</p>}
        {resources.error && <p class="error">{resources.error}</p>}
        <ul class="items">
          {resources.data?.map((r) => (
            <li
              key={r.uri}
              data-testid={`resource-item-${r.uri}`}
              class={r.uri === uri && !template ? 'selected' : ''}
              onClick={() => select(r.uri)}
            >
              <strong>{r.title ?? r.name ?? r.uri}</strong>
              <div class="muted small-text">
                <code>{r.uri}</code>
                {r.mimeType && ` · ${r.mimeType}`}
              </div>
            </li>
          ))}
        </ul>
        {!!templates.data?.length && <div class="sidebar-head">Templates</div>}
        <ul class="items">
          {templates.data?.map((t) => (
            <li
              key={t.uriTemplate}
              data-testid={`template-item-${t.uriTemplate}`}
              class={template?.uriTemplate === t.uriTemplate ? 'selected' : ''}
              onClick={() => {
                setTemplate(t);
                setUri(undefined);
                setContents(undefined);
              }}
            >
              <strong>{t.title ?? t.name ?? t.uriTemplate}</strong>
              <div class="muted small-text">
                <code>{t.uriTemplate}</code>
              </div>
            </li>
          ))}
        </ul>
      </aside>
      <div class="detail">
        {template && server && (
          <TemplateForm
            key={template.uriTemplate}
            server={server}
            template={template}
            onUri={(u) => {
              setUri(u);
              void read(u);
            }}
          />
        )}
        {uri && (
          <div>
            <h2>
              <code>{uri}</code>
            </h2>
            <div class="buttons">
              <button type="button" data-testid="resource-read" disabled={reading} onClick={() => void read()}>
                Read
              </button>
              <button
                type="button"
                data-testid="resource-subscribe"
                data-subscribed={String(subscribed.has(uri))}
                title={canSubscribe ? '' : 'the server did not announce resources.subscribe'}
                onClick={() => void toggleSubscribe()}
              >
                {subscribed.has(uri) ? 'Unsubscribe' : 'Subscribe'}
              </button>
            </div>
            {subError && <p class="error">{subError}</p>}
          </div>
        )}
        {readError && (
          <div class="result error-result" data-testid="resource-content" data-error="true">
            {readError}
          </div>
        )}
        {contents && (
          <div class="result" data-testid="resource-content">
            {contents.map((c, i) => (
              <div key={i} class="resource-part">
                {contents.length > 1 || c.uri !== uri ? (
                  <div class="muted">
                    <code>{c.uri}</code> {c.mimeType}
                  </div>
                ) : (
                  c.mimeType && <div class="muted">{c.mimeType}</div>
                )}
                <ResourceBody c={c} />
              </div>
            ))}
          </div>
        )}
        <h3>Updates</h3>
        <ul class="updates" data-testid="resource-updates">
          {updates.map((u, i) => (
            <li key={`${u.at}-${i}`} data-uri={u.uri}>
              <span class="muted">{new Date(u.at).toLocaleTimeString()}</span> <code>{u.uri}</code>
            </li>
          ))}
        </ul>
        {!updates.length && <p class="muted">Subscribe to a resource to see updates here.</p>}
      </div>
    </div>
  );
}

function TemplateForm(p: { server: ServerView; template: ResourceTemplate; onUri: (u: string) => void }) {
  const vars = templateVars(p.template.uriTemplate);
  const [vals, setVals] = useState<Record<string, string>>({});
  const [opts, setOpts] = useState<Record<string, string[]>>({});
  const complete = (name: string, value: string) => {
    if (!p.server.capabilities?.completions) return;
    api
      .complete(p.server.id, { type: 'ref/resource', uri: p.template.uriTemplate }, { name, value })
      .then((c) => {
        setOpts((o) => ({ ...o, [name]: c.values.map(String) }));
      })
      .catch(() => undefined);
  };
  return (
    <form
      class="card"
      data-testid="template-form"
      onSubmit={(e) => {
        e.preventDefault();
        p.onUri(expandTemplate(p.template.uriTemplate, vals));
      }}
    >
      <h3>
        <code>{p.template.uriTemplate}</code>
      </h3>
      {p.template.description && <p class="desc">{p.template.description}</p>}
      {vars.map((v) => (
        <div class="field" key={v}>
          <label class="field-label">{v}</label>
          <input
            data-testid={`template-field-${v}`}
            list={`tpl-${v}`}
            value={vals[v] ?? ''}
            onFocus={() => complete(v, vals[v] ?? '')}
            onInput={(e) => {
              const x = (e.currentTarget as HTMLInputElement).value;
              setVals((o) => ({ ...o, [v]: x }));
              complete(v, x);
            }}
          />
          <datalist id={`tpl-${v}`}>
            {(opts[v] ?? []).map((o) => (
              <option key={o} value={o} />
            ))}
          </datalist>
        </div>
      ))}
      <div class="muted">
        → <code>{expandTemplate(p.template.uriTemplate, vals)}</code>
      </div>
      <button type="submit" data-testid="template-read">
        Read
      </button>
    </form>
  );
}
