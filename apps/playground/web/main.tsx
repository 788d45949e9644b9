// The page's shell: server list state, server selector, theme, tabs (mounted on first visit, then kept), dialogs.
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, connectEvents, errorText, streamOpen, token, type ServerView } from './api.js';
import { Dialogs, type Dialog } from './views/dialogs.js';
import { useEvent } from './views/hooks.js';
import { NetworkView } from './views/network.js';
import { OAuthView } from './views/oauth.js';
import { PromptsView } from './views/prompts.js';
import { ProtocolView } from './views/protocol.js';
import { ResourcesView } from './views/resources.js';
import { ServersView } from './views/servers.js';
import { TimelineView } from './views/timeline.js';
import { SkillsView } from './views/skills.js';
import { TasksView } from './views/tasks.js';
import { ToolsView } from './views/tools.js';
import { LogsView } from './views/logs.js';
import { RootsView } from './views/roots.js';
import { applyTheme, storedTheme, THEME_CHOICES, type ThemeChoice } from './theme.js';

const TABS = [
  'servers',
  'tools',
  'prompts',
  'resources',
  'skills',
  'tasks',
  'logs',
  'roots',
  'protocol',
  'network',
  'timeline',
  'oauth',
] as const;
/** What each tab reads as (CSS capitalising "oauth" made it "Oauth"). */
const TAB_LABELS: Readonly<Record<(typeof TABS)[number], string>> = {
  servers: 'Servers',
  tools: 'Tools',
  prompts: 'Prompts',
  resources: 'Resources',
  skills: 'Skills',
  tasks: 'Tasks',
  logs: 'Logs',
  roots: 'Roots',
  protocol: 'Protocol',
  network: 'Network',
  timeline: 'Timeline',
  oauth: 'OAuth',
};
type Tab = (typeof TABS)[number];

function initialTab(): Tab {
  const m = /(?:^#|&)tab=([a-z]+)/.exec(location.hash);
  return m && (TABS as readonly string[]).includes(m[1]!) ? (m[1] as Tab) : 'servers';
}

function App() {
  const [servers, setServers] = useState<ServerView[]>([]);
  const [selected, setSelected] = useState<string>();
  const [tab, setTab] = useState<Tab>(initialTab);
  const [visited, setVisited] = useState<Set<Tab>>(() => new Set([initialTab()]));
  const [dialogs, setDialogs] = useState<Dialog[]>([]);
  const [error, setError] = useState<string>();
  const [stream, setStream] = useState(streamOpen);
  const [theme, setTheme] = useState<ThemeChoice>(storedTheme);

  // Once the event stream has sent its list, the stream alone orders what the page knows of the servers: a GET
  // answered after a later event would put back a stale state (a server shown `connecting` for good).
  const fromStream = useRef(false);

  useEffect(() => {
    api
      .servers()
      .then((list) => {
        if (!fromStream.current) setServers(list);
        setError(undefined);
      })
      .catch((e) => setError(errorText(e)));
    connectEvents();
  }, []);

  useEvent('stream', (e) => setStream(e.state === 'open'));
  useEvent('servers', (e) => {
    fromStream.current = true;
    setServers(e.servers);
    setError(undefined);
  });
  useEvent('server', (e) =>
    setServers((list) => {
      const i = list.findIndex((s) => s.id === e.server.id);
      if (i < 0) return [...list, e.server];
      const next = list.slice();
      next[i] = e.server;
      return next;
    }),
  );
  useEvent('server-removed', (e) => setServers((list) => list.filter((s) => s.id !== e.id)));
  useEvent('elicitation', (e) =>
    setDialogs((d) => [...d, { kind: 'elicitation', dialogId: e.dialogId, serverId: e.serverId, request: e.request }]),
  );
  useEvent('sampling', (e) =>
    setDialogs((d) => [...d, { kind: 'sampling', dialogId: e.dialogId, serverId: e.serverId, request: e.request }]),
  );
  useEvent('dialog-closed', (e) => setDialogs((d) => d.filter((x) => x.dialogId !== e.dialogId)));

  // Keep a valid selection: the chosen server if it still exists, else the first connected one.
  useEffect(() => {
    if (selected && servers.some((s) => s.id === selected)) return;
    const pick = servers.find((s) => s.state === 'connected') ?? servers[0];
    setSelected(pick?.id);
  }, [servers, selected]);

  const server = servers.find((s) => s.id === selected);
  const go = (t: Tab) => {
    setTab(t);
    setVisited((v) => (v.has(t) ? v : new Set(v).add(t)));
  };

  const views: Record<Tab, () => preact.JSX.Element> = {
    servers: () => (
      <ServersView
        servers={servers}
        selected={selected}
        onSelect={(id) => {
          setSelected(id);
        }}
      />
    ),
    tools: () => <ToolsView server={server} />,
    prompts: () => <PromptsView server={server} />,
    resources: () => <ResourcesView server={server} />,
    skills: () => <SkillsView server={server} />,
    tasks: () => <TasksView server={server} />,
    logs: () => <LogsView server={server} />,
    roots: () => <RootsView />,
    protocol: () => <ProtocolView server={server} />,
    network: () => <NetworkView server={server} />,
    timeline: () => <TimelineView server={server} />,
    oauth: () => <OAuthView />,
  };

  return (
    <div class="app">
      <header class="top">
        <h1>mcpc playground</h1>
        <label class="server-select">
          <span>Server</span>
          <select
            data-testid="server-select"
            value={selected ?? ''}
            onChange={(e) => setSelected((e.currentTarget as HTMLSelectElement).value || undefined)}
          >
            {!servers.length && <option value="">(no servers)</option>}
            {servers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} — {s.state}
              </option>
            ))}
          </select>
        </label>
        {server && (
          <span class={`state state-${server.state}`} data-testid="selected-state">
            {server.state}
            {server.era ? ` · ${server.era}` : ''}
          </span>
        )}
        <label class="theme-select">
          <span>Theme</span>
          <select
            data-testid="theme-select"
            value={theme}
            onChange={(e) => {
              const next = (e.currentTarget as HTMLSelectElement).value as ThemeChoice;
              setTheme(next);
              applyTheme(next);
            }}
          >
            {THEME_CHOICES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <span
          class={`stream ${stream ? 'ok' : 'down'}`}
          data-testid="events-status"
          data-state={stream ? 'open' : 'closed'}
          title="live event stream"
        >
          {stream ? '● live' : '○ offline'}
        </span>
      </header>
      {!token && <div class="banner error">No token in the URL: open the link the playground printed.</div>}
      {error && <div class="banner error">{error}</div>}
      <nav class="tabs" role="tablist">
        {TABS.map((t) => (
          <button
            key={t}
            role="tab"
            aria-selected={tab === t}
            class={tab === t ? 'active' : ''}
            data-testid={`tab-${t}`}
            onClick={() => go(t)}
          >
            {TAB_LABELS[t]}
          </button>
        ))}
      </nav>
      <main>
        {TABS.filter((t) => visited.has(t)).map((t) => (
          <section key={t} class="view" hidden={tab !== t} role="tabpanel">
            {views[t]()}
          </section>
        ))}
      </main>
      <Dialogs
        dialogs={dialogs}
        servers={servers}
        onDone={(id) => setDialogs((d) => d.filter((x) => x.dialogId !== id))}
      />
    </div>
  );
}

// Before the first render, so the page never paints in the wrong theme.
applyTheme(storedTheme());
render(<App />, document.getElementById('app')!);
