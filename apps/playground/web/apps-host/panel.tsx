// MCP App panel: a tool's ui:// resource fetched and rendered in a sandboxed iframe under its CSP, hosted by bridge.ts.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, callState, connectEvents, errorText, on, streamOpen, type CallState, type ToolView } from '../api.js';
import { AppHostBridge, RpcCode, RpcFailure, type JsonObject, type LogEntry } from './bridge.js';
import { buildCsp, injectCsp, type AppCsp } from './csp.js';
import { THEME_EVENT } from '../theme.js';

export interface AppPanelProps {
  serverId: string;
  /** The tool's `_meta.ui.resourceUri` (a `ui://` URI). */
  resourceUri: string;
  /** The arguments the tool was called with. */
  toolInput: unknown;
  /** The CallToolResult once it is there (or the `result` event / `{ error }`); `undefined` while running. */
  toolResult: unknown;
  /** The tool definition, when the caller has it (sent to the View as `hostContext.toolInfo`). */
  tool?: ToolView;
}

export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
const HOST_INFO = { name: 'mcpc-playground', version: '0.0.0' };
const MAX_HEIGHT = 800;
const MIN_HEIGHT = 24;
const INITIAL_HEIGHT = 160;
const MAX_LOG = 200;
const CALL_TIMEOUT_MS = 120_000;
const STREAM_WAIT_MS = 5_000;
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

type Phase = 'loading' | 'connecting' | 'ready' | 'closed' | 'error';

interface ShownEntry extends LogEntry {
  text: string;
}

interface Note {
  kind: 'message' | 'context';
  text: string;
}

/** The tool's UI resource URI per SEP-1865 (`_meta.ui.resourceUri`, or the deprecated flat `_meta["ui/resourceUri"]`). */
export function appResourceUri(tool: { _meta?: Record<string, unknown> } | undefined): string | undefined {
  const meta = tool?._meta;
  if (!meta || typeof meta !== 'object') return undefined;
  const ui = meta.ui as Record<string, unknown> | undefined;
  const uri = (ui && typeof ui === 'object' ? ui.resourceUri : undefined) ?? meta['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

function keyOf(v: unknown): string {
  if (v === undefined) return 'undefined';
  try {
    return JSON.stringify(v) ?? 'undefined';
  } catch {
    return String(Math.random());
  }
}

function short(v: unknown, max = 400): string {
  let s: string;
  try {
    s = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function isObj(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What the page has for the tool call, as the notification the View gets. */
function normalizeResult(v: unknown): { result: JsonObject } | { cancelled: string } | undefined {
  if (!isObj(v)) return undefined;
  const withContent = (r: JsonObject): JsonObject => (Array.isArray(r.content) ? r : { ...r, content: [] });
  if ('content' in v || 'structuredContent' in v) return { result: withContent(v) };
  if (isObj(v.result)) return { result: withContent(v.result) };
  if (isObj(v.error)) {
    const message = String(v.error.message ?? 'tool call failed');
    if (v.error.code === -32800 || /cancel/i.test(message)) return { cancelled: message };
    return { result: { content: [{ type: 'text', text: message }], isError: true } };
  }
  return undefined;
}

function currentTheme(): 'light' | 'dark' {
  const t = document.documentElement.dataset.theme;
  if (t === 'dark' || t === 'light') return t;
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const HOST_STYLES = {
  variables: {
    '--color-background-primary': 'light-dark(#ffffff, #1b1b1f)',
    '--color-background-secondary': 'light-dark(#f4f4f6, #24242a)',
    '--color-text-primary': 'light-dark(#1b1b1f, #ececf1)',
    '--color-text-secondary': 'light-dark(#55555f, #a9a9b5)',
    '--color-border-primary': 'light-dark(#d0d0d7, #3a3a44)',
    '--font-sans': 'system-ui, -apple-system, "Segoe UI", sans-serif',
    '--font-mono': 'ui-monospace, "SFMono-Regular", Menlo, monospace',
    '--border-radius-md': '6px',
  },
};

function fileName(uri: string, fallback: string): string {
  const last = uri.split(/[/:]/).filter(Boolean).pop() ?? '';
  const clean = last.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return clean || fallback;
}

function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Wait (bounded) for the page's event stream to be open, so a `result` event cannot slip past. */
async function ensureStream(): Promise<void> {
  connectEvents();
  if (streamOpen) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, STREAM_WAIT_MS);
    const off = on('stream', (e) => {
      if (e.state === 'open') done();
    });
    function done(): void {
      clearTimeout(timer);
      off();
      resolve();
    }
  });
}

/** The `result` event for one call (the api store catches it even when it arrives before POST /call answers). */
function waitForResult(callId: string, signal: AbortSignal): Promise<CallState> {
  return new Promise((resolve, reject) => {
    const finish = (fn: () => void): void => {
      clearTimeout(timer);
      off();
      signal.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = (): void => finish(() => reject(new RpcFailure(RpcCode.Denied, 'the app panel was closed')));
    const timer = setTimeout(
      () => finish(() => reject(new RpcFailure(RpcCode.Denied, `no result in ${CALL_TIMEOUT_MS / 1000} s`))),
      CALL_TIMEOUT_MS,
    );
    const off = on('result', (e) => {
      if (e.callId !== callId) return;
      const s: CallState = callState(callId) ?? { done: true };
      if (e.result !== undefined) s.result = e.result;
      if (e.error !== undefined) s.error = e.error;
      finish(() => resolve(s));
    });
    signal.addEventListener('abort', onAbort);
    const now = callState(callId);
    if (now?.done) finish(() => resolve(now));
  });
}

export function AppPanel({ serverId, resourceUri, toolInput, toolResult, tool }: AppPanelProps) {
  const [phase, setPhase] = useState<Phase>('loading');
  const [error, setError] = useState<string | undefined>(undefined);
  const [log, setLog] = useState<ShownEntry[]>([]);
  const [notes, setNotes] = useState<Note[]>([]);
  const [policy, setPolicy] = useState<{ text: string; approved: AppCsp; rejected: string[] } | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const hostRef = useRef<HTMLDivElement>(null);
  const bridgeRef = useRef<AppHostBridge | undefined>(undefined);
  const sentResult = useRef<string | undefined>(undefined);
  const seq = useRef(0);

  const inputKey = useMemo(() => keyOf(toolInput), [toolInput]);
  const resultKey = useMemo(() => keyOf(toolResult), [toolResult]);
  const latest = useRef({ toolInput, toolResult, resultKey, tool });
  latest.current = { toolInput, toolResult, resultKey, tool };

  /** Hand the result (once per View) to the bridge; a different result later restarts the View. */
  const deliverResult = (): void => {
    const bridge = bridgeRef.current;
    const { toolResult: value, resultKey: key } = latest.current;
    if (!bridge || value === undefined || value === null) return;
    if (sentResult.current === key) return;
    if (sentResult.current !== undefined) {
      setGeneration((g) => g + 1);
      return;
    }
    const n = normalizeResult(value);
    if (!n) return;
    sentResult.current = key;
    if ('cancelled' in n) bridge.sendToolCancelled(n.cancelled);
    else bridge.sendToolResult(n.result);
  };

  useEffect(() => {
    let live = true;
    const aborter = new AbortController();
    let frame: HTMLIFrameElement | undefined;
    let bridge: AppHostBridge | undefined;
    let resizeObserver: ResizeObserver | undefined;
    let resizeTimer: ReturnType<typeof setTimeout> | undefined;
    const onTheme = (): void => bridge?.sendHostContextChanged({ theme: currentTheme() });
    let toolsCache: ToolView[] | undefined;
    sentResult.current = undefined;
    setPhase('loading');
    setError(undefined);
    setLog([]);
    setNotes([]);
    setPolicy(undefined);

    const addLog = (e: Omit<LogEntry, 'seq' | 'at'>): void => {
      if (!live) return;
      const entry: ShownEntry = {
        ...e,
        seq: ++seq.current,
        at: Date.now(),
        text: e.body === undefined ? '' : short(e.body),
      };
      setLog((prev) => (prev.length >= MAX_LOG ? [...prev.slice(prev.length - MAX_LOG + 1), entry] : [...prev, entry]));
    };
    const addNote = (n: Note): void => {
      if (live) setNotes((prev) => [...prev.slice(-19), n]);
    };
    const fail = (message: string): void => {
      if (!live) return;
      setError(message);
      setPhase('error');
    };
    const close = (): void => {
      bridge?.dispose();
      frame?.remove();
      frame = undefined;
    };
    const containerWidth = (): number => Math.max(0, Math.round(hostRef.current?.clientWidth ?? 0));

    const visibleToApps = async (name: string): Promise<void> => {
      if (!toolsCache || !toolsCache.some((t) => t.name === name)) toolsCache = await api.tools(serverId);
      const t = toolsCache.find((x) => x.name === name);
      const ui = t?._meta?.ui as { visibility?: unknown } | undefined;
      if (Array.isArray(ui?.visibility) && !ui.visibility.includes('app')) {
        throw new RpcFailure(
          RpcCode.Denied,
          `tool "${name}" is not visible to apps (visibility ${JSON.stringify(ui.visibility)})`,
        );
      }
    };

    const download = async (contents: unknown[]): Promise<JsonObject> => {
      const files: { name: string; blob: Blob }[] = [];
      let total = 0;
      for (const [i, item] of contents.entries()) {
        if (!isObj(item)) throw new RpcFailure(RpcCode.InvalidParams, 'contents items must be objects');
        let res: JsonObject | undefined;
        if (item.type === 'resource' && isObj(item.resource)) res = item.resource;
        else if (item.type === 'resource_link' && typeof item.uri === 'string') {
          const read = await api.read(serverId, item.uri);
          res = read.contents[0] as unknown as JsonObject | undefined;
        }
        if (!res)
          throw new RpcFailure(RpcCode.InvalidParams, `contents[${i}]: not an embedded resource or resource link`);
        const mime = typeof res.mimeType === 'string' ? res.mimeType : 'application/octet-stream';
        let blob: Blob;
        if (typeof res.text === 'string') blob = new Blob([res.text], { type: mime });
        else if (typeof res.blob === 'string') blob = new Blob([base64ToBytes(res.blob)], { type: mime });
        else throw new RpcFailure(RpcCode.InvalidParams, `contents[${i}]: no text or blob`);
        total += blob.size;
        if (total > MAX_DOWNLOAD_BYTES) throw new RpcFailure(RpcCode.Denied, 'download too large');
        files.push({ name: fileName(String(res.uri ?? item.uri ?? ''), `download-${i + 1}`), blob });
      }
      const names = files.map((f) => `${f.name} (${f.blob.size} bytes)`).join('\n');
      if (!confirm(`The app wants to download ${files.length} file(s):\n${names}\n\nSave?`)) return { isError: true };
      for (const f of files) {
        const url = URL.createObjectURL(f.blob);
        const a = document.createElement('a');
        a.href = url;
        a.download = f.name;
        a.rel = 'noopener';
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      }
      return {};
    };

    void (async () => {
      let res;
      let sandboxOrigin: string;
      try {
        [res, { origin: sandboxOrigin }] = await Promise.all([api.ui(serverId, resourceUri), api.sandbox()]);
        if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(sandboxOrigin)) throw new Error('no sandbox origin');
      } catch (err) {
        fail(`could not load ${resourceUri}: ${errorText(err)}`);
        return;
      }
      if (!live) return;
      const mime = String(res?.mimeType ?? '')
        .replace(/\s+/g, '')
        .toLowerCase();
      if (typeof res?.html !== 'string' || !mime.startsWith('text/html')) {
        fail(`${resourceUri} is not an HTML app resource (mimeType ${JSON.stringify(res?.mimeType)})`);
        return;
      }
      const meta = isObj(res.meta) ? res.meta : {};
      const uiMeta = isObj(meta.ui) ? meta.ui : meta;
      const declared = res.csp ?? uiMeta.csp;
      const csp = buildCsp(declared);
      setPolicy({ text: csp.policy, approved: csp.approved, rejected: csp.rejected });
      if (mime !== APP_MIME_TYPE)
        addLog({ dir: 'note', label: `mimeType is ${res.mimeType}, expected ${APP_MIME_TYPE}` });
      addLog({ dir: 'note', label: 'CSP', body: csp.policy });
      if (csp.rejected.length > 0) addLog({ dir: 'note', label: 'CSP entries refused', body: csp.rejected });
      if (isObj(uiMeta.permissions) && Object.keys(uiMeta.permissions).length > 0) {
        addLog({ dir: 'note', label: 'permissions requested, none granted', body: uiMeta.permissions });
      }

      const host = hostRef.current;
      if (!host) return;
      const f = document.createElement('iframe');
      frame = f;
      // The spec's sandbox proxy for web hosts: a frame of another origin (the playground's second port), served
      // under the View's policy as a header; it holds the View in an inner allow-scripts frame (an opaque origin)
      // whose srcdoc inherits that policy, so nothing in the View's markup can move or drop it.
      f.setAttribute('sandbox', 'allow-scripts allow-same-origin');
      f.setAttribute('referrerpolicy', 'no-referrer');
      f.setAttribute('data-testid', 'app-frame');
      f.setAttribute('title', `MCP App ${resourceUri}`);
      f.style.width = '100%';
      f.style.height = `${INITIAL_HEIGHT}px`;
      f.style.display = 'block';
      f.style.border = uiMeta.prefersBorder === false ? '0' : '1px solid var(--border, #d0d0d7)';
      f.style.borderRadius = '6px';
      f.style.background = 'transparent';
      f.src = `${sandboxOrigin}/proxy?csp=${encodeURIComponent(csp.policy)}`;
      const html = injectCsp(res.html, csp.policy);

      let loads = 0;
      f.addEventListener('load', () => {
        if (++loads > 1 && live) {
          // A View may not navigate its frame elsewhere: the new document would run without this host's policy.
          addLog({ dir: 'note', label: 'the app navigated its frame away; closed' });
          close();
          fail('The app navigated its frame away from the resource, so it was closed.');
        }
      });

      const b = new AppHostBridge({
        frame: f,
        origin: sandboxOrigin,
        onSandbox: (method) => {
          if (method === 'ui/notifications/sandbox-proxy-ready') b.loadView(html, csp.approved as JsonObject);
          else if (live) {
            addLog({ dir: 'note', label: 'the app navigated its frame away; closed' });
            close();
            fail('The app navigated its frame away from the resource, so it was closed.');
          }
        },
        hostInfo: HOST_INFO,
        hostCapabilities: {
          openLinks: {},
          downloadFile: {},
          serverTools: {},
          serverResources: {},
          logging: {},
          message: { text: {} },
          updateModelContext: { text: {}, structuredContent: {} },
          sandbox: { permissions: {}, csp: csp.approved },
        },
        hostContext: () => {
          const ctx: JsonObject = {
            theme: currentTheme(),
            styles: HOST_STYLES,
            displayMode: 'inline',
            availableDisplayModes: ['inline'],
            // Width is fixed by the page's layout; height follows the View (size-changed) up to MAX_HEIGHT.
            containerDimensions:
              containerWidth() > 0 ? { width: containerWidth(), maxHeight: MAX_HEIGHT } : { maxHeight: MAX_HEIGHT },
            locale: navigator.language,
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
            userAgent: `${HOST_INFO.name}/${HOST_INFO.version}`,
            platform: 'web',
            deviceCapabilities: {
              touch: typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches,
              hover: typeof matchMedia === 'function' && matchMedia('(hover: hover)').matches,
            },
          };
          const t = latest.current.tool;
          if (t) ctx.toolInfo = { tool: t };
          return ctx;
        },
        log: addLog,
        handlers: {
          initialized: (info) => {
            if (!live) return;
            setPhase('ready');
            addLog({ dir: 'note', label: 'initialized', body: info });
          },
          callTool: async (name, args) => {
            await visibleToApps(name);
            await ensureStream();
            const { callId } = await api.call(serverId, name, args);
            let s: CallState;
            try {
              s = await waitForResult(callId, aborter.signal);
            } catch (err) {
              void api.cancelCall(callId).catch(() => undefined);
              throw err;
            }
            if (s.error) {
              const code = typeof s.error.code === 'number' ? s.error.code : RpcCode.InternalError;
              throw new RpcFailure(code, s.error.message);
            }
            const r = (s.result ?? {}) as JsonObject;
            return Array.isArray(r.content) ? r : { ...r, content: [] };
          },
          readResource: (uri) => api.read(serverId, uri),
          openLink: async (url) => {
            let parsed: URL;
            try {
              parsed = new URL(url);
            } catch {
              throw new RpcFailure(RpcCode.InvalidParams, 'Invalid URL');
            }
            if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
              throw new RpcFailure(RpcCode.Denied, `Policy violation: only http(s) links open (${parsed.protocol})`);
            }
            if (!confirm(`The app wants to open this link in a new tab:\n\n${parsed.href}\n\nOpen it?`)) {
              throw new RpcFailure(RpcCode.Denied, 'Link opening denied by user');
            }
            window.open(parsed.href, '_blank', 'noopener,noreferrer');
          },
          downloadFile: download,
          message: async (params) => {
            addNote({ kind: 'message', text: short(params.content, 2000) });
          },
          updateModelContext: async (params) => {
            addNote({
              kind: 'context',
              text: short({ content: params.content, structuredContent: params.structuredContent }, 2000),
            });
          },
          sizeChanged: ({ height }) => {
            // Width is fixed by the host (containerDimensions.width); height follows the View up to MAX_HEIGHT.
            if (height !== undefined && frame) {
              frame.style.height = `${Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(height)))}px`;
            }
          },
          requestTeardown: () => {
            void (async () => {
              await b.teardown('requested by the app');
              close();
              if (live) setPhase('closed');
            })();
          },
        },
      });
      bridge = b;
      bridgeRef.current = b;
      b.start();
      host.appendChild(f);
      setPhase('connecting');
      // Queued by the bridge until ui/notifications/initialized: the input first, then the result when it is there.
      b.sendToolInput(latest.current.toolInput);
      deliverResult();

      if (typeof ResizeObserver === 'function') {
        let lastWidth = containerWidth();
        resizeObserver = new ResizeObserver(() => {
          clearTimeout(resizeTimer);
          resizeTimer = setTimeout(() => {
            const w = containerWidth();
            if (w !== lastWidth && w > 0) {
              lastWidth = w;
              b.sendHostContextChanged({ containerDimensions: { width: w, maxHeight: MAX_HEIGHT } });
            }
          }, 150);
        });
        resizeObserver.observe(host);
      }
      window.addEventListener(THEME_EVENT, onTheme);
    })();

    return () => {
      live = false;
      aborter.abort();
      resizeObserver?.disconnect();
      clearTimeout(resizeTimer);
      window.removeEventListener(THEME_EVENT, onTheme);
      // The spec asks for ui/resource-teardown before the View goes; on unmount there is no time to wait for it.
      if (bridge) void bridge.teardown('closed by the host');
      close();
      if (bridgeRef.current === bridge) bridgeRef.current = undefined;
    };
  }, [serverId, resourceUri, inputKey, generation]);

  useEffect(deliverResult, [resultKey]);

  const reload = async (): Promise<void> => {
    const b = bridgeRef.current;
    if (b) await b.teardown('reloaded by the user');
    setGeneration((g) => g + 1);
  };

  return (
    <section class="app-panel" data-testid="app-panel" data-state={phase} style={{ marginTop: '0.75rem' }}>
      <div
        class="app-panel-head"
        style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', marginBottom: '0.25rem' }}
      >
        <strong>MCP App</strong>
        <code data-testid="app-uri">{resourceUri}</code>
        <span class="app-panel-state" data-testid="app-state">
          {phase}
        </span>
        <button type="button" data-testid="app-reload" onClick={() => void reload()}>
          Reload
        </button>
      </div>
      {error !== undefined && (
        <div class="app-panel-error error" data-testid="app-error" role="alert">
          {error}
        </div>
      )}
      {phase === 'closed' && <div data-testid="app-closed">The app was closed.</div>}
      <div class="app-frame-host" ref={hostRef} />
      {notes.length > 0 && (
        <ul class="app-notes" data-testid="app-notes">
          {notes.map((n, i) => (
            <li key={i}>
              <em>{n.kind === 'message' ? 'message from the app' : 'model context from the app'}:</em>{' '}
              <code>{n.text}</code>
            </li>
          ))}
        </ul>
      )}
      <details class="app-log" data-testid="app-log">
        <summary>App messages ({log.length})</summary>
        {policy && (
          <div data-testid="app-csp">
            CSP: <code>{policy.text}</code>
            {policy.rejected.length > 0 && <div>refused: {policy.rejected.join(', ')}</div>}
          </div>
        )}
        <ol style={{ maxHeight: '16rem', overflow: 'auto', fontFamily: 'monospace', fontSize: '12px' }}>
          {log.map((e) => (
            <li key={e.seq} data-testid="app-log-entry" data-dir={e.dir} data-label={e.label}>
              <span>{new Date(e.at).toISOString().slice(11, 23)}</span>{' '}
              <span>{e.dir === 'in' ? 'app → host' : e.dir === 'out' ? 'host → app' : 'note'}</span>{' '}
              <strong>{e.label}</strong> {e.text && <code>{e.text}</code>}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}
