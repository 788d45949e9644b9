// MCP App panel: a tool's ui:// resource fetched and rendered in a sandboxed iframe under its CSP, hosted by bridge.ts.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, errorText, type ToolView } from '../api.js';
import { THEME_EVENT } from '../theme.js';
import { appRequests } from './app-requests.js';
import { AppHostBridge, type JsonObject, type LogEntry } from './bridge.js';
import { buildCsp, injectCsp, type AppCsp } from './csp.js';
import { currentTheme, HOST_INFO, hostCapabilities, hostContext, MAX_HEIGHT } from './host-context.js';
import { APP_MIME_TYPE, isObj, keyOf, normalizeResult, short } from './panel-logic.js';

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

const MIN_HEIGHT = 24;
const INITIAL_HEIGHT = 160;
const MAX_LOG = 200;

type Phase = 'loading' | 'connecting' | 'ready' | 'closed' | 'error';

interface ShownEntry extends LogEntry {
  text: string;
}

interface Note {
  kind: 'message' | 'context';
  text: string;
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

    const requests = appRequests(serverId, aborter.signal);

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
        hostCapabilities: hostCapabilities(csp.approved as JsonObject),
        hostContext: () => hostContext(containerWidth(), latest.current.tool),
        log: addLog,
        handlers: {
          initialized: (info) => {
            if (!live) return;
            setPhase('ready');
            addLog({ dir: 'note', label: 'initialized', body: info });
          },
          ...requests,
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
