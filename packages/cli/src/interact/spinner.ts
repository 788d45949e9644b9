// A spinner on stderr while something slow runs, only where a person watches a terminal.
import type { CliContext } from '../context.js';
import { safe } from '../output.js';
import { addStatus, removeStatus, statusAllowed, statusFree, type StatusLine } from './terminal.js';

/** Shown only when the work takes longer than this. */
const DELAY = 300;
const FRAME = 80;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Runs `work`, showing `text` with a spinner on a terminal after a short delay. */
export async function withSpinner<T>(ctx: CliContext, text: string, work: Promise<T>): Promise<T> {
  if (!statusAllowed(ctx)) return work;
  const label = safe(text, 200);
  let frame = 0;
  let shown = false;
  let ticker: NodeJS.Timeout | undefined;
  const line: StatusLine = {
    redraw() {
      if (ticker === undefined || !statusFree()) return;
      ctx.out.status(`${FRAMES[frame % FRAMES.length]} ${label}`);
      shown = true;
    },
    erase() {
      if (!shown) return;
      ctx.out.clearStatus();
      shown = false;
    },
  };
  const delay = setTimeout(() => {
    addStatus(line);
    ticker = setInterval(() => {
      frame++;
      line.redraw();
    }, FRAME);
    ticker.unref();
    line.redraw();
  }, DELAY);
  delay.unref();
  try {
    return await work;
  } finally {
    clearTimeout(delay);
    if (ticker !== undefined) clearInterval(ticker);
    line.erase();
    ticker = undefined;
    removeStatus(line);
  }
}
