// The terminal a person answers at: one line reader for prompts and the shell, and the status line they pause.
//
// The line reader is shared by both; the status line is the progress bar or the spinner.
import { createInterface, type AsyncCompleter, type Completer, type Interface } from 'node:readline';
import type { CliContext } from '../context.js';
import { terminalText } from '../output.js';

/** What one question got: a line, Ctrl-D (end of input), Ctrl-C, or an abort from elsewhere. */
export type Answer =
  | { readonly kind: 'line'; readonly line: string }
  | { readonly kind: 'eof' }
  | { readonly kind: 'interrupt' }
  | { readonly kind: 'abort' };

/** A readline over the context's stdin with its echo and prompts on stderr (stdout stays the result). */
export class LineReader {
  readonly rl: Interface;
  #closed = false;
  #asking: ((answer: Answer) => void) | undefined;
  /** What Ctrl-C does when no question is pending (the shell cancels the running call). */
  onIdleInterrupt: (() => void) | undefined;
  /** Serialises questions: one form at a time, even when two requests arrive together. */
  #queue: Promise<unknown> = Promise.resolve();
  /** Lines that came while nothing asked (typed ahead, or piped in): the next questions take them. */
  readonly #ahead: string[] = [];

  constructor(
    input: NodeJS.ReadableStream & { isTTY?: boolean },
    output: NodeJS.WritableStream,
    options: { completer?: Completer | AsyncCompleter; history?: string[]; historySize?: number } = {},
  ) {
    this.rl = createInterface({
      input,
      output,
      terminal: input.isTTY === true,
      ...(options.completer !== undefined && { completer: options.completer }),
      ...(options.history !== undefined && { history: options.history }),
      historySize: options.historySize ?? 0,
      removeHistoryDuplicates: true,
      tabSize: 4,
    });
    this.rl.on('line', (line: string) => {
      if (this.#ahead.length < 1_000) this.#ahead.push(line);
    });
    this.rl.on('close', () => {
      this.#closed = true;
      this.#asking?.({ kind: 'eof' });
    });
    this.rl.on('SIGINT', () => {
      if (this.#asking !== undefined) this.#asking({ kind: 'interrupt' });
      else this.onIdleInterrupt?.();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The history, newest first (the shell's lines only: answers to prompts are not kept). */
  get history(): readonly string[] {
    return [...((this.rl as unknown as { history?: string[] }).history ?? [])];
  }

  /**
   * Asks one line (`prompt` on the output); Ctrl-D, Ctrl-C and `signal` end it without a line. The answer
   * stays in the history only with `remember` (form answers may be private).
   */
  ask(prompt: string, signal?: AbortSignal, remember = false): Promise<Answer> {
    const next = this.#queue.then(async () => {
      const answer = await this.#ask(prompt, signal);
      if (!remember && answer.kind === 'line') {
        const history = (this.rl as unknown as { history?: string[] }).history;
        if (history !== undefined && history[0] === answer.line) history.shift();
      }
      return answer;
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #ask(prompt: string, signal?: AbortSignal): Promise<Answer> {
    const ahead = this.#ahead.shift();
    if (ahead !== undefined) {
      if (!this.rl.terminal) this.write(prompt);
      return Promise.resolve({ kind: 'line', line: ahead });
    }
    if (this.#closed) return Promise.resolve({ kind: 'eof' });
    if (signal?.aborted === true) return Promise.resolve({ kind: 'abort' });
    return new Promise<Answer>((resolve) => {
      const cancel = new AbortController();
      const finish = (answer: Answer): void => {
        if (this.#asking !== finish) return;
        this.#asking = undefined;
        signal?.removeEventListener('abort', onAbort);
        if (answer.kind !== 'line') {
          // The half-typed line stays on the screen (like a shell's ^C); readline then starts a new, empty line.
          if (answer.kind === 'interrupt' && this.rl.terminal) this.write('^C');
          cancel.abort();
        }
        resolve(answer);
      };
      const onAbort = (): void => finish({ kind: 'abort' });
      this.#asking = finish;
      signal?.addEventListener('abort', onAbort, { once: true });
      this.rl.question(prompt, { signal: cancel.signal }, (line) => finish({ kind: 'line', line }));
    });
  }

  /** Writes text where the prompts go (stderr). */
  write(text: string): void {
    if (!this.#closed) (this.rl as unknown as { output: NodeJS.WritableStream }).output.write(terminalText(text));
  }

  close(): void {
    if (!this.#closed) this.rl.close();
  }
}

/** The shell's reader, when one runs on this stdin: prompts from server requests reuse it. */
const shared = new WeakMap<object, LineReader>();

/** Makes `reader` the one prompts on `input` use (the shell, while it runs). */
export function shareReader(input: object, reader: LineReader | undefined): void {
  if (reader === undefined) shared.delete(input);
  else shared.set(input, reader);
}

/**
 * Runs `talk` with a line reader on ctx.stdin: the shell's when one runs, else a fresh one closed after
 * (which puts the terminal back in its normal mode). Status lines (bars, spinners) pause meanwhile.
 */
export async function withReader<T>(ctx: CliContext, talk: (reader: LineReader) => Promise<T>): Promise<T> {
  const resume = holdStatus();
  const existing = shared.get(ctx.stdin);
  const reader = existing ?? new LineReader(ctx.stdin, ctx.out.stderr);
  try {
    return await talk(reader);
  } finally {
    if (existing === undefined) reader.close();
    resume();
  }
}

// ── the status line ─────────────────────────────────────────────────────────────────────────────

/** A one-line display at the bottom of stderr (a progress bar, a spinner). */
export interface StatusLine {
  /** Draws the current state (skipped while a prompt holds the terminal). */
  redraw(): void;
  /** Erases it from the terminal (it may draw again later). */
  erase(): void;
}

const lines = new Set<StatusLine>();
let holds = 0;

/** Whether status lines may draw now (no prompt is asking). */
export const statusFree = (): boolean => holds === 0;

export function addStatus(line: StatusLine): void {
  lines.add(line);
}

export function removeStatus(line: StatusLine): void {
  lines.delete(line);
}

/** Erases every status line and keeps them off until the returned function is called. */
export function holdStatus(): () => void {
  for (const line of lines) line.erase();
  holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds--;
    if (holds === 0) for (const line of lines) line.redraw();
  };
}

/** Whether a status line may show at all: stderr is a terminal and the output is not JSON. */
export const statusAllowed = (ctx: CliContext): boolean => !ctx.out.json && ctx.out.stderr.isTTY === true;
