import { afterAll, describe, expect, it } from 'vitest';
import { SchemaError, SchemaLimitError, compile, stopPatternWorker } from '../src/index.js';
import { analysePattern } from '../src/pattern-analysis.js';

afterAll(stopPatternWorker);

const EVIL = 'a'.repeat(30) + '!';

describe('pattern budget', () => {
  it('fails a catastrophic pattern within the budget instead of blocking', () => {
    const v = compile({ type: 'string', pattern: '^(a+)+$' });
    const started = performance.now();
    const r = v.validate(EVIL);
    const elapsed = performance.now() - started;
    expect(r.valid).toBe(false);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.keyword).toBe('pattern');
    expect(r.errors[0]?.schemaPath).toBe('#/pattern');
    expect(r.errors[0]?.message).toMatch(/did not finish within 100 ms/);
    // The budget plus a worker start and its termination, far from the minutes a plain RegExp takes.
    expect(elapsed).toBeLessThan(3000);
    expect(v.isValid(EVIL)).toBe(false);
  });

  it('still answers a catastrophic pattern correctly when the match is quick', () => {
    const v = compile({ type: 'string', pattern: '^(a+)+$' });
    expect(v.isValid('aaaa')).toBe(true);
    expect(v.isValid('aaab')).toBe(false);
  });

  it('honours patternBudgetMs', () => {
    const v = compile({ pattern: '^(a|a)*$' }, { patternBudgetMs: 20 });
    const started = performance.now();
    const r = v.validate('a'.repeat(40) + '!');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.message).toMatch(/within 20 ms/);
  });

  it('never lets a timeout pass, not even under not', () => {
    const v = compile({ not: { pattern: '^(a+)+$' } });
    const r = v.validate(EVIL);
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.keyword).toBe('pattern');
    expect(v.isValid(EVIL)).toBe(false);
  });

  it('bounds patternProperties too', () => {
    const v = compile({ patternProperties: { '^(a+)+$': { type: 'string' } } });
    const r = v.validate({ [EVIL]: 1 });
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.keyword).toBe('patternProperties');
  });

  it('runs provably cheap patterns on the calling thread, however long the string', () => {
    const v = compile({ pattern: '^[a-z]+$' });
    const long = 'a'.repeat(50_000);
    expect(v.isValid(long)).toBe(true);
    expect(v.isValid(long + '1')).toBe(false);
    expect(analysePattern('^[a-z]+$')).toMatchObject({ bounded: true, degree: 1 });
    expect(analysePattern('^\\d{4}-\\d{2}-\\d{2}$')).toMatchObject({ bounded: true, degree: 0 });
  });

  it('classifies nested repetition, alternation under repetition and backreferences as unbounded', () => {
    for (const p of ['^(a+)+$', '(a|b)*c', '(x)\\1', '^(\\w+\\s?)*$', '(?=(a+)+)']) expect(analysePattern(p).bounded, p).toBe(false);
    expect(analysePattern('[a-z]+').degree).toBe(2);
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
