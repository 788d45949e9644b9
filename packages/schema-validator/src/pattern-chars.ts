// Character tests shared by the pattern matchers: one `u`-mode character against a class leaf, answered by V8.
//
// Why V8: a leaf's meaning (`\p{…}`, `.`, class ranges and escapes) is then exactly RegExp's, whatever the
// matcher built around it. Each leaf gets a one-character RegExp built from its own source; the answers are
// cached, ASCII in a table and the rest in a bounded map, so V8 is asked about each character once.

/** Cached non-ASCII answers per character test. */
const WIDE_CACHE_LIMIT = 256;

/** Does the code point belong to the leaf? Backed by V8's own RegExp for the leaf's source. */
export interface CharTest {
  readonly ascii: Uint8Array;
  readonly re: RegExp;
  readonly wide: Map<number, boolean>;
}

/** The test for a class leaf (`[a-z]`, `\d`, `.`, `\p{L}`), from its source as written in the pattern. */
export function charTest(raw: string): CharTest {
  const re = new RegExp(`^(?:${raw})$`, 'u');
  const ascii = new Uint8Array(128);
  for (let c = 0; c < 128; c++) ascii[c] = re.test(String.fromCharCode(c)) ? 1 : 0;
  return { ascii, re, wide: new Map() };
}

/** A literal character (no flags: no case folding) is itself and nothing else; no RegExp needed. */
export function literalTest(value: number): CharTest {
  const ascii = new Uint8Array(128);
  if (value < 128) ascii[value] = 1;
  // Answers for every other code point: `wide` is consulted first and holds the one that matches.
  return { ascii, re: NOTHING, wide: new Map([[value, true]]) };
}

const NOTHING = /(?!)/u;

/** Whether the code point `cp` (a lone surrogate is one of its own) passes the test. */
export function matches(t: CharTest, cp: number): boolean {
  if (cp < 128) return t.ascii[cp] === 1;
  let hit = t.wide.get(cp);
  if (hit === undefined) {
    hit = t.re.test(String.fromCodePoint(cp));
    if (t.wide.size < WIDE_CACHE_LIMIT) t.wide.set(cp, hit);
  }
  return hit;
}

/** `\w` without the `i` flag, which is what `\b` looks at in `u` mode. */
export function isWordChar(cp: number): boolean {
  return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x5f;
}
