// The pattern budget: catastrophic patterns answered in time or failed, never blocking.
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_VALIDATION_BUDGET_MS,
  PatternCheckError,
  SchemaError,
  SchemaLimitError,
  ValidationError,
  compile,
  stopPatternWorker,
} from '../src/index.js';
import { analysePattern } from '../src/pattern-analysis.js';

afterAll(stopPatternWorker);

const EVIL = 'a'.repeat(30) + '!';

const caught = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

// Lookaheads nested under counted repetitions: V8 backtracks for 14-30 s on 3,010 characters and cannot
// be interrupted in a worker; here it runs on the linear-time matcher, under the deadline.
const NESTED_LOOKAHEADS = '^(?:(?=(?:(?=(?:(?=a{1000})a){1000})a){1000})a)*$';
const LONG_A = 'a'.repeat(3010);

describe('pattern budget', () => {
  it('answers a catastrophic backtracking pattern at once, in linear time', () => {
    const v = compile({ type: 'string', pattern: '^(a+)+$' });
    const started = performance.now();
    const r = v.validate(EVIL);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.message).toMatch(/must match the pattern/);
    expect(v.isValid('a'.repeat(100_000) + '!')).toBe(false);
    expect(v.isValid('a'.repeat(100_000))).toBe(true);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('still answers a catastrophic pattern correctly when the match is quick', () => {
    const v = compile({ type: 'string', pattern: '^(a+)+$' });
    expect(v.isValid('aaaa')).toBe(true);
    expect(v.isValid('aaab')).toBe(false);
  });

  it('fails a pattern that cannot finish within the budget instead of blocking', () => {
    const v = compile({ type: 'string', pattern: NESTED_LOOKAHEADS });
    const started = performance.now();
    const r = v.validate(LONG_A);
    const elapsed = performance.now() - started;
    expect(r.valid).toBe(false);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.keyword).toBe('pattern');
    expect(r.errors[0]?.schemaPath).toBe('#/pattern');
    expect(r.errors[0]?.message).toMatch(/did not finish within 100 ms/);
    // The budget, far from the 14-30 s V8 takes (and it ran on this thread: nothing is left running).
    expect(elapsed).toBeLessThan(3000);
    expect(v.isValid(LONG_A)).toBe(false);
    expect(v.isValid('a'.repeat(20))).toBe(false);
    expect(caught(() => v.validateOrThrow(LONG_A))).toMatchObject({
      code: 'MCPC_SCHEMA_PATTERN_UNCHECKED',
      reason: 'timeout',
    });
    // A value that does not match is a plain ValidationError.
    expect(caught(() => v.validateOrThrow('b'))).not.toBeInstanceOf(PatternCheckError);
  });

  it('counts counted repetitions: (?:a{1000}){1000}b on 50,000 characters goes to the deadline', () => {
    const v = compile({ type: 'string', pattern: '(?:a{1000}){1000}b' });
    const started = performance.now();
    const r = v.validate('a'.repeat(50_000));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.message).toMatch(/did not finish within 100 ms/);
  });

  it('honours patternBudgetMs', () => {
    const v = compile({ pattern: NESTED_LOOKAHEADS }, { patternBudgetMs: 20 });
    const started = performance.now();
    const r = v.validate(LONG_A);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.message).toMatch(/within 20 ms/);
  });

  it('never lets a timeout pass, not even under not', () => {
    const v = compile({ not: { pattern: NESTED_LOOKAHEADS } });
    const r = v.validate(LONG_A);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.keyword).toBe('pattern');
    expect(v.isValid(LONG_A)).toBe(false);
  });

  it('bounds patternProperties too', () => {
    const v = compile({ patternProperties: { [NESTED_LOOKAHEADS]: { type: 'string' } } });
    const r = v.validate({ [LONG_A]: 1 });
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.keyword).toBe('patternProperties');
    expect(r.errors[0]?.message).toMatch(/did not finish/);
  });

  it('judges a linear pattern by its work, not the clock: 1 MB strings stay valid on a machine however busy', () => {
    const letters = compile({ pattern: '^[a-z]+$' });
    const base64 = compile({ pattern: '^[A-Za-z0-9+/]*={0,2}$' });
    const real = performance.now.bind(performance);
    let now = 0;
    // Every look at the clock a second later: what a loaded machine looks like to a deadline.
    performance.now = () => (now += 1_000);
    try {
      expect(letters.validate('a'.repeat(1 << 20)).valid).toBe(true);
      expect(letters.validate('a'.repeat(1 << 20) + '1').valid).toBe(false);
      expect(base64.validate(Buffer.alloc(1 << 19, 7).toString('base64')).valid).toBe(true);
    } finally {
      performance.now = real;
    }
  });

  it('budgets the linear matcher by steps: a lookaround pattern on 20k–100k characters, valid however slow the clock', () => {
    // Unanchored, its static bound is quadratic (1.3e10 steps at 50k): it goes to the linear matcher.
    const strong = compile({ pattern: '(?=.*[0-9]).+' });
    const hostname = compile({
      pattern: '^(?=.{1,253}$)(?:[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?\\.)*[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?$',
    });
    const real = performance.now.bind(performance);
    let now = 0;
    performance.now = () => (now += 1_000);
    try {
      for (const n of [20_000, 100_000]) expect(strong.validate('a'.repeat(n) + '1').valid, String(n)).toBe(true);
      expect(strong.validate('a'.repeat(2_000)).valid).toBe(false);
      expect(strong.validate('a'.repeat(2_000)).undecided).toBeUndefined();
      // Work past the step budget is still refused, as undecided.
      const quadratic = compile({ pattern: '^(?:(?=[a-z]*[0-9])[a-z0-9])+$' });
      expect(quadratic.validate('a'.repeat(50_000) + '1').undecided).toBe(true);
      for (let i = 0; i < 1_000; i++) expect(hostname.isValid(`host-${i}.example.com`)).toBe(true);
    } finally {
      performance.now = real;
    }
  });

  it('compiles what real servers publish, and runs it bounded (V8 on a worker, under the deadline)', () => {
    // Refused at compile as "unbounded" before.
    const list = compile({ pattern: '^(\\w+)(?:,\\s?\\1)*$' });
    expect(list.isValid('ab,ab, ab')).toBe(true);
    expect(list.isValid('ab,ac')).toBe(false);
    const chars = compile({ pattern: '^(?:\\w|-|\\.){1,5000}$' });
    expect(chars.isValid('a-b.c_d')).toBe(true);
    expect(chars.isValid('a'.repeat(5000))).toBe(true);
    expect(chars.isValid('a'.repeat(5001))).toBe(false);
    expect(chars.isValid('a b')).toBe(false);
    const nested = compile({ pattern: '^(a+)+\\1$' });
    expect(nested.isValid('aaaa')).toBe(true);
    // An exponential case is stopped by the deadline, never taken as a match or a mismatch.
    const r = nested.validate('a'.repeat(40) + 'b');
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.message).toMatch(/did not finish|cannot be validated/);
    // Undecided: a typed outcome of its own, which a caller must not report as a mismatch.
    expect(r.undecided).toBe(true);
    expect(nested.validate('ab').undecided).toBeUndefined();
  });

  it('compiles every pattern (lookarounds, backreferences, exponential ones) and runs it on counted steps', () => {
    // Refused at compile time before: no worker could interrupt it, the linear matcher cannot take \1.
    const v = compile({ properties: { p: { pattern: '(?<=(a))(b+)+\\1' } } });
    const re = /(?<=(a))(b+)+\1/u;
    for (const s of ['abba', 'abbb', 'ab', 'aba', 'xbbbba']) expect(v.isValid({ p: s }), s).toBe(re.test(s));
    // A catastrophic input stops at its budget, the same way every time, whatever the machine is doing.
    const hopeless = { p: `a${'b'.repeat(40)}c` };
    const reasons = [1, 2, 3].map(() => caught(() => v.validateOrThrow(hopeless)));
    expect(reasons.map((e) => (e as { reason?: string }).reason)).toEqual(['timeout', 'timeout', 'timeout']);
    // Unless the caller turned the bounds off.
    expect(compile({ pattern: '^(a+)+\\1$' }, { patternBudgetMs: Infinity }).isValid('aaaa')).toBe(true);
  });

  it('runs a lookaround pattern with a backreference past its bound, within its budget', () => {
    // Not run at all before ("lookarounds V8 cannot always interrupt"): now decided, as V8 decides it.
    const source = '(x)\\1(?:(?=a{1000})a){1000}';
    const v = compile({ pattern: source });
    const re = new RegExp(source, 'u');
    for (const s of [
      'xx' + 'a'.repeat(20),
      'x' + 'a'.repeat(2000),
      'xx' + 'a'.repeat(1999),
      'xx' + 'a'.repeat(100_000),
    ])
      expect(v.isValid(s), `${s.length} characters`).toBe(re.test(s));
    expect(v.isValid('xx' + 'a'.repeat(100_000))).toBe(true);
  });

  it('reports a match that needs too much backtracking memory as an overflow, and decides shorter ones', () => {
    // A backreference keeps it from the linear-time matcher; every iteration of the group is a choice to keep.
    const v = compile(
      { type: 'string', pattern: '^(x)(?:(a)b)*\\1$' },
      { patternBudgetMs: 10_000, validationBudgetMs: 10_000 },
    );
    const r = v.validate('x' + 'ab'.repeat(5_000_000));
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.keyword).toBe('pattern');
    expect(r.errors[0]?.message).toMatch(
      /needed more backtracking memory than a check may use on a 10000001-character string/,
    );
    const thrown = caught(() => v.validateOrThrow('x' + 'ab'.repeat(5_000_000)));
    expect(thrown).toBeInstanceOf(PatternCheckError);
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toMatchObject({ code: 'MCPC_SCHEMA_PATTERN_UNCHECKED', reason: 'overflow' });
    expect(v.isValid('x' + 'ab'.repeat(2000) + 'x')).toBe(true);
    expect(v.isValid('x' + 'ab'.repeat(2000) + 'y')).toBe(false);
  });

  it('runs provably cheap patterns on the calling thread, however long the string', () => {
    const v = compile({ pattern: '^[a-z]+$' });
    const long = 'a'.repeat(50_000);
    expect(v.isValid(long)).toBe(true);
    expect(v.isValid(long + '1')).toBe(false);
    expect(analysePattern('^[a-z]+$').steps(50_000)).toBeLessThan(1e6);
    expect(analysePattern('^\\d{4}-\\d{2}-\\d{2}$').steps(1e9)).toBeLessThan(100);
  });

  it('counts what the backtracking bound used to take as free', () => {
    // `{n}` repeats its body n times; a lookaround runs its body each time it is reached.
    expect(analysePattern('(?:a{1000}){1000}b').steps(50_000)).toBeGreaterThan(1e10);
    expect(analysePattern(NESTED_LOOKAHEADS).steps(3010)).toBeGreaterThan(1e10);
    expect(analysePattern('^(?=a{1000})').steps(10)).toBeLessThan(100);
    expect(analysePattern('^(?=a*)').steps(1000)).toBeGreaterThan(1000);
  });

  it('classifies nested repetition and alternation under repetition as unbounded', () => {
    for (const p of ['^(a+)+$', '(a|b)*c', '^(\\w+\\s?)*$', '(?=(a+)+)'])
      expect(analysePattern(p).bounded, p).toBe(false);
    // A backreference compares at most the rest of the input: bounded.
    expect(analysePattern('(x)\\1').bounded).toBe(true);
    // Unanchored, a match is tried from each position.
    expect(analysePattern('[a-z]+').steps(1000)).toBeGreaterThan(analysePattern('^[a-z]+').steps(1000) * 100);
  });

  it('uses ECMA-262 semantics with the u flag', () => {
    expect(compile({ pattern: '^\\p{Lu}' }).isValid('Élan')).toBe(true);
    expect(compile({ pattern: '^.$' }).isValid('🐲')).toBe(true);
    // Patterns are not anchored: "abc" contains "b".
    expect(compile({ pattern: 'b' }).isValid('abc')).toBe(true);
    expect(() => compile({ pattern: '\\_' })).toThrow(SchemaError);
    expect(() => compile({ pattern: '(' })).toThrow(/not an ECMA-262 regular expression/);
  });
});

describe('the budget of one validation', () => {
  // A backreference: each string goes to the worker and takes a few ms there, well within its 100 ms.
  const slow = { type: 'array', items: { type: 'string', pattern: '^(\\w+)(\\w+)(\\w+)\\1!$' } };
  const strings = Array.from({ length: 2000 }, () => 'ab'.repeat(110));

  it('bounds all the pattern checks of one validation together', () => {
    // A generous per-check budget: on a loaded machine one check must not end on its own timeout first.
    const v = compile(slow, { validationBudgetMs: 200, patternBudgetMs: 5000 });
    const started = performance.now();
    const r = v.validate(strings);
    // Without a total budget: 2,000 checks of several ms each.
    expect(performance.now() - started).toBeLessThan(3000);
    expect(r.valid).toBe(false);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.keyword).toBe('pattern');
    expect(r.errors[0]?.schemaPath).toBe('#/items/pattern');
    expect(r.errors[0]?.message).toMatch(/200 ms .*validationBudgetMs/);
    expect(caught(() => v.validateOrThrow(strings))).toMatchObject({ reason: 'budget' });
    expect(v.isValid(strings)).toBe(false);
  });

  it('starts afresh for each validation', () => {
    const v = compile(slow, { validationBudgetMs: 1000, patternBudgetMs: 5000 });
    expect(v.validate(strings).errors[0]?.message).toMatch(/validationBudgetMs/);
    // The next validation has its own budget: its one slow string is checked, not refused.
    expect(v.validate(strings.slice(0, 1)).errors[0]?.message).toMatch(/must match the pattern/);
    expect(
      compile({ items: { pattern: '^(\\w+)-\\1$' } }, { validationBudgetMs: 2000, patternBudgetMs: 5000 }).isValid([
        'x'.repeat(3000) + '-' + 'x'.repeat(3000),
      ]),
    ).toBe(true);
  });

  it('takes a positive number', () => {
    expect(() => compile(true, { validationBudgetMs: 0 })).toThrow(TypeError);
    expect(DEFAULT_VALIDATION_BUDGET_MS).toBe(1000);
  });
});

describe('pattern length', () => {
  it('refuses a pattern over 10,000 characters', () => {
    const long = 'a'.repeat(10_001);
    expect(() => compile({ pattern: long })).toThrow(SchemaLimitError);
    expect(() => compile({ patternProperties: { [long]: true } })).toThrow(/limited to 10000/);
    expect(compile({ pattern: 'a'.repeat(10_000) }).isValid('a'.repeat(10_000))).toBe(true);
  });

  it('takes the limit from limits.maxPatternLength', () => {
    expect(() => compile({ pattern: 'abcdef' }, { limits: { maxPatternLength: 5 } })).toThrow(SchemaLimitError);
  });
});
