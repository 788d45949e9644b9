// The linear-time pattern matcher: agrees with RegExp, runs catastrophic patterns linearly, stops at its deadline.
import { RegExpParser } from '@eslint-community/regexpp';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NfaDeadline, NfaMatcher, NfaUnsupported } from '../src/pattern-nfa.js';

const parser = new RegExpParser({ ecmaVersion: 2024 });
const nfa = (source: string): NfaMatcher =>
  new NfaMatcher(parser.parsePattern(source, 0, source.length, { unicode: true }));

// Leaves that cover what the matcher must agree with V8 on: literals (ASCII, non-BMP, escaped), `.`,
// the class escapes, classes with ranges and negation, Unicode properties and code point escapes.
const leaf = fc.constantFrom(
  'a',
  'b',
  'A',
  '-',
  '_',
  ' ',
  '1',
  'é',
  '😀',
  '\\.',
  '.',
  '\\d',
  '\\D',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '\\uD83D\\uDE00',
  '\\uD800',
  '[ab]',
  '[^a]',
  '[a-c]',
  '[^\\w]',
  '[\\s\\d]',
  '\\p{Lu}',
  '\\p{L}',
  '\\P{L}',
  '[\\p{Ll}_]',
  '\\u{1F600}',
  '\\n',
  '[😀-😂]',
);
const assertion = fc.constantFrom('^', '$', '\\b', '\\B');
const quantifier = fc.constantFrom('*', '+', '?', '*?', '+?', '??', '{2}', '{0,2}', '{1,3}', '{2,}', '{0}', '{1,3}?');

const { pattern } = fc.letrec<{ pattern: string; term: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { weight: 5, arbitrary: leaf },
    { weight: 1, arbitrary: tie('pattern').map((p) => `(?:${p})`) },
    { weight: 1, arbitrary: tie('pattern').map((p) => `(${p})`) },
  ),
  term: fc.oneof(
    { weight: 4, arbitrary: tie('atom') },
    { weight: 3, arbitrary: fc.tuple(tie('atom'), quantifier).map(([a, q]) => a + q) },
    { weight: 1, arbitrary: assertion },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom('(?=', '(?!', '(?<=', '(?<!'), tie('pattern')).map(([o, p]) => `${o}${p})`),
    },
  ),
  pattern: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.array(tie('term'), { minLength: 0, maxLength: 4 }).map((t) => t.join('')),
    fc
      .tuple(fc.array(tie('term'), { maxLength: 3 }), fc.array(tie('term'), { maxLength: 3 }))
      .map(([a, b]) => `${a.join('')}|${b.join('')}`),
  ),
}));

// Short strings keep V8's own backtracking quick even on nested quantifiers. A lone surrogate and a
// line terminator are there for `.` and for `u`-mode reading by code point.
const input = fc
  .array(
    fc.constantFrom('a', 'b', 'A', '-', '_', ' ', '1', 'é', 'É', '😀', '😁', '\n', '\u2028', '\uD800', '\uDC00', '.'),
    { maxLength: 10 },
  )
  .map((c) => c.join(''));

const valid = (source: string): boolean => {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
};

describe('the linear-time pattern matcher', () => {
  it('answers exactly as RegExp.prototype.test in u mode, on generated patterns and strings', () => {
    fc.assert(
      fc.property(pattern.filter(valid), fc.array(input, { minLength: 1, maxLength: 8 }), (source, strings) => {
        const m = nfa(source);
        const re = new RegExp(source, 'u');
        for (const s of strings) expect(m.test(s), `/${source}/u on ${JSON.stringify(s)}`).toBe(re.test(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on the patterns tool schemas use', () => {
    const cases: [string, string[]][] = [
      ['^[a-z0-9]+(?:-[a-z0-9]+)*$', ['my-tool', 'a--b', '-a', 'a-', 'abc', '']],
      [
        '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$',
        ['1.2.3', '01.2.3', '1.2.3-rc.1', '1.2'],
      ],
      ['^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', ['a@b.c', 'a@b', 'a b@c.d']],
      [
        '^(?=.{1,253}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$',
        ['example.com', '-a.com', 'a.' + 'b'.repeat(260)],
      ],
      ['\\p{Lu}\\p{Ll}+', ['Élan', 'hello World', 'ABC', '']],
      ['^.$', ['🐲', 'ab', '\n', '']],
      ['\\bfoo\\b', ['a foo b', 'afoo', 'foo', 'foob']],
      ['a(?!b)', ['ab', 'ac', 'a']],
      [
        '^(?:(?!-)[A-Za-z0-9-]{1,63}(?<!-)\\.)+[A-Za-z]{2,63}$',
        ['example.com', 'a-b.example.org', '-a.com', 'a-.com', 'a😀.com'],
      ],
      ['(?<=^|[^\\w])@\\w+', ['@me', 'x@me', ' @me', '😀@me']],
      // V8 also tries the position between the halves of a surrogate pair, where `\B` holds.
      ['\\B', ['b😁_', 'ab', '']],
      ['^\\B', ['😁']],
    ];
    for (const [source, strings] of cases) {
      const m = nfa(source);
      for (const s of strings) expect(m.test(s), `${source} on ${s}`).toBe(new RegExp(source, 'u').test(s));
    }
  });

  it('decides catastrophic backtracking patterns in linear time', () => {
    const m = nfa('^(a+)+$');
    const evil = 'a'.repeat(100_000) + '!';
    const started = performance.now();
    expect(m.test(evil)).toBe(false);
    expect(m.test('a'.repeat(100_000))).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('stops when its step budget is spent', () => {
    // Lookaheads nested under counted repetitions: polynomial here, but far more work than the budget allows.
    const m = nfa('^(?:(?=(?:(?=(?:(?=a{1000})a){1000})a){1000})a)*$');
    expect(() => m.test('a'.repeat(3010), 100_000)).toThrow(NfaDeadline);
    expect(m.lastSteps).toBeGreaterThan(100_000);
  });

  it('refuses backreferences and expansions past its size limit', () => {
    for (const p of ['(a)\\1', '(?<=(a))\\1', '(?:a{1000}){1000}']) expect(() => nfa(p), p).toThrow(NfaUnsupported);
  });
});
