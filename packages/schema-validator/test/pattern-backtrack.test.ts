// The step-counted backtracking matcher against V8: the same answer as `new RegExp(source, 'u').test(input)`
// on hand-picked patterns for every construct and on 20,000 generated ones, a budget that is counted (the
// same verdict every time), and long inputs that do not overflow the stack.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePattern } from '../src/pattern-analysis.js';
import { BacktrackBudget, BacktrackMatcher } from '../src/pattern-backtrack.js';

const matcher = (source: string): BacktrackMatcher => new BacktrackMatcher(parsePattern(source)!);

const CASES: [string, string[]][] = [
  // backreferences: forward, named, to a group not set, inside quantifiers and lookarounds
  ['^(\\w+)(?:,\\s?\\1)*$', ['a,a', 'ab, ab,ab', 'a,b', '', 'x', 'ab,a']],
  ['(a)\\1', ['aa', 'ab', 'xaax']],
  ['(?<q>["\'])(.*?)\\k<q>', ['"x"', '\'x"', '"', "''"]],
  ['\\1(a)', ['a', '']],
  ['(a)|\\1b', ['b', 'ab']],
  ['^(?:(a)|b)\\1$', ['aa', 'b', 'ba', 'ab']],
  ['^(a*)*$', ['', 'a', 'aaa', 'b']],
  ['^(a*?)+?$', ['aa', '']],
  ['^(?:a|(b))+\\1$', ['abb', 'ab', 'aba', 'bab']],
  ['(a|ab)(c|bcd)(d*)', ['abcd', 'acd']],
  ['^(?:(a)|(b))+$', ['ab', 'ba', 'abab']],
  ['^(?:(a)|b\\1)+$', ['aba', 'ab', 'abb']],
  ['(z)((a+)?(b+)?(c))*', ['zaacbbbcac', 'z']],
  ['^(\\d+)\\s\\1$', ['12 12', '12 1', '1 12']],
  ['(.)\\1{2,}', ['aaa', 'aab', 'xbbbb']],
  // lookarounds, with captures and backreferences inside
  ['(?=(a+))a*b\\1', ['baaabac', 'aab', 'b']],
  ['(?=(a+))', ['baaabac']],
  ['(?<=(\\d+)(\\d+))$', ['1053', '1', '']],
  ['(?<=\\1(a))b', ['aab', 'ab', 'b']],
  ['(?<!a)b', ['ab', 'cb', 'b']],
  ['(?<=^|,)x', ['x', ',x', 'ax']],
  ['^(?!.*(.).*\\1).*$', ['abc', 'aba', '']],
  ['(?=a(?=b(?!c)))ab', ['abd', 'abc', 'ab']],
  ['(?<=(?<!x)a)b', ['ab', 'xab']],
  ['^(?=.*\\d)(?=.*[a-z])\\w{6,}$', ['abc123', 'abcdef', '123456', 'a1']],
  // assertions and classes
  ['\\bfoo\\b', ['foo', 'a foo b', 'foobar', 'barfoo']],
  ['\\Bo\\B', ['foo', 'o', 'oo']],
  ['^$', ['', 'a']],
  ['[^a-c]+$', ['abcx', 'abc']],
  ['^[\\p{L}]+$', ['héllo', 'hé1']],
  ['\\d{3}-\\d{4}', ['555-1234', '55-1234']],
  // astral characters and lone surrogates
  ['^.$', ['😀', 'a', '\ud83d', '😀😀']],
  ['^(.)\\1$', ['😀😀', '\ud83d\ud83d', '\ud83d\ude00\ud83d']],
  ['(?<=😀)x', ['😀x', 'x']],
  ['^\\ud83d', ['\ud83d', '😀']],
  ['[😀-😂]+', ['😁', 'a']],
  // lone surrogates against pairs: no character, run or backreference starts or ends mid-pair
  ['\\uDE00', ['\uD83D\uDE00']],
  ['\\uDE00+', ['\uD83D\uDE00', '\uDE00\uDE00']],
  ['[^😀]+', ['😀', 'x😀']],
  ['^(\\uD83D)\\1', ['\uD83D\uD83D\uDE00', '\uD83D\uD83D']],
  ['(?<=\\uDE00)$', ['\uD83D\uDE00', '\uDE00']],
  ['(?<=(.))\\1', ['\uD83D\uDE00\uDE00']],
  ['(.)(?<=\\1\\1)', ['\uDE00\uD83D\uDE00']],
  // large counted repetitions (never expanded)
  ['^(?:\\w|-|\\.){1,5000}$', ['a-b.c', '', 'a b', 'x'.repeat(5000), 'x'.repeat(5001)]],
  ['^a{2,3}$', ['a', 'aa', 'aaa', 'aaaa']],
  ['^(?:ab){0,2}c', ['c', 'abc', 'ababc', 'abababc']],
  ['^a{0}b', ['b', 'ab']],
  ['x{2,}?y', ['xxy', 'xy']],
  // lazy and greedy with what follows
  ['^(a+?)(a*)$', ['aaa']],
  ['^(.*?),(.*)$', ['a,b,c', 'abc']],
  ['<(.+?)>.*</\\1>', ['<b>x</b>', '<b>x</i>']],
  ['(a+)+$', ['aaaa', 'aaab']],
  ['^(?:a|aa)+$', ['aaaa', 'aaab']],
];

describe('the backtracking matcher gives V8 answers', () => {
  for (const [source, inputs] of CASES) {
    it(`/${source}/u`, () => {
      const m = matcher(source);
      const re = new RegExp(source, 'u');
      for (const input of inputs) expect(m.test(input, 1e9), JSON.stringify(input)).toBe(re.test(input));
    });
  }

  it('on 20,000 generated pattern and input pairs', () => {
    const atom: fc.Arbitrary<string> = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\w', '\\d', '😀', '\\uDE00');
    const pattern = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        atom,
        fc.tuple(tie('node'), tie('node')).map(([a, b]) => a + b),
        fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(?:${a}|${b})`),
        tie('node').map((a) => `(${a})`),
        tie('node').map((a) => `(?<n>${a})`),
        fc
          .tuple(tie('node'), fc.constantFrom('*', '+', '?', '{0,2}', '{1,3}', '*?', '+?', '??', '{2}'))
          .map(([a, q]) => `(?:${a})${q}`),
        fc.tuple(fc.constantFrom('(?=', '(?!', '(?<=', '(?<!'), tie('node')).map(([l, a]) => `${l}${a})`),
        fc.constantFrom('^', '$', '\\b', '\\B', '\\1', '\\2'),
      ),
    })).node;
    const input = fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', '😀', '\uD83D', '\uDE00'), maxLength: 8 });
    let checked = 0;
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 4 }), (source, inputs) => {
        let re: RegExp;
        try {
          re = new RegExp(source, 'u');
        } catch {
          return; // \2 without two groups, `(?<n>` twice: V8 refuses it, so do patterns here
        }
        const ast = parsePattern(source);
        if (ast === undefined) return;
        const m = new BacktrackMatcher(ast);
        for (const s of inputs) {
          checked++;
          expect(m.test(s, 1e8), `/${source}/u on ${JSON.stringify(s)}`).toBe(re.test(s));
        }
      }),
      { numRuns: 8_000, seed: 2640 },
    );
    expect(checked).toBeGreaterThan(15_000);
  });
});

describe('the budget is counted, and long inputs fit', () => {
  it('a catastrophic pattern stops at its budget, with the same verdict every time', () => {
    const m = matcher('^(a+)+$');
    const input = `${'a'.repeat(30)}b`;
    for (let i = 0; i < 3; i++) expect(() => m.test(input, 200_000)).toThrow(BacktrackBudget);
    // Within a budget large enough, it decides.
    expect(matcher('^(a+)+$').test('a'.repeat(12) + 'b', 1e8)).toBe(false);
  });

  it('a million characters under a backreference pattern and a plain one: no stack overflow', () => {
    const words = Array.from({ length: 200_000 }, () => 'word').join(',');
    expect(matcher('^(\\w+)(?:,\\s?\\1)*$').test(words, 1e9)).toBe(true);
    expect(matcher('^[a-z]+$').test('x'.repeat(1_000_000), 1e9)).toBe(true);
    expect(matcher('^[a-z]+$').test(`${'x'.repeat(1_000_000)}1`, 1e9)).toBe(false);
  });
});
