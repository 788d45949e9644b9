// `pattern` and `patternProperties`: ECMA-262 regular expressions with the `u` flag, as JSON Schema
// 2020-12 §6.4 asks, compiled once per pattern (and shared between compiles), bounded in time.
//
// Which engine runs a check is decided per string: V8's own RegExp on the calling thread when the
// static bound of `pattern-analysis.ts` proves the match cheap for a string of that length; otherwise a
// worker thread under the `patternBudgetMs` deadline. A check that runs out of time fails the whole
// validation (it never counts as a match or a non-match).

import { analysePattern } from './pattern-analysis.js';
import type { PatternCost } from './pattern-analysis.js';
import { testWithDeadline } from './pattern-worker.js';

/** Steps the calling thread may spend on one match: about a millisecond of backtracking. */
const NATIVE_STEP_BUDGET = 1e6;

export interface CompiledPattern {
  readonly source: string;
  readonly regexp: RegExp;
  readonly cost: PatternCost;
  /** Strings up to this length run natively: `C · (n + 1)^degree ≤ NATIVE_STEP_BUDGET`. */
  readonly nativeUpTo: number;
}

const cache = new Map<string, CompiledPattern | SyntaxError>();
const CACHE_SIZE = 1000;

/** Compiles `source`, or returns the `SyntaxError` that makes it no ECMA-262 pattern. */
export function compilePattern(source: string): CompiledPattern | SyntaxError {
  const hit = cache.get(source);
  if (hit !== undefined) return hit;
  let out: CompiledPattern | SyntaxError;
  try {
    const regexp = new RegExp(source, 'u');
    const cost = analysePattern(source);
    let nativeUpTo = -1;
    if (cost.bounded) {
      const room = Math.log10(NATIVE_STEP_BUDGET) - cost.log10Constant;
      if (room >= 0) nativeUpTo = cost.degree === 0 ? Infinity : Math.floor(10 ** (room / cost.degree)) - 1;
    }
    out = { source, regexp, cost, nativeUpTo };
  } catch (e) {
    out = e instanceof SyntaxError ? e : new SyntaxError(String(e));
  }
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(source, out);
  return out;
}

/** Thrown out of an evaluation that cannot finish; `validate` turns it into an invalid result. */
export class EvaluationAborted extends Error {
  constructor(
    readonly keyword: string,
    readonly schemaPath: string,
    message: string,
  ) {
    super(message);
  }
}

export type PatternTest = (input: string) => boolean;

/** A matcher for `pattern` under the budget; throws `EvaluationAborted` when a check cannot finish. */
export function patternTester(p: CompiledPattern, budgetMs: number, keyword: string, schemaPath: string): PatternTest {
  const { regexp, nativeUpTo, source } = p;
  if (budgetMs === Infinity || nativeUpTo === Infinity) return (input) => regexp.test(input);
  return (input) => {
    if (input.length <= nativeUpTo) return regexp.test(input);
    const r = testWithDeadline(source, input, budgetMs);
    if (r === true || r === false) return r;
    const shown = source.length > 80 ? source.slice(0, 77) + '...' : source;
    throw new EvaluationAborted(
      keyword,
      schemaPath,
      r === 'timeout'
        ? `the pattern /${shown}/ did not finish within ${budgetMs} ms on a ${input.length}-character string, so the value cannot be validated`
        : `the pattern /${shown}/ needs a worker thread to run under a deadline and none could be started, so the value cannot be validated`,
    );
  };
}
