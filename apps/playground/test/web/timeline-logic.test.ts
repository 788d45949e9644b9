// The Timeline view's decisions (web/views/timeline-logic.ts), without a DOM: merging, trees, calls, layout, labels.
import { describe, expect, it } from 'vitest';
import type { SpanView } from '../../contract/api.js';
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
  treeRows,
} from '../../web/views/timeline-logic.js';

const T0 = 1_800_000_000_000;

/** A span of trace `trace`, starting `at` ms after T0 and lasting `ms` (open when undefined). */
function span(
  spanId: string,
  name: string,
  at: number,
  ms: number | undefined,
  more: Partial<SpanView> & { trace?: string } = {},
): SpanView {
  const { trace = 't1', ...rest } = more;
  return {
    traceId: trace,
    spanId,
    name,
    kind: 'client',
    startMs: T0 + at,
    ...(ms !== undefined && { durationMs: ms }),
    status: 'unset',
    attributes: {},
    events: [],
    ...rest,
  };
}

/** A tool call as the playground records it: its own span, the client's two requests under it. */
const call = [
  span('root', 'playground call tools/call add', 0, 20, { kind: 'internal' }),
  span('list', 'tools/list', 1, 7.5, { parentSpanId: 'root' }),
  span('req', 'tools/call add', 10, 6.7, { parentSpanId: 'root' }),
];

describe('mergeSpans', () => {
  it('replaces a span’s start with its end, and never puts an ended span back to open', () => {
    const started = mergeSpans(new Map(), [span('a', 'x', 0, undefined)], 10);
    const ended = mergeSpans(started, [span('a', 'x', 0, 5)], 10);
    expect(ended.get('a')?.durationMs).toBe(5);
    const late = mergeSpans(ended, [span('a', 'x', 0, undefined)], 10);
    expect(late.get('a')?.durationMs).toBe(5);
    expect(started.get('a')?.durationMs).toBeUndefined(); // the map given is left as it was
  });

  it('keeps at most `max`, dropping the oldest', () => {
    const spans = mergeSpans(new Map(), [span('a', 'a', 0, 1), span('b', 'b', 1, 1), span('c', 'c', 2, 1)], 2);
    expect([...spans.keys()]).toEqual(['b', 'c']);
  });
});

describe('treeRows', () => {
  it('puts each span under its parent, siblings by start', () => {
    const rows = treeRows([call[2]!, call[0]!, call[1]!, span('deep', 'inner', 11, 1, { parentSpanId: 'req' })]);
    expect(rows.map((r) => `${r.depth}:${r.span.spanId}`)).toEqual(['0:root', '1:list', '1:req', '2:deep']);
  });

  it('shows a span whose parent is not here (a server’s span, a call in flight) as a top row', () => {
    const rows = treeRows([span('req', 'tools/call add', 10, 6, { parentSpanId: 'gone' }), span('x', 'x', 2, 1)]);
    expect(rows.map((r) => `${r.depth}:${r.span.spanId}`)).toEqual(['0:x', '0:req']);
  });

  it('shows spans in a parent loop once each', () => {
    const rows = treeRows([span('a', 'a', 0, 1, { parentSpanId: 'b' }), span('b', 'b', 1, 1, { parentSpanId: 'a' })]);
    expect(rows.map((r) => r.span.spanId).sort()).toEqual(['a', 'b']);
  });
});

describe('buildCalls', () => {
  it('groups spans by trace, newest call first, titled by the playground’s span', () => {
    const connect = [
      span('c', 'playground connect', -500, 300, { trace: 't0', kind: 'internal' }),
      span('d', 'server/discover', -490, 280, { trace: 't0', parentSpanId: 'c' }),
    ];
    const calls = buildCalls([...connect, ...call], T0 + 100);
    expect(calls.map((c) => [c.title, c.rows.length, c.open])).toEqual([
      ['call tools/call add', 3, false],
      ['connect', 2, false],
    ]);
    expect(calls[0]).toMatchObject({ startMs: T0, endMs: T0 + 20, root: call[0] });
  });

  it('shows a call in flight (its own span not ended yet) up to now', () => {
    const [c] = buildCalls([call[1]!, span('root', 'playground call tools/call add', 0, undefined)], T0 + 50);
    expect(c).toMatchObject({ open: true, title: 'call tools/call add', endMs: T0 + 50 });
    // Its own span dropped (the oldest go first): titled by the first span left, ended as they are.
    const [orphans] = buildCalls([call[1]!, call[2]!], T0 + 50);
    expect(orphans).toMatchObject({ open: false, title: 'tools/list' });
    expect(orphans?.root).toBeUndefined();
  });

  it('takes the call’s error from its own span, else from the first span that failed', () => {
    const failedRequest = span('req', 'prompts/get x', 1, 3, {
      parentSpanId: 'root',
      status: 'error',
      attributes: { 'error.type': '-32602' },
    });
    const root = span('root', 'playground call prompts/get x', 0, 5, { kind: 'internal' });
    expect(buildCalls([root, failedRequest], T0)[0]?.error).toBe('-32602');
    const rootFailed = { ...root, status: 'error' as const, attributes: { 'error.type': 'MCPC_SERVER_ERROR' } };
    expect(buildCalls([rootFailed, failedRequest], T0)[0]?.error).toBe('MCPC_SERVER_ERROR');
    expect(buildCalls(call, T0)[0]?.error).toBeUndefined();
  });
});

describe('errorOf', () => {
  it('is error.type, else the status message of a failed span, else nothing', () => {
    expect(errorOf(span('a', 'a', 0, 1, { attributes: { 'error.type': 'tool_error' } }))).toBe('tool_error');
    expect(errorOf(span('a', 'a', 0, 1, { status: 'error', statusMessage: 'ABORT_ERR' }))).toBe('ABORT_ERR');
    expect(errorOf(span('a', 'a', 0, 1, { status: 'error' }))).toBe('error');
    expect(errorOf(span('a', 'a', 0, 1))).toBeUndefined();
  });
});

describe('layout', () => {
  const [c] = buildCalls(call, T0 + 20);

  it('offsets each bar by its start and sizes it by its duration, in percent of the call', () => {
    expect(barLayout(call[0]!, c!, T0)).toEqual({ left: 0, width: 100 });
    expect(barLayout(call[2]!, c!, T0)).toEqual({ left: 50, width: 33.5 });
  });

  it('never draws a bar too thin to see, nor past the end', () => {
    const tiny = span('tiny', 'ping', 20, 0.001);
    const { left, width } = barLayout(tiny, c!, T0);
    expect(width).toBe(0.4);
    expect(left + width).toBeLessThanOrEqual(100);
  });

  it('draws an open span up to now', () => {
    const [open] = buildCalls([span('o', 'tasks/get', 0, undefined)], T0 + 40);
    expect(barLayout(open!.rows[0]!.span, open!, T0 + 40)).toEqual({ left: 0, width: 100 });
  });

  it('places an event at its time in the call', () => {
    expect(markLeft({ name: 'progress', atMs: T0 + 5, attributes: {} }, c!)).toBe(25);
    expect(markLeft({ name: 'late', atMs: T0 + 99, attributes: {} }, c!)).toBe(100);
  });
});

describe('marks', () => {
  it.each([
    ['progress', { 'mcp.progress': 3, 'mcp.progress.total': 5 }, 'progress 3/5', 'progress'],
    ['progress', { 'mcp.progress': 3 }, 'progress 3', 'progress'],
    ['task status', { 'mcp.task.status': 'input_required' }, 'task input_required', 'task'],
    ['input request', { 'playground.input.kind': 'elicitation' }, 'input requested: elicitation', 'input'],
    ['input answered', { 'playground.input.action': 'accept' }, 'input answered: accept', 'input'],
    ['answer', { 'playground.answer': 'tool_error' }, 'answer: tool_error', 'answer'],
    ['exception', { 'exception.type': 'MCPC_TIMEOUT' }, 'exception MCPC_TIMEOUT', 'error'],
    ['something else', {}, 'something else', 'other'],
  ])('%s %j → %s', (name, attributes, label, kind) => {
    const event = { name, atMs: T0, attributes };
    expect(markLabel(event)).toBe(label);
    expect(markKind(event)).toBe(kind);
  });
});

describe('formatMs and axisTicks', () => {
  it.each([
    [0, '0 ms'],
    [0.4213, '0.42 ms'],
    [6.71, '6.7 ms'],
    [123.4, '123 ms'],
    [1376.2, '1376 ms'],
    [Number.NaN, '…'],
  ])('%s → %s', (ms, text) => {
    expect(formatMs(ms)).toBe(text);
  });

  it('steps by 1, 2 or 5 × 10ⁿ from 0 to the end', () => {
    expect(axisTicks(20)).toEqual([0, 5, 10, 15, 20]);
    expect(axisTicks(1376)).toEqual([0, 500, 1000]);
    expect(axisTicks(0.9)).toEqual([0, 0.5]);
    expect(axisTicks(0)).toEqual([0]);
  });
});
