// Where `mcpc` writes, and the one layer every line passes through.
//
// Results go to stdout (JSON with --json, text otherwise) and diagnostics to stderr; colour only on a TTY, and no
// control character but our own styling.
import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/**
 * Styling crosses the writers as tokens, not as escape sequences: `style()` turns each SGR sequence into
 * `\uE000<nonce><params>\uE001`, every writer escapes all control characters in what it is given (so a
 * server's ESC, OSC 52, OSC 8 or C1 byte arrives as text), then turns only its own tokens back into SGR.
 * The nonce is drawn per process; a server never sees our output, so it cannot forge one.
 */
const NONCE = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
const TOKEN = new RegExp(`\uE000${NONCE}([0-9;]{0,32})\uE001`, 'g');
// eslint-disable-next-line no-control-regex -- the SGR sequences styleText makes
const SGR = /\u001b\[([0-9;]{0,32})m/g;

/** Text with its SGR sequences as tokens (after its own control characters were escaped). */
const tokenize = (styled: string): string =>
  styled.replace(SGR, (_, params: string) => `\uE000${NONCE}${params}\uE001`);

/** What reaches a terminal: every control character escaped, then our own styling tokens as SGR again. */
export function terminalText(text: string): string {
  return neutralize(text).replace(TOKEN, (_, params: string) => `\u001b[${params}m`);
}

/**
 * JSON on stdout: JSON.stringify already escapes C0 controls; C1 controls (U+0080–U+009F, which terminals
 * may obey as CSI and OSC) and the bidirectional overrides pass through it raw, so they are escaped too.
 */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const JSON_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const jsonText = (text: string): string =>
  text.replace(JSON_UNSAFE, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);

/** Erases the status line (progress bar, spinner) before it is redrawn. */
const ERASE_LINE = '\r\u001b[2K';

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

  /** A line of the result on stdout (JSON text with --json). */
  line(text = ''): void {
    this.write(`${text}\n`);
  }

  /** Text on stdout as is, newlines included (generated code), through the same layer. */
  write(text: string): void {
    this.stdout.write(this.json ? jsonText(text) : terminalText(text));
  }

  /** A diagnostic line on stderr (always shown). */
  note(text: string): void {
    this.#err(`${text}\n`);
  }

  /** A stderr line shown from `-v` on. */
  info(text: string): void {
    if (this.verbose >= 1) this.#err(`${this.errStyle('dim', text)}\n`);
  }

  /** Text on stderr from `-v` on, as it came (a server's stderr, chunk by chunk). */
  infoChunk(text: string): void {
    if (this.verbose >= 1) this.#err(this.errStyle('dim', text));
  }

  /** A stderr line shown from `-vv` on (the protocol). */
  debug(text: string): void {
    if (this.verbose >= 2) this.#err(`${this.errStyle('dim', text)}\n`);
  }

  error(message: string, hint?: string): void {
    this.#err(`${this.errStyle('red', 'error:')} ${message}\n`);
    if (hint !== undefined) this.#err(`${this.errStyle('dim', `hint: ${hint}`)}\n`);
  }

  warn(message: string): void {
    this.#err(`${this.errStyle('yellow', 'warning:')} ${message}\n`);
  }

  /** Draws the status line (a progress bar, a spinner) over the last one. */
  status(text: string): void {
    this.stderr.write(`${ERASE_LINE}${terminalText(text)}`);
  }

  /** Erases the status line. */
  clearStatus(): void {
    this.stderr.write(ERASE_LINE);
  }

  #err(text: string): void {
    this.stderr.write(terminalText(text));
  }

  /** Styles text for stdout (plain when stdout is no colour terminal). */
  style(style: Style, text: string): string {
    return this.#color ? tokenize(styleText(style, neutralize(text))) : text;
  }

  /** Styles text for stderr. */
  errStyle(style: Style, text: string): string {
    return this.#errColor ? tokenize(styleText(style, neutralize(text))) : text;
  }
}

/** Text from a server, cut to `max` and made safe for a terminal: control characters shown as escapes, not obeyed. */
export function safe(text: unknown, max = 2_000): string {
  const value = typeof text === 'string' ? text : text === undefined ? '' : JSON.stringify(text);
  return neutralize(value.length > max ? `${value.slice(0, max)}…` : value);
}

/** Every control character but tab and newline (and the bidirectional overrides) as a visible escape. */
function neutralize(text: string): string {
  // eslint-disable-next-line no-control-regex -- the point is to find control characters
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => {
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
