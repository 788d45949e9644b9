// A progress bar on stderr for calls that report progress, only where a person watches a terminal.
import type { Progress } from '@mcpc/client';
import type { CliContext } from '../context.js';
import { safe } from '../output.js';
import { addStatus, removeStatus, statusAllowed, statusFree, type StatusLine } from './terminal.js';

export interface ProgressDisplay {
  readonly onProgress: ((progress: Progress) => void) | undefined;
  /** Clears the bar (call before printing the result). */
  done(): void;
}

/** Redraws at most this often (10 a second). */
const INTERVAL = 100;
const WIDTH = 24;

/** The bar's text for one progress report: `label [#####-----] 40% message`, or a counter without a total. */
export function progressText(label: string, progress: Progress, columns: number): string {
  const { total } = progress;
  const message = progress.message === undefined ? '' : ` ${safe(progress.message, 200).replace(/\s+/g, ' ')}`;
  let body: string;
  if (total !== undefined && Number.isFinite(total) && total > 0) {
    const ratio = Math.min(1, Math.max(0, progress.progress / total));
    const filled = Math.round(ratio * WIDTH);
    body = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}%`;
  } else {
    body = `${formatCount(progress.progress)}…`;
  }
  const text = `${safe(label, 60)} ${body}${message}`;
  const max = Math.max(10, columns - 1);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const formatCount = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** A progress display for one call (nothing when no one watches a terminal). */
export function progressFor(ctx: CliContext, label: string): ProgressDisplay {
  if (!statusAllowed(ctx)) return { onProgress: undefined, done: () => {} };
  const stderr = ctx.out.stderr as NodeJS.WritableStream & { columns?: number };
  let latest: Progress | undefined;
  let shown = false;
  let lastDraw = 0;
  let timer: NodeJS.Timeout | undefined;
  let finished = false;

  const line: StatusLine = {
    redraw() {
      if (finished || latest === undefined || !statusFree()) return;
      ctx.out.status(progressText(label, latest, stderr.columns ?? 80));
      shown = true;
      lastDraw = Date.now();
    },
    erase() {
      if (!shown) return;
      ctx.out.clearStatus();
      shown = false;
    },
  };
  addStatus(line);

  return {
    onProgress(progress) {
      if (finished) return;
      latest = progress;
      const wait = lastDraw + INTERVAL - Date.now();
      if (wait <= 0) {
        line.redraw();
      } else if (timer === undefined) {
        // Throttled: the newest report is drawn when the interval is up.
        timer = setTimeout(() => {
          timer = undefined;
          line.redraw();
        }, wait);
        timer.unref();
      }
    },
    done() {
      if (finished) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      line.erase();
      finished = true;
      removeStatus(line);
    },
  };
}
