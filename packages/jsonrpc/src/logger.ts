// The Logger contract, the stock loggers, and escaping peer strings before they reach a log.
/**
 * What mcpc logs through. `console` satisfies it, and so does a pino logger: every call passes one
 * preformatted string, so no logger's argument conventions matter.
 *
 * mcpc never logs payloads: only methods, ids and byte counts, and any string that came from the peer
 * goes through {@link escapeForLog} first.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Optional (pino has it): lets mcpc skip building lines nobody will see. */
  isLevelEnabled?(level: string): boolean;
}

const noop = (): void => {};

/** Discards everything. */
export const silentLogger: Logger = Object.freeze({
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  isLevelEnabled: () => false,
});

/** The default: warnings and errors to `console`, nothing below. A dropped message is never silent. */
export const warningsToConsole: Logger = Object.freeze({
  debug: noop,
  info: noop,
  warn: (m: string) => console.warn(m),
  error: (m: string) => console.error(m),
  isLevelEnabled: (level: string) => level === 'warn' || level === 'error',
});

/**
 * Call a logger without letting it break the caller: a logger that throws is the host's bug, and the
 * feature that was logging must go on.
 */
export function safeLog(logger: Logger, level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
  try {
    logger[level](message);
  } catch {
    // Nothing sensible to do with a failing logger but to stop it from failing the protocol.
  }
}

// C0 and C1 controls, DEL, the line and paragraph separators, every format character (bidi overrides and
// isolates, zero-width characters) and lone surrogates: all of them can forge, hide or reorder what a
// terminal or a log viewer shows. The same set as `escapePeerText`.
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/** Default cap for a peer string in a log line. */
export const DEFAULT_LOG_STRING_LIMIT = 200;

/**
 * Make a string from the peer safe for a log line: control and bidi characters become `\uXXXX`
 * escapes, and the result is capped at `limit` characters (counted before escaping) with a note of
 * what was cut.
 */
export function escapeForLog(value: string, limit: number = DEFAULT_LOG_STRING_LIMIT): string {
  const cut = value.length > limit ? value.slice(0, limit) : value;
  const escaped = cut.replace(UNSAFE, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return cut === value ? escaped : `${escaped}…(+${value.length - limit} chars)`;
}

/** `escapeForLog` for a value of unknown type: strings and numbers escaped, anything else named by type. */
export function describeForLog(value: unknown, limit?: number): string {
  if (typeof value === 'string') return `"${escapeForLog(value, limit).replace(/"/g, '\\"')}"`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return Array.isArray(value) ? '[array]' : `[${typeof value}]`;
}
