// Owns escapePeerText: the one way any @mcpc package turns text a peer sent into text safe to show.

/** Default cap for peer text in an error message or a log line. */
export const DEFAULT_PEER_TEXT_LIMIT = 200;

// Everything that can forge, hide or reorder what a terminal or log viewer shows: C0 and C1 controls
// (ESC starts ANSI/OSC sequences; CR and LF forge lines), DEL, every format character (Cf: bidi
// overrides and isolates, zero-width joiners, the BOM, soft hyphens …), the line and paragraph
// separators, and lone surrogates (which no terminal renders and which break UTF-8 encoders).
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

const hex = (code: number, width: number): string => code.toString(16).toUpperCase().padStart(width, '0');

function escapeChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  const code = c.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${hex(code, 2)}`;
  if (code <= 0xffff) return `\\u${hex(code, 4)}`;
  return `\\u{${hex(code, 1)}}`;
}

/**
 * Make text a peer sent (a server's error message, a banner it printed, a schema it published) safe to
 * put in an error message or a log line: control characters (ESC included) become `\xNN`, CR/LF/TAB
 * become `\r`/`\n`/`\t`, format characters (bidi overrides and isolates, zero-width characters), the
 * line/paragraph separators and lone surrogates become `\uNNNN`, and the result is capped at
 * `maxLength` characters of the original (default 200) with `…(N chars)` naming the original length.
 * Printable text, including non-Latin scripts and emoji, is kept as it is. Never throws.
 */
export function escapePeerText(text: string, maxLength: number = DEFAULT_PEER_TEXT_LIMIT): string {
  const value = typeof text === 'string' ? text : String(text);
  const limit = Number.isFinite(maxLength) && maxLength >= 0 ? Math.floor(maxLength) : DEFAULT_PEER_TEXT_LIMIT;
  let cut = value.length > limit ? value.slice(0, limit) : value;
  // Do not split a surrogate pair at the cap: that would turn a printable emoji into a lone surrogate.
  if (cut.length < value.length && /[\uD800-\uDBFF]$/.test(cut) && /^[\uDC00-\uDFFF]/.test(value.slice(cut.length))) {
    cut = cut.slice(0, -1);
  }
  const escaped = cut.replace(UNSAFE, escapeChar);
  return cut.length === value.length ? escaped : `${escaped}…(${value.length} chars)`;
}
