// `--trace`'s picture: a run's finished spans as a tree, each with its start (from the first) and its duration.
import { safe } from '../output.js';

/** What the tree shows of a span (a `ReadableSpan`, reduced). */
export interface TreeSpan {
  readonly id: string;
  /** Undefined, or a span not in the list (a parent in another process): shown as a root. */
  readonly parentId: string | undefined;
  readonly name: string;
  /** Milliseconds since the epoch, fractional. */
  readonly startMs: number;
  readonly endMs: number;
  /** The failure (`error.type`, else the status message) when the span ended in error. */
  readonly error: string | undefined;
  readonly events: readonly TreeEvent[];
}

export interface TreeEvent {
  readonly name: string;
  readonly timeMs: number;
  /** Its attributes as `key=value` words. */
  readonly detail: string;
}

const NAME_CAP = 80;
const ms = (value: number): string => `${value.toFixed(1)} ms`;

interface Row {
  readonly label: string;
  readonly offset: string;
  readonly duration: string;
  readonly note: string;
}

/** The tree, one line per span and per event, columns aligned; children in the order they started. */
export function renderTree(spans: readonly TreeSpan[]): string[] {
  if (spans.length === 0) return [];
  const ids = new Set(spans.map((s) => s.id));
  const children = new Map<string | undefined, TreeSpan[]>();
  for (const s of spans) {
    const parent = s.parentId !== undefined && ids.has(s.parentId) ? s.parentId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  for (const list of children.values()) list.sort((a, b) => a.startMs - b.startMs);
  const origin = Math.min(...spans.map((s) => s.startMs));
  const rows: Row[] = [];
  const visit = (s: TreeSpan, lead: string, branch: string): void => {
    rows.push({
      label: `${branch}${safe(s.name, NAME_CAP)}`,
      offset: `+${ms(s.startMs - origin)}`,
      duration: ms(s.endMs - s.startMs),
      note: s.error === undefined ? '' : `error ${safe(s.error, 120)}`,
    });
    const below = children.get(s.id) ?? [];
    // An event sits under its span, before the children (a bar drawn down to them when there are any).
    for (const event of s.events)
      rows.push({
        label: `${lead}${below.length > 0 ? '│  ' : ''}· ${safe(event.name, NAME_CAP)}`,
        offset: `+${ms(event.timeMs - origin)}`,
        duration: '',
        note: safe(event.detail, 160),
      });
    below.forEach((child, i) => {
      const last = i === below.length - 1;
      visit(child, `${lead}${last ? '   ' : '│  '}`, `${lead}${last ? '└─ ' : '├─ '}`);
    });
  };
  for (const root of children.get(undefined) ?? []) visit(root, '', '');
  const width = (pick: (row: Row) => string): number => Math.max(...rows.map((row) => pick(row).length));
  const [label, offset, duration] = [width((r) => r.label), width((r) => r.offset), width((r) => r.duration)];
  return rows.map((row) =>
    `${row.label.padEnd(label)}  ${row.offset.padStart(offset)}  ${row.duration.padStart(duration)}  ${row.note}`.trimEnd(),
  );
}

/** Longest attribute value an event line shows. */
const VALUE_CAP = 60;

/**
 * An event's attributes as `key=value` words on one line: scalars, each cut short; no stack trace or exception
 * message (the span's error type says what failed; the tree is a picture of time, not a log).
 */
export function eventDetail(attributes: Readonly<Record<string, unknown>> | undefined): string {
  return Object.entries(attributes ?? {})
    .filter(([k, v]) => ['string', 'number', 'boolean'].includes(typeof v) && !HIDDEN.has(k))
    .map(([k, v]) => {
      const text = String(v).replace(/\s+/g, ' ');
      return `${k}=${text.length > VALUE_CAP ? `${text.slice(0, VALUE_CAP)}…` : text}`;
    })
    .join(' ');
}

const HIDDEN = new Set(['exception.stacktrace', 'exception.message']);
