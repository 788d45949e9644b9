// OAuth debugger view: a run against an MCP URL walked step by step, each HTTP exchange and the rule it checks.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, on, type OAuthStep } from '../api.js';
import { StepItem } from './oauth-step.js';

type DPoPChoice = 'auto' | 'on' | 'off';

/* The run lives outside the component: steps that arrive while another tab is shown are kept. */
const store = {
  runId: undefined as string | undefined,
  steps: [] as OAuthStep[],
  form: { url: '', scope: '', clientId: '', clientSecret: '', dpop: 'auto' as DPoPChoice },
};
const listeners = new Set<() => void>();
const changed = () => {
  for (const fn of listeners) fn();
};
on('oauth-step', (e) => {
  if (e.runId !== store.runId) return;
  const step = e.step;
  store.steps = [...store.steps.filter((s) => s.index !== step.index), step].sort((a, b) => a.index - b.index);
  changed();
});

const lastStep = () => store.steps[store.steps.length - 1];
const isOver = () => {
  const last = lastStep();
  return last !== undefined && (last.final === true || !last.ok);
};

/** After `continue` answers, the step's event may still be on its way over the event stream: wait for it (bounded). */
async function waitForStep(after: number, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while ((lastStep()?.index ?? 0) <= after && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
}

export function OAuthView() {
  const [, setTick] = useState(0);
  const [busy, setBusy] = useState<'start' | 'next' | 'all' | undefined>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<Set<number>>(new Set());

  useEffect(() => {
    const fn = () => setTick((t) => t + 1);
    listeners.add(fn);
    return () => void listeners.delete(fn);
  }, []);

  // Default URL: the demo server's OAuth-protected endpoint, when the playground lists one.
  useEffect(() => {
    if (store.form.url) return;
    let live = true;
    api
      .servers()
      .then((list) => {
        const s = list.find((x) => x.kind === 'url' && /\/mcp-protected\/?$/.test(x.target));
        if (live && s && !store.form.url) {
          store.form.url = s.target;
          changed();
        }
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);

  const form = store.form;
  const set = (k: keyof typeof form, v: string) => {
    (form as Record<string, string>)[k] = v;
    changed();
  };
  const steps = store.steps;
  const last = lastStep();
  const over = isOver();
  const waiting = !over && last?.name === 'authorization' && last.ok;

  async function start() {
    setError(undefined);
    setBusy('start');
    try {
      const body: Parameters<typeof api.oauthRun>[0] & { dpop?: DPoPChoice } = {
        url: form.url.trim(),
        ...(form.scope.trim() ? { scope: form.scope.trim() } : {}),
        ...(form.clientId.trim() ? { clientId: form.clientId.trim() } : {}),
        ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
        dpop: form.dpop,
      };
      store.runId = undefined;
      store.steps = [];
      setOpen(new Set());
      changed();
      const { runId } = await api.oauthRun(body);
      store.runId = runId;
      changed();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(undefined);
    }
  }

  async function next(): Promise<boolean> {
    const runId = store.runId;
    if (!runId || isOver()) return false;
    const before = lastStep()?.index ?? 0;
    await api.oauthContinue(runId);
    await waitForStep(before);
    return store.runId === runId && !isOver();
  }

  async function step() {
    setError(undefined);
    setBusy('next');
    try {
      await next();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(undefined);
    }
  }

  async function runAll() {
    setError(undefined);
    setBusy('all');
    try {
      for (let i = 0; i < 12; i++) if (!(await next())) break;
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(undefined);
    }
  }

  const toggle = (index: number) =>
    setOpen((cur) => {
      const n = new Set(cur);
      if (n.has(index)) n.delete(index);
      else n.add(index);
      return n;
    });

  const canStep = !!store.runId && !over && !busy;

  return (
    <div data-testid="oauth-view">
      <div class="card">
        <h3>OAuth debugger</h3>
        <p class="muted small-text">
          Walks the MCP authorization flow (2026-07-28) one step at a time: the 401 challenge, protected resource
          metadata, authorization server metadata, registration, PKCE, the authorization in a new tab (redirected back
          to this playground's <code>/oauth/callback</code>), the <code>iss</code> check, the token, a call with it, and
          a refresh. Tokens, codes and secrets are shown as their first and last 4 characters.
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!busy) void start();
          }}
        >
          <div class="field">
            <label class="field-label" for="oauth-url">
              MCP server URL <span class="required">*</span>
            </label>
            <input
              id="oauth-url"
              data-testid="oauth-url"
              type="url"
              placeholder="http://127.0.0.1:PORT/mcp-protected"
              value={form.url}
              onInput={(e) => set('url', (e.currentTarget as HTMLInputElement).value)}
            />
          </div>
          <div class="headers">
            <div class="field">
              <label class="field-label" for="oauth-scope">
                Scope <span class="hint">optional; else the challenge's, else scopes_supported</span>
              </label>
              <input
                id="oauth-scope"
                data-testid="oauth-scope"
                placeholder="mcp"
                value={form.scope}
                onInput={(e) => set('scope', (e.currentTarget as HTMLInputElement).value)}
              />
            </div>
            <div class="field">
              <label class="field-label" for="oauth-dpop">
                DPoP <span class="hint">auto: when both the server and its authorization server offer it</span>
              </label>
              <select
                id="oauth-dpop"
                data-testid="oauth-dpop"
                value={form.dpop}
                onChange={(e) => set('dpop', (e.currentTarget as HTMLSelectElement).value)}
              >
                <option value="auto">auto</option>
                <option value="on">on</option>
                <option value="off">off (Bearer)</option>
              </select>
            </div>
            <div class="field">
              <label class="field-label" for="oauth-client-id">
                Client id <span class="hint">pre-registered; empty: CIMD / dynamic registration</span>
              </label>
              <input
                id="oauth-client-id"
                data-testid="oauth-client-id"
                value={form.clientId}
                onInput={(e) => set('clientId', (e.currentTarget as HTMLInputElement).value)}
              />
            </div>
            <div class="field">
              <label class="field-label" for="oauth-client-secret">
                Client secret <span class="hint">optional</span>
              </label>
              <input
                id="oauth-client-secret"
                data-testid="oauth-client-secret"
                type="password"
                autocomplete="off"
                value={form.clientSecret}
                onInput={(e) => set('clientSecret', (e.currentTarget as HTMLInputElement).value)}
              />
            </div>
          </div>
          <div class="buttons">
            <button type="submit" data-testid="oauth-start" disabled={!!busy || !form.url.trim()}>
              {busy === 'start' ? 'Starting…' : store.runId ? 'Start over' : 'Start'}
            </button>
            <button type="button" data-testid="oauth-next" disabled={!canStep} onClick={() => void step()}>
              {busy === 'next' ? (waiting ? 'Waiting for the redirect…' : 'Running…') : 'Next step'}
            </button>
            <button
              type="button"
              class="secondary"
              data-testid="oauth-run-all"
              disabled={!canStep}
              onClick={() => void runAll()}
            >
              {busy === 'all' ? (waiting ? 'Waiting for the redirect…' : 'Running…') : 'Run to the end'}
            </button>
            {store.runId && (
              <span class="muted small-text" data-testid="oauth-run-id">
                run {store.runId.slice(0, 8)}
                {over ? (last?.ok ? ' · finished' : ' · stopped') : ''}
              </span>
            )}
          </div>
        </form>
        {error && (
          <p class="error" data-testid="oauth-error">
            {error}
          </p>
        )}
        {store.runId && steps.length === 0 && (
          <p class="muted">Run started: press “Next step” (or “Run to the end”) for the first request.</p>
        )}
      </div>

      {steps.length > 0 && (
        <ol style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="oauth-steps">
          {steps.map((s) => (
            <StepItem
              key={s.index}
              step={s}
              open={open.has(s.index) || (!s.ok && !open.has(-s.index))}
              waiting={waiting && s === last}
              onToggle={() => (!s.ok ? toggleFailed(s.index) : toggle(s.index))}
            />
          ))}
        </ol>
      )}
    </div>
  );

  // A failed step starts open; clicking it closes it (remembered as -index).
  function toggleFailed(index: number) {
    setOpen((cur) => {
      const n = new Set(cur);
      if (n.has(-index)) n.delete(-index);
      else n.add(-index);
      return n;
    });
  }
}
