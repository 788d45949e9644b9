// Where `mcpc` writes: results to stdout (JSON with --json, text otherwise), diagnostics to stderr, colour only on a TTY.
import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/** The streams and modes a command writes with. */
export interface OutputOptions {
  readonly json: boolean;
  /** 0: results and errors; 1 (`-v`): server stderr and connection steps; 2 (`-vv`): the protocol. */
  readonly verbose: number;
  readonly stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env?: NodeJS.ProcessEnv;
  /** `--no-color`. */
  readonly noColor?: boolean;
}

/** A command's output. Results go to stdout; everything said about them goes to stderr. */
export class Output {
  readonly json: boolean;
  readonly verbose: number;
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly #color: boolean;
  readonly #errColor: boolean;

  constructor(options: OutputOptions) {
    this.json = options.json;
    this.verbose = options.verbose;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    const env = options.env ?? process.env;
    // NO_COLOR (any non-empty value) and --no-color win; colour only where a person reads.
    const allowed = options.noColor !== true && !env.NO_COLOR && env.TERM !== 'dumb';
    this.#color = allowed && !this.json && this.stdout.isTTY === true;
    this.#errColor = allowed && this.stderr.isTTY === true;
  }

  /** Whether stdout is a terminal a person reads (no --json): progress bars, spinners and colour. */
  get tty(): boolean {
    return !this.json && this.stdout.isTTY === true;
  }

  /** A command's result: `value` as JSON with --json, else what `human` writes. */
  result<T>(value: T, human: (value: T) => void): void {
    if (this.json) this.line(JSON.stringify(value, null, 2));
    else human(value);
  }

  line(text = ''): void {
    this.stdout.write(`${text}\n`);
  }

  /** A diagnostic line on stderr (always shown). */
  note(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  /** A stderr line shown from `-v` on. */
  info(text: string): void {
    if (this.verbose >= 1) this.stderr.write(`${this.errStyle('dim', text)}\n`);
  }

  /** A stderr line shown from `-vv` on (the protocol). */
  debug(text: string): void {
    if (this.verbose >= 2) this.stderr.write(`${this.errStyle('dim', text)}\n`);
  }

  error(message: string, hint?: string): void {
    this.stderr.write(`${this.errStyle('red', 'error:')} ${message}\n`);
    if (hint !== undefined) this.stderr.write(`${this.errStyle('dim', `hint: ${hint}`)}\n`);
  }

  warn(message: string): void {
    this.stderr.write(`${this.errStyle('yellow', 'warning:')} ${message}\n`);
  }

  /** Styles text for stdout (plain when stdout is no colour terminal). */
  style(style: Style, text: string): string {
    return this.#color ? styleText(style, text) : text;
  }

  /** Styles text for stderr. */
  errStyle(style: Style, text: string): string {
    return this.#errColor ? styleText(style, text) : text;
  }
}

/** Text from a server, made safe for a terminal: control characters shown as escapes, not obeyed. */
export function safe(text: unknown, max = 2_000): string {
  const value = typeof text === 'string' ? text : text === undefined ? '' : JSON.stringify(text);
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  // eslint-disable-next-line no-control-regex -- the point is to find control characters
  return cut.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** One line of a description: its first line, cut to `max` characters. */
export function oneLine(text: string | undefined, max = 100): string {
  if (text === undefined) return '';
  const first = safe(text.split('\n', 1)[0] ?? '', max * 2).trim();
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}
