// The Timeline view's decisions, without a DOM: spans kept, grouped per call (trace), nested, laid out in time.
import type { SpanEventView, SpanView } from '../../contract/api.js';

/** One span in a call's list: its depth under the call's top spans. */
export interface Row {
  span: SpanView;
  depth: number;
}

/** One call: the spans of one trace, as rows in tree order, and the time they cover. */
export interface CallTimeline {
  traceId: string;
  /** The span with no parent: the playground's own (`playground call …`, `playground connect`), or a request made
   * outside any (the client's own); absent when the page no longer holds it. */
  root?: SpanView;
  title: string;
  startMs: number;
  endMs: number;
  /** A span is still open: the call is in flight. */
  open: boolean;
  /** The call's `error.type` (its own span's, else the first failed span's). */
  error?: string;
  rows: Row[];
}

/**
 * The spans with `incoming` merged in, at most `max` (the oldest dropped). A span comes when it starts and again
 * when it ends, and a list fetched later may repeat its start: an ended span is never put back to open.
 */
export function mergeSpans(
  spans: ReadonlyMap<string, SpanView>,
  incoming: readonly SpanView[],
  max: number,
): Map<string, SpanView> {
  const next = new Map(spans);
  for (const span of incoming) {
    if (next.get(span.spanId)?.durationMs !== undefined && span.durationMs === undefined) continue;
    next.delete(span.spanId);
    next.set(span.spanId, span);
  }
  for (const oldest of next.keys()) {
    if (next.size <= max) break;
    next.delete(oldest);
  }
  return next;
}

/** Where a span ends: its start plus its duration, or `now` while it is open. */
export const spanEnd = (span: SpanView, now: number): number =>
  span.durationMs === undefined ? Math.max(now, span.startMs) : span.startMs + span.durationMs;

/** The span's failure, as `error.type` says it (or its status message), when it failed. */
export function errorOf(span: SpanView): string | undefined {
  const type = span.attributes['error.type'];
  if (type !== undefined) return String(type);
  if (span.status === 'error') return span.statusMessage ?? 'error';
  return undefined;
}

const byStart = (a: SpanView, b: SpanView) => a.startMs - b.startMs || a.name.localeCompare(b.name);

/** The spans as rows: each under its parent (a span whose parent is not here is a top row), siblings by start. */
export function treeRows(spans: readonly SpanView[]): Row[] {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string | undefined, SpanView[]>();
  for (const span of spans) {
    const parent = span.parentSpanId !== undefined && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    const list = children.get(parent) ?? [];
    list.push(span);
    children.set(parent, list);
  }
  const rows: Row[] = [];
  const seen = new Set<string>();
  const visit = (parent: string | undefined, depth: number) => {
    for (const span of (children.get(parent) ?? []).sort(byStart)) {
      if (seen.has(span.spanId)) continue; // a span naming itself (or a loop) as parent: shown once
      seen.add(span.spanId);
      rows.push({ span, depth });
      visit(span.spanId, depth + 1);
    }
  };
  visit(undefined, 0);
  // Spans in a parent loop with no way in from the top: shown at the top rather than lost.
  for (const span of spans) if (!seen.has(span.spanId)) rows.push({ span, depth: 0 });
  return rows;
}

/** The calls, newest first: the spans grouped by trace, each group a tree. */
export function buildCalls(spans: Iterable<SpanView>, now: number): CallTimeline[] {
  const traces = new Map<string, SpanView[]>();
  for (const span of spans) {
    const list = traces.get(span.traceId) ?? [];
    list.push(span);
    traces.set(span.traceId, list);
  }
  const calls: CallTimeline[] = [];
  for (const [traceId, list] of traces) {
    const rows = treeRows(list);
    const root = list.find((s) => s.parentSpanId === undefined);
    const top = root ?? rows[0]?.span;
    const failed =
      root !== undefined && errorOf(root) !== undefined ? root : list.find((s) => errorOf(s) !== undefined);
    const error = failed && errorOf(failed);
    calls.push({
      traceId,
      ...(root !== undefined && { root }),
      title: (top?.name ?? traceId).replace(/^playground /, ''),
      startMs: Math.min(...list.map((s) => s.startMs)),
      endMs: Math.max(...list.map((s) => spanEnd(s, now))),
      // Every span is sent as it starts: a call in flight has an open span (its own, at least).
      open: list.some((s) => s.durationMs === undefined),
      ...(error !== undefined && { error }),
      rows,
    });
  }
  return calls.sort((a, b) => b.startMs - a.startMs);
}

/** The narrowest bar, in percent of the track: a 0.1 ms request among seconds still shows. */
const MIN_WIDTH = 0.4;

/** A bar's place in its call's track, in percent: offset by its start, as wide as its duration (never invisible). */
export function barLayout(span: SpanView, call: CallTimeline, now: number): { left: number; width: number } {
  const total = Math.max(call.endMs - call.startMs, 0.001);
  const left = clamp(((span.startMs - call.startMs) / total) * 100, 0, 100 - MIN_WIDTH);
  const width = clamp(((spanEnd(span, now) - span.startMs) / total) * 100, MIN_WIDTH, 100 - left);
  return { left: round(left), width: round(width) };
}

/** Where an event sits in its call's track, in percent. */
export function markLeft(event: SpanEventView, call: CallTimeline): number {
  const total = Math.max(call.endMs - call.startMs, 0.001);
  return round(clamp(((event.atMs - call.startMs) / total) * 100, 0, 100));
}

/** An event as its mark is labelled: progress with its count, a task status, an input round, the answer, else its name. */
export function markLabel(event: SpanEventView): string {
  const a = event.attributes;
  switch (event.name) {
    case 'progress':
      return a['mcp.progress.total'] === undefined
        ? `progress ${String(a['mcp.progress'] ?? '')}`.trim()
        : `progress ${String(a['mcp.progress'])}/${String(a['mcp.progress.total'])}`;
    case 'task status':
      return `task ${String(a['mcp.task.status'] ?? '')}`.trim();
    case 'input request':
      return `input requested${a['playground.input.kind'] === undefined ? '' : `: ${String(a['playground.input.kind'])}`}`;
    case 'input answered':
      return `input answered${a['playground.input.action'] === undefined ? '' : `: ${String(a['playground.input.action'])}`}`;
    case 'answer':
      return `answer${a['playground.answer'] === undefined ? '' : `: ${String(a['playground.answer'])}`}`;
    case 'exception':
      return `exception${a['exception.type'] === undefined ? '' : ` ${String(a['exception.type'])}`}`;
    default:
      return event.name;
  }
}

/** What a mark is drawn as: the kind of event (CSS class). */
export function markKind(event: SpanEventView): 'progress' | 'task' | 'input' | 'answer' | 'error' | 'other' {
  if (event.name === 'progress') return 'progress';
  if (event.name === 'answer') return 'answer';
  if (event.name.startsWith('task')) return 'task';
  if (event.name.startsWith('input')) return 'input';
  if (event.name === 'exception') return 'error';
  return 'other';
}

/** A duration in milliseconds, to a precision that fits it: `0 ms`, `0.42 ms`, `6.7 ms`, `123 ms`, `1376 ms`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '…';
  if (ms === 0) return '0 ms';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

/** Tick values (ms from the call's start) for an axis `total` ms long: steps of 1, 2 or 5 × 10ⁿ, about `count`. */
export function axisTicks(total: number, count = 4): number[] {
  if (!(total > 0)) return [0];
  const raw = total / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const ticks: number[] = [];
  for (let t = 0; t <= total + step * 1e-9 && ticks.length <= count * 3; t += step) ticks.push(round(t));
  return ticks;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
