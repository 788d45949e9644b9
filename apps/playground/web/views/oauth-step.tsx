// One OAuth debugger step as the page shows it: its mark, detail and rule, what was decoded, and each HTTP exchange.
import type { OAuthExchange, OAuthStep } from '../api.js';
import { CopyButton } from './content.js';

export function StepItem({
  step,
  open,
  waiting,
  onToggle,
}: {
  step: OAuthStep;
  open: boolean;
  waiting: boolean;
  onToggle: () => void;
}) {
  const exchanges = step.exchanges ?? (step.exchange ? [step.exchange] : []);
  const authUrl = step.name === 'authorization' ? (step.info?.authorizationUrl as string | undefined) : undefined;
  return (
    <li data-testid="oauth-step" data-name={step.name} data-ok={String(step.ok)} data-index={step.index} class="card">
      <div
        class="clickable"
        style={{ display: 'flex', gap: '0.6em', alignItems: 'baseline', cursor: 'pointer' }}
        onClick={onToggle}
        role="button"
        aria-expanded={open}
      >
        <span
          class={`badge ${step.ok ? 'ok' : 'error'}`}
          data-testid="oauth-step-mark"
          aria-label={step.ok ? 'passed' : 'failed'}
        >
          {step.ok ? '✓' : '✗'}
        </span>
        <strong>
          {step.index}. {step.title ?? step.name}
        </strong>
        <span class="muted small-text mono">{step.name}</span>
        <span class="muted small-text" style={{ marginLeft: 'auto' }}>
          {exchanges.length > 0 ? `${exchanges.length} HTTP exchange${exchanges.length > 1 ? 's' : ''} · ` : ''}
          {open ? 'hide' : 'details'}
        </span>
      </div>
      <p class={step.ok ? '' : 'error'} data-testid="oauth-step-detail" style={{ wordBreak: 'break-word' }}>
        {step.detail}
      </p>
      {authUrl && (
        <p>
          <a
            data-testid="oauth-authorize-link"
            href={authUrl}
            target="_blank"
            rel="noopener noreferrer"
            style={{ fontWeight: 600 }}
          >
            Open the authorization page in a new tab ↗
          </a>
          {waiting && (
            <span class="muted small-text" data-testid="oauth-waiting">
              {' '}
              — waiting for the redirect to /oauth/callback
            </span>
          )}
        </p>
      )}
      {open && (
        <div data-testid="oauth-step-body">
          {step.rule && (
            <div class="small-text" data-testid="oauth-step-rule">
              <strong>Rule: </strong>
              {step.rule}
            </div>
          )}
          {step.info && Object.keys(step.info).length > 0 && (
            <details open={!step.ok}>
              <summary class="small-text">Parsed / decoded</summary>
              <pre class="mono small-text">{JSON.stringify(step.info, null, 2)}</pre>
            </details>
          )}
          {exchanges.map((x, i) => (
            <ExchangeView key={i} x={x} n={i + 1} of={exchanges.length} />
          ))}
        </div>
      )}
    </li>
  );
}

function Headers({ h }: { h: Record<string, string> | undefined }) {
  const rows = Object.entries(h ?? {});
  if (rows.length === 0) return <p class="muted small-text">(no headers)</p>;
  return (
    <dl class="mono small-text">
      {rows.map(([k, v]) => (
        <div
          key={k}
          class={/^(authorization|www-authenticate|dpop|dpop-nonce|location|mcp-)/i.test(k) ? 'key-header' : ''}
        >
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function ExchangeView({ x, n, of }: { x: OAuthExchange; n: number; of: number }) {
  const status = x.response?.status;
  return (
    <div data-testid="oauth-exchange" style={{ borderTop: '1px solid var(--line)', paddingTop: '0.5em' }}>
      <div style={{ display: 'flex', gap: '0.6em', alignItems: 'baseline', flexWrap: 'wrap' }}>
        {of > 1 && <span class="muted small-text">#{n}</span>}
        <span class="mono">
          <strong>{x.request.method}</strong> {x.request.url}
        </span>
        {status !== undefined && (
          <span class={`badge ${status >= 400 ? 'error' : 'ok'}`} data-testid="oauth-exchange-status">
            {status}
          </span>
        )}
        {x.error && <span class="error">{x.error}</span>}
        {x.durationMs !== undefined && <span class="muted small-text">{Math.round(x.durationMs)} ms</span>}
        <CopyButton text={() => JSON.stringify(x, null, 2)} />
      </div>
      <div class="headers">
        <div>
          <div class="small-text muted">Request</div>
          <Headers h={x.request.headers} />
          {x.request.body !== undefined && <pre class="mono small-text">{pretty(x.request.body)}</pre>}
        </div>
        <div>
          <div class="small-text muted">Response</div>
          {x.response ? (
            <>
              <Headers h={x.response.headers} />
              {x.response.body !== '' && <pre class="mono small-text">{pretty(x.response.body)}</pre>}
            </>
          ) : (
            <p class="muted small-text">(no response)</p>
          )}
        </div>
      </div>
    </div>
  );
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
