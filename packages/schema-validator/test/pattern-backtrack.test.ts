// The step-counted backtracking matcher against V8: the same answers, a counted budget, a bounded stack.
//
// The same answer as `new RegExp(source, 'u').test(input)` on hand-picked patterns for every construct and on 20,000
// generated pattern/input pairs, a budget that is counted (the same verdict and step count every time), a bounded
// stack, and million-character inputs that do not overflow the JS stack.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePattern } from '../src/pattern-analysis.js';
import { BACKTRACK_STACK_LIMIT, BacktrackBudget, BacktrackMatcher } from '../src/pattern-backtrack.js';

const matcher = (source: string): BacktrackMatcher => new BacktrackMatcher(parsePattern(source)!);

const PAIR = '\ud83d\ude00'; // 😀, one character in `u` mode
const HIGH = '\ud83d';
const LOW = '\ude00';

const CASES: [string, string[]][] = [
  // backreferences: backward, forward (to a group not set yet: empty), named, to a group not set
  ['(a)\\1', ['aa', 'ab', 'xaax']],
  ['^(\\d+)\\s\\1$', ['12 12', '12 1', '1 12']],
  ['(?<q>["\'])(.*?)\\k<q>', ['"x"', '\'x"', '"', "''"]],
  ['^(?<a>\\w)(?<b>\\w)\\k<b>\\k<a>$', ['abba', 'abab', 'aaaa']],
  ['\\1(a)', ['a', '', 'b']],
  ['^\\k<n>(?<n>b)$', ['b', 'bb']],
  ['(a)|\\1b', ['b', 'ab', 'c']],
  ['^(?:(a)|b)\\1$', ['aa', 'b', 'ba', 'ab']],
  ['^(a)?\\1b$', ['aab', 'b', 'ab']],
  ['(.)\\1{2,}', ['aaa', 'aab', 'xbbbb']],
  // inside quantifiers: captures reset at each iteration, empty iterations
  ['^(\\w+)(?:,\\s?\\1)*$', ['a,a', 'ab, ab,ab', 'a,b', '', 'x', 'ab,a']],
  ['^(?:a|(b))+\\1$', ['abb', 'ab', 'aba', 'bab']],
  ['^(?:(a)|b)+\\1$', ['aba', 'aa', 'ab', 'bab']],
  ['^(?:(a)|b\\1)+$', ['aba', 'ab', 'abb', 'b']],
  ['^(?:(a)|(b))+$', ['ab', 'ba', 'abab']],
  ['^(?:(a)|(b)\\1)+$', ['ab', 'aba', 'ba']],
  ['(z)((a+)?(b+)?(c))*\\3', ['zaacbbbcac', 'zaacbbbcacaa', 'z']],
  ['^(a*)*$', ['', 'a', 'aaa', 'b']],
  ['^(a*)+\\1$', ['aa', 'a', '']],
  ['^(a*)*b\\1$', ['aab', 'aaba', 'b']],
  ['^(?:(a)|())*\\1$', ['aa', 'ab', '']],
  ['^(?:()|a)+\\1b$', ['ab', 'aab', 'b']],
  ['^(a*?)+?$', ['aa', '']],
  ['^(a|)+\\1$', ['aa', 'a', '']],
  ['^(a|)*?b\\1$', ['aab', 'ab', 'b']],
  ['^(?:|a)*?b', ['aab', 'b']],
  ['^(?:(a)|b){2}\\1$', ['aba', 'ab', 'baa', 'bb']],
  ['^(?:(a)|b){1,5000}\\1$', ['ba', 'bab', 'aba', `${'ab'.repeat(2000)}a`]],
  // lazy against greedy, with what follows
  ['^(a+?)\\1*$', ['aaaa', 'aaab']],
  ['^(.+?)\\1+$', ['abcabc', 'abcab', 'aaaa']],
  ['^(a+)\\1$', ['aaaa', 'aaa']],
  ['^(a+?)(a*)$', ['aaa']],
  ['^(.*?),(.*)$', ['a,b,c', 'abc']],
  ['<(.+?)>.*</\\1>', ['<b>x</b>', '<b>x</i>', '<b><i></i>']],
  ['(a|ab)(c|bcd)(d*)', ['abcd', 'acd']],
  ['^(?:a|aa)+$', ['aaaa', 'aaab']],
  ['x{2,}?y', ['xxy', 'xy']],
  // lookaheads and lookbehinds, with captures and backreferences inside, nested
  ['(?=(a+))a*b\\1', ['baaabac', 'aab', 'b']],
  ['(?=(a+))', ['baaabac']],
  ['(?=a(?<=(a))\\1)', ['aa', 'a']],
  ['(?<=(\\d+))\\1', ['1231', '121', '12', '11']],
  ['(?<=(\\d))\\1', ['11', '12']],
  ['(?<=(\\d+)(\\d+))$', ['1053', '1', '']],
  ['(?<=\\1(a))b', ['aab', 'ab', 'b']],
  ['(?<=(a)\\1)b', ['aab', 'ab']],
  ['(?<=(a|)+)b\\1', ['ab', 'aab', 'b']],
  ['(?<=^(?:(a)|b)*\\1)c', ['aac', 'abc', 'bbc', 'c']],
  ['(?<!a)b', ['ab', 'cb', 'b']],
  ['(?<=^|,)x', ['x', ',x', 'ax']],
  ['(?<!(a))\\1b', ['ab', 'b', 'cb']],
  ['(?!(a))\\1b', ['b', 'ab']],
  ['^(?!.*(.).*\\1).*$', ['abc', 'aba', '']],
  ['(?=a(?=b(?!c)))ab', ['abd', 'abc', 'ab']],
  ['(?<=(?<!x)a)b', ['ab', 'xab']],
  ['(?<=a(?=b(?<=(b))))\\1', ['abb', 'ab', 'ba']],
  ['^(?=.*\\d)(?=.*[a-z])\\w{6,}$', ['abc123', 'abcdef', '123456', 'a1']],
  ['^(?:(?=(\\w))\\1)+$', ['abc', '', 'a b']],
  // assertions, at the edges of the input too; classes
  ['\\bfoo\\b', ['foo', 'a foo b', 'foobar', 'barfoo']],
  ['\\Bo\\B', ['foo', 'o', 'oo']],
  ['^\\b', ['', 'a', ' ']],
  ['\\b$', ['', 'a', 'a ']],
  ['^\\B$', ['', 'a']],
  ['(?<=\\b)a', ['a', ' a', 'ba']],
  ['^$', ['', 'a']],
  ['[^a-c]+$', ['abcx', 'abc']],
  ['^[\\p{L}]+$', ['héllo', 'hé1']],
  ['\\d{3}-\\d{4}', ['555-1234', '55-1234']],
  // astral characters and lone surrogates: one character each in `u` mode
  ['^.$', [PAIR, 'a', HIGH, LOW, PAIR + PAIR, LOW + HIGH]],
  ['^(.)\\1$', [PAIR + PAIR, HIGH + HIGH, HIGH + PAIR, PAIR + LOW]],
  ['^(\\ud83d)\\1', [HIGH + HIGH, HIGH + PAIR]],
  ['(?<=😀)x', [`${PAIR}x`, 'x', `${LOW}x`]],
  ['(?<=\\ude00)x', [`${PAIR}x`, `${LOW}x`]],
  ['^\\ud83d', [HIGH, PAIR]],
  ['\\ude00+', [PAIR, LOW, `a${LOW}${LOW}`]],
  ['[^😀]+', [PAIR, 'a', HIGH]],
  ['[😀-😂]+', ['😁', 'a']],
  ['\\B', [PAIR, '']],
  // V8 tries the positions between the halves of a pair too: a backreference fails there, even an empty one
  ['(?!\\1)()', [PAIR, 'a']],
  ['(?<!\\k<x>)(?<x>)', [PAIR, 'a']],
  ['(?!(\\1))', [PAIR, 'a']],
  // large counted repetitions (kept as counters, never expanded)
  ['^(?:\\w|-|\\.){1,5000}$', ['a-b.c', '', 'a b', 'x'.repeat(5000), 'x'.repeat(5001)]],
  ['^(?:ab){1000,2000}$', ['ab'.repeat(999), 'ab'.repeat(1500), 'ab'.repeat(2001)]],
  ['^(a|b){3,100000}?b\\1$', ['aabb', 'abbb', 'aaabb', 'ab']],
  ['^a{2,3}$', ['a', 'aa', 'aaa', 'aaaa']],
  ['^(?:ab){0,2}c', ['c', 'abc', 'ababc', 'abababc']],
  ['^a{0}b', ['b', 'ab']],
  ['^(a){0}\\1b', ['b', 'ab']],
  // catastrophic for a backtracker, decided within the budget on short inputs
  ['(a+)+$', ['aaaa', 'aaab']],
  ['^(a|a?)+b\\1$', ['aaab', 'aab', `${'a'.repeat(12)}c`]],
];

/**
 * V8 reads a numbered backreference to a group opened later, followed by a literal astral character, as if
 * the character were only its low half (`/\1😀()/u.test('😀')` is false, `.test('\ude00')` true): a parser
 * bug this matcher does not copy. The generated patterns avoid the combination.
 */
const V8_MISREADS = /\\[1-9][\uD800-\uDBFF]/;

describe('the backtracking matcher gives V8 answers', () => {
  it(`has ${CASES.length} hand-picked patterns`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(CASES.reduce((n, [, inputs]) => n + inputs.length, 0)).toBeGreaterThan(200);
  });

  for (const [source, inputs] of CASES) {
    it(`/${source}/u`, () => {
      const m = matcher(source);
      const re = new RegExp(source, 'u');
      for (const input of inputs) expect(m.test(input, 1e9), JSON.stringify(input)).toBe(re.test(input));
    });
  }

  it('on 20,000 generated pattern and input pairs', () => {
    const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\w', '\\d', '😀', '\\ud83d', '\\ude00', '(?:)');
    const pattern = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        atom,
        fc.tuple(tie('node'), tie('node')).map(([a, b]) => a + b),
        fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(?:${a}|${b})`),
        tie('node').map((a) => `(${a})`),
        fc.tuple(fc.constantFrom('x', 'y'), tie('node')).map(([n, a]) => `(?<${n}>${a})`),
        fc
          .tuple(tie('node'), fc.constantFrom('*', '+', '?', '{0,2}', '{1,3}', '*?', '+?', '??', '{2}', '{2,}?'))
          .map(([a, q]) => `(?:${a})${q}`),
        fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '*?', '+?')).map(([a, q]) => `(${a})${q}`),
        fc.tuple(fc.constantFrom('(?=', '(?!', '(?<=', '(?<!'), tie('node')).map(([l, a]) => `${l}${a})`),
        // Backreferences to groups that may not exist: V8 refuses those, and they are skipped.
        fc.constantFrom('^', '$', '\\b', '\\B', '\\1', '\\2', '\\3', '\\k<x>', '\\k<y>'),
      ),
    })).node;
    const input = fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', PAIR, HIGH, LOW), maxLength: 8 });
    let checked = 0;
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 3, maxLength: 5 }), (source, inputs) => {
        let re: RegExp;
        try {
          re = new RegExp(source, 'u');
        } catch (e) {
          if (e instanceof SyntaxError) return; // `\3` without three groups, `(?<x>` twice
          throw e;
        }
        if (V8_MISREADS.test(source)) return;
        // V8 (Node 24) takes a duplicate group name where both groups can match (`(?<y>a)(?:a|(?<y>b))`),
        // which ECMA-262 forbids and regexpp refuses: the validator makes no claim on such a pattern.
        const ast = parsePattern(source);
        if (ast === undefined) return;
        const m = new BacktrackMatcher(ast);
        for (const s of inputs) {
          checked++;
          expect(m.test(s, 1e8), `/${source}/u on ${JSON.stringify(s)}`).toBe(re.test(s));
        }
      }),
      { numRuns: 7_000, seed: 2640 },
    );
    expect(checked).toBeGreaterThanOrEqual(20_000);
  });

  it('reads duplicate named groups in separate alternatives (ES2025): `\\k<x>` is whichever one matched', () => {
    const source = '^(?:(?<x>a)|(?<x>b))\\k<x>$';
    const m = matcher(source);
    const answers = ['aa', 'bb', 'ab', 'ba', 'a'].map((s) => m.test(s, 1e6));
    expect(answers).toEqual([true, true, false, false, false]);
    // Where the runtime's V8 takes the pattern (Node 24; Node 20 refuses it), it agrees.
    let re: RegExp | undefined;
    try {
      re = new RegExp(source, 'u');
    } catch {
      re = undefined;
    }
    if (re !== undefined) expect(['aa', 'bb', 'ab', 'ba', 'a'].map((s) => re.test(s))).toEqual(answers);
  });

  it('answers as ECMA-262 where V8 misreads the pattern (a forward reference before an astral literal)', () => {
    // `\1` is empty (its group is not set yet), then 😀 is one character.
    expect(matcher('\\1😀()').test(PAIR, 1e6)).toBe(true);
    expect(matcher('\\1😀()').test(LOW, 1e6)).toBe(false);
    // The same pattern with the character escaped: V8 agrees.
    // eslint-disable-next-line no-useless-backreference -- a forward reference, on purpose
    expect(new RegExp('\\1\\u{1F600}()', 'u').test(PAIR)).toBe(true);
  });
});

describe('the budget is counted, memory is bounded, and long inputs fit', () => {
  it('a catastrophic pattern stops at its budget, with the same verdict and steps every time', () => {
    const input = `${'a'.repeat(30)}b`;
    const catastrophic: [string, string][] = [
      ['(a+)+$', input],
      ['^(a+)+$', input],
      ['^(a|aa)+\\1$', input],
      ['^(\\w+\\s?)*$', `${'word '.repeat(10)}!`],
      ['^(?:a|(?=a)a)+$', input],
    ];
    for (const [source, text] of catastrophic) {
      const m = matcher(source);
      const steps = new Set<number>();
      for (let i = 0; i < 5; i++) {
        expect(() => m.test(text, 100_000), source).toThrow(BacktrackBudget);
        steps.add(m.lastSteps);
      }
      expect(steps.size).toBe(1);
      expect([...steps][0]).toBeGreaterThan(100_000);
    }
    const e = (() => {
      try {
        matcher('(a+)+$').test(input, 1000);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(BacktrackBudget);
    expect((e as BacktrackBudget).kind).toBe('steps');
  });

  it('a budget that suffices gives the same answer in the same steps; one step fewer does not suffice', () => {
    const m = matcher('^(a+)+$');
    const input = `${'a'.repeat(12)}b`;
    expect(m.test(input, 1e8)).toBe(false);
    const needed = m.lastSteps;
    for (let i = 0; i < 3; i++) {
      expect(m.test(input, needed)).toBe(false);
      expect(m.lastSteps).toBe(needed);
    }
    expect(() => m.test(input, needed - 1)).toThrow(BacktrackBudget);
  });

  it('counts the characters a backreference compares (a step per 16)', () => {
    const unit = 'a'.repeat(1000);
    const input = unit + `,${unit}`.repeat(100);
    const m = matcher('^(a+)(?:,\\1)*$');
    expect(m.test(input, 1e9)).toBe(true);
    // 1,000 characters read, 100 iterations of a few instructions, 100,000 characters compared.
    expect(m.lastSteps).toBeGreaterThan(1000 + 100 * 3 + 100_000 / 16);
    expect(m.lastSteps).toBeLessThan(1000 + 100 * 10 + 100_000 / 16);
  });

  it('a match that needs more backtracking memory than allowed stops with kind "stack"', () => {
    // Every `a` leaves two choices behind (stay in the loop; try `ab`): past the limit on this input.
    const m = matcher('^(?:a|ab)*$');
    const input = 'a'.repeat(Math.ceil(BACKTRACK_STACK_LIMIT / 7));
    expect(() => m.test(input, 1e9)).toThrow(expect.objectContaining({ kind: 'stack' }));
    // The matcher is usable again afterwards.
    expect(m.test('aab', 1e6)).toBe(true);
  });

  it('a million characters under backreference, lookaround and plain patterns: no stack overflow', () => {
    const million = 1_000_000;
    const words = Array.from({ length: million / 5 }, () => 'word').join(',');
    expect(matcher('^(\\w+)(?:,\\s?\\1)*$').test(words, 1e9)).toBe(true);
    expect(matcher('^(\\w+)(?:,\\s?\\1)*$').test(`${words},wore`, 1e9)).toBe(false);
    const letters = Array.from({ length: million / 2 }, () => 'a').join(',');
    expect(matcher('^(\\w+)(?:,\\s?\\1)*$').test(letters, 1e9)).toBe(true);
    expect(matcher('^[a-z]+$').test('x'.repeat(million), 1e9)).toBe(true);
    expect(matcher('^[a-z]+$').test(`${'x'.repeat(million)}1`, 1e9)).toBe(false);
    expect(matcher('^(?:(a|b)\\1)*$').test('aabb'.repeat(million / 4), 1e9)).toBe(true);
    expect(matcher('^(?:(?=\\w)\\w)*$').test('x'.repeat(million), 1e9)).toBe(true);
    expect(matcher('^.*?$').test('x'.repeat(million), 1e9)).toBe(true);
    expect(matcher('(?<=a)b').test('a'.repeat(million), 1e9)).toBe(false);
  });
});
