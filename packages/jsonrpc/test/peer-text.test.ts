// `escapePeerText`: control, bidi and format characters escaped, lengths capped without splitting pairs.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PEER_TEXT_LIMIT, escapePeerText } from '@mcpc/jsonrpc';

describe('escapePeerText', () => {
  it('escapes ESC (ANSI and OSC sequences), NUL, DEL and C1 controls as \\xNN', () => {
    expect(escapePeerText('\u001b[31mred\u001b]8;;http://x\u0007link\u0000\u007f\u009b')).toBe(
      '\\x1B[31mred\\x1B]8;;http://x\\x07link\\x00\\x7F\\x9B',
    );
  });

  it('escapes CR, LF and TAB so a peer cannot forge log lines', () => {
    expect(escapePeerText('ok\r\n[ERROR] forged\tline')).toBe('ok\\r\\n[ERROR] forged\\tline');
  });

  it('escapes bidi overrides and isolates, other format characters and the line separators', () => {
    expect(escapePeerText('a\u202eb\u2066c\u2069d\u200be\ufefff\u00adg\u2028h\u2029')).toBe(
      'a\\u202Eb\\u2066c\\u2069d\\u200Be\\uFEFFf\\xADg\\u2028h\\u2029',
    );
  });

  it('escapes lone surrogates and keeps well-formed pairs, non-Latin text and emoji', () => {
    expect(escapePeerText('x\ud800y\udc00z')).toBe('x\\uD800y\\uDC00z');
    expect(escapePeerText('Grüße 日本語 😀')).toBe('Grüße 日本語 😀');
  });

  it('caps the length, naming the original length, without splitting a surrogate pair', () => {
    const long = 'x'.repeat(10 * 1024 * 1024);
    const out = escapePeerText(long, 120);
    expect(out).toBe(`${'x'.repeat(120)}…(${long.length} chars)`);
    expect(escapePeerText('x'.repeat(DEFAULT_PEER_TEXT_LIMIT + 1))).toHaveLength(
      DEFAULT_PEER_TEXT_LIMIT + `…(${DEFAULT_PEER_TEXT_LIMIT + 1} chars)`.length,
    );
    expect(escapePeerText('ab😀c', 3)).toBe('ab…(5 chars)');
    expect(escapePeerText('short', 10)).toBe('short');
  });

  it('escapes a cap that lands inside an escape sequence without leaving a raw control character', () => {
    expect(escapePeerText('\u001b[2J\u001b[H', 1)).toBe('\\x1B…(7 chars)');
  });
});
