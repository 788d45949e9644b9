// Timeline view: each call made to a server as its spans: bars offset by start, nested, timed, events marked.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, errorText, type ServerView, type SpanView } from '../api.js';
import { useEvent } from './hooks.js';
import {
  axisTicks,
  barLayout,
  buildCalls,
  errorOf,
  formatMs,
  markKind,
  markLabel,
  markLeft,
  mergeSpans,
  type CallTimeline,
  type Row,
} from './timeline-logic.js';

/** Spans kept (the server keeps as many ended ones) and calls drawn. */
const MAX_SPANS = 2000;
const MAX_CALLS = 60;
/** How often an open call's bars grow while it runs. */
const LIVE_MS = 250;

function clock(ms: number): string {
  const d = new Date(ms);
  return `${d.toLocaleTimeString([], { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function TimelineView({ server }: { server: ServerView | undefined }) {
  const [spans, setSpans] = useState<Map<string, SpanView>>(new Map());
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState('');
  const [tick, setTick] = useState(0);
  const [now, setNow] = useState(Date.now);
  const root = useRef<HTMLDivElement>(null);
  const id = server?.id;

  useEffect(() => {
    setSpans(new Map());
    if (!id) return;
    let live = true;
    api
      .timeline(id)
      .then((list) => {
        if (!live) return;
        setError(undefined);
        setNow(Date.now());
        setSpans((cur) => mergeSpans(cur, list, MAX_SPANS));
      })
      .catch((e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [id, tick]);

  useEvent('span', (e) => {
    if (e.serverId !== id) return;
    setNow(Date.now());
    setSpans((cur) => mergeSpans(cur, [e.span], MAX_SPANS));
  });

  const calls = useMemo(() => buildCalls(spans.values(), now), [spans, now]);
  const running = calls.some((c) => c.open);
  useEffect(() => {
    if (!running) return;
    // Only while the view is shown: a long-lived request (a subscription's stream) keeps a call open for good.
    const timer = setInterval(() => root.current?.offsetParent && setNow(Date.now()), LIVE_MS);
    return () => clearInterval(timer);
  }, [running]);

  const needle = filter.trim().toLowerCase();
  const shown = calls
    .filter((c) => !needle || c.rows.some((r) => r.span.name.toLowerCase().includes(needle)))
    .slice(0, MAX_CALLS);

  return (
    <div data-testid="timeline-view" ref={root}>
      <div class="toolbar">
        <input
          type="search"
          placeholder="filter by span name"
          data-testid="timeline-filter"
          value={filter}
          onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)}
        />
        <button type="button" class="small" onClick={() => setTick((t) => t + 1)}>
          Reload
        </button>
        <span class="muted">
          {calls.length} calls · {spans.size} spans
        </span>
      </div>
      {!server && <p class="muted">Select a server.</p>}
      {error && <p class="error">{error}</p>}
      {server && !calls.length && !error && (
        <p class="muted">No calls yet: each call made to {server.name} shows here, with the requests it took.</p>
      )}
      {shown.map((call) => (
        <CallView key={call.traceId} call={call} now={now} />
      ))}
    </div>
  );
}

function CallView({ call, now }: { call: CallTimeline; now: number }) {
  const state = call.open ? 'open' : call.error !== undefined ? 'error' : 'ok';
  const total = call.endMs - call.startMs;
  return (
    <section class={`tl-call tl-${state}`} data-testid="timeline-call" data-title={call.title} data-state={state}>
      <header class="tl-head">
        <span class="mono tl-title">{call.title}</span>
        <span class="muted">{clock(call.startMs)}</span>
        <span class="mono" data-testid="timeline-call-duration">
          {call.open ? `${formatMs(total)} …` : formatMs(total)}
        </span>
        {call.error !== undefined && (
          <span class="badge error" data-testid="timeline-call-error">
            {call.error}
          </span>
        )}
      </header>
      <div class="tl-row tl-axis" aria-hidden="true">
        <div />
        <div class="tl-track">
          {axisTicks(total).map((t) => (
            <span key={t} class="tl-tick" style={{ left: `${total > 0 ? (t / total) * 100 : 0}%` }}>
              {formatMs(t)}
            </span>
          ))}
        </div>
        <div />
      </div>
      {call.rows.map((row) => (
        <SpanRow key={row.span.spanId} row={row} call={call} now={now} />
      ))}
    </section>
  );
}

function SpanRow({ row, call, now }: { row: Row; call: CallTimeline; now: number }) {
  const [open, setOpen] = useState(false);
  const { span, depth } = row;
  const failure = errorOf(span);
  const { left, width } = barLayout(span, call, now);
  const barClass = `tl-bar kind-${span.kind}${failure !== undefined ? ' error' : ''}${span.durationMs === undefined ? ' running' : ''}`;
  return (
    <>
      <div
        class="tl-row clickable"
        data-testid="timeline-row"
        data-name={span.name}
        data-kind={span.kind}
        data-depth={depth}
        data-error={failure ?? ''}
        onClick={() => setOpen(!open)}
      >
        <div class="tl-label mono" style={{ paddingLeft: `${depth * 16 + 4}px` }} title={span.name}>
          <span class={`tl-kind kind-${span.kind}`}>{span.kind}</span>
          <span class="tl-name">{span.name}</span>
          {failure !== undefined && (
            <span class="badge error" data-testid="timeline-error">
              {failure}
            </span>
          )}
        </div>
        <div class="tl-track">
          <div class={barClass} data-testid="timeline-bar" style={{ left: `${left}%`, width: `${width}%` }} />
          {span.events.map((e, i) => (
            <span
              key={i}
              class={`tl-mark mark-${markKind(e)}`}
              data-testid="timeline-mark"
              data-event={e.name}
              style={{ left: `${markLeft(e, call)}%` }}
              title={`${markLabel(e)} · +${formatMs(e.atMs - call.startMs)}`}
            />
          ))}
        </div>
        <div class="tl-ms mono" data-testid="timeline-duration">
          {span.durationMs === undefined ? '…' : formatMs(span.durationMs)}
        </div>
      </div>
      {open && <SpanDetails span={span} call={call} />}
    </>
  );
}

/** A span's attributes and events (times from the call's start). */
function SpanDetails({ span, call }: { span: SpanView; call: CallTimeline }) {
  const attributes = Object.entries(span.attributes).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div class="tl-details" data-testid="timeline-details">
      <div class="muted small-text">
        +{formatMs(span.startMs - call.startMs)} · {span.durationMs === undefined ? 'open' : formatMs(span.durationMs)}{' '}
        · status {span.status}
        {span.statusMessage ? ` (${span.statusMessage})` : ''}
      </div>
      <dl class="mono small-text">
        {attributes.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{String(v)}</dd>
          </div>
        ))}
      </dl>
      {span.events.length > 0 && (
        <ol class="mono small-text tl-events">
          {span.events.map((e, i) => (
            <li key={i}>
              +{formatMs(e.atMs - call.startMs)} {markLabel(e)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
