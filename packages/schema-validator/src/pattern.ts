// `pattern` and `patternProperties`: ECMA-262 regular expressions with the `u` flag, bounded by counted work.
//
// The `u` flag is what JSON Schema 2020-12 §6.4 asks for. Each pattern is compiled once (and shared between compiles).
//
// Which engine runs a check is decided per string, cheapest first:
// 1. V8's own RegExp, when the static bound of `pattern-analysis.ts` proves the match cheap for a string
//    of that length;
// 2. the linear-time matcher of `pattern-nfa.ts` (every pattern without backreferences that expands to an
//    automaton of bounded size), on a budget of steps;
// 3. otherwise (backreferences, huge expansions) the backtracking matcher of `pattern-backtrack.ts`, on a
//    budget of steps too. It replaced V8 on a worker thread under a wall-clock deadline: a verdict then
//    depended on how busy the machine was, lookaround patterns could not be run at all, and browsers and
//    Workers, which have no worker threads, could not check such patterns.
// Every pattern compiles and is run bounded, on the calling thread, in every runtime. A check that
// cannot finish within its budget fails the whole validation (it never counts as a match or a non-match),
// and so does running out of the validation's total budget (`validationBudgetMs`).

import type { AST } from '@eslint-community/regexpp';
import { analysePattern, longestWithin, parsePattern } from './pattern-analysis.js';
import type { PatternCost } from './pattern-analysis.js';
import { BACKTRACK_STEPS_PER_MS, BacktrackBudget, BacktrackMatcher } from './pattern-backtrack.js';
import { NfaDeadline, NfaMatcher, NfaUnsupported } from './pattern-nfa.js';

/** Steps the calling thread may spend on one V8 match: about a millisecond of backtracking. */
const NATIVE_STEP_BUDGET = 1e6;
/** V8 matches bounded by this few steps are not timed: reading the clock would cost more than they do. */
const UNTIMED_STEP_BUDGET = 1e4;
/** Linear-matcher runs bounded by this much work (characters × automaton size) are not timed either. */
const UNTIMED_NFA_WORK = 2e4;
/**
 * The linear matcher's budget is counted in steps, not time, so a verdict does not depend on how busy the
 * machine is: a millisecond of `patternBudgetMs` buys this many steps, about what the matcher does in a
 * millisecond with lookarounds (measured at 27,000; 220,000 without) on a 2-core AMD EPYC.
 */
export const NFA_STEPS_PER_MS = 20_000;
/**
 * Past this many automaton nodes, a pattern V8 can run under a deadline (bounded, no lookaround) goes to
 * the worker: the linear matcher's work per character grows with the automaton, V8's usually does not
 * (a 10,000-character literal).
 */
const LARGE_NFA = 1000;

export interface CompiledPattern {
  readonly source: string;
  readonly regexp: RegExp;
  readonly cost: PatternCost;
  /** Strings up to this length run on V8 on the calling thread: their bound is within `NATIVE_STEP_BUDGET`. */
  readonly nativeUpTo: number;
  /** Strings up to this length run on V8 without being timed. */
  readonly untimedUpTo: number;
  /** The linear-time matcher, when the pattern is one it runs; built on first use (most never need it). */
  readonly linear: () => NfaMatcher | undefined;
  /** The backtracking matcher (any pattern regexpp reads); built on first use. */
  readonly backtrack: () => BacktrackMatcher | undefined;
}

/** Builds the backtracking matcher once, on first call. */
function lazyBacktracker(ast: AST.Pattern | undefined): () => BacktrackMatcher | undefined {
  let m: BacktrackMatcher | undefined;
  return () => (m ??= ast === undefined ? undefined : new BacktrackMatcher(ast));
}

/** Builds the linear-time matcher once, on first call. */
function lazyMatcher(ast: AST.Pattern | undefined): () => NfaMatcher | undefined {
  let built = false;
  let m: NfaMatcher | undefined;
  return () => {
    if (!built) {
      built = true;
      if (ast !== undefined) {
        try {
          m = new NfaMatcher(ast);
        } catch (e) {
          if (!(e instanceof NfaUnsupported)) throw e;
        }
      }
    }
    return m;
  };
}

/** Steps per input character, at most, for a bound to count as linear. */
const LINEAR_STEPS_PER_CHAR = 64;

/** Whether `cost` is at most `LINEAR_STEPS_PER_CHAR` steps a character, from short inputs to very long ones. */
function linearInInput(cost: PatternCost): boolean {
  for (const n of [1e3, 1e5, 1e7, 1e9]) if (!(cost.steps(n) <= LINEAR_STEPS_PER_CHAR * n + 1_000)) return false;
  return true;
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
    const ast = parsePattern(source);
    const cost = ast === undefined ? analysePattern(source) : analysePattern(ast);
    // A pattern whose backtracking bound grows linearly with the input (`^[a-z]+$`, base64) costs V8 what
    // reading the string costs: it runs there at any length, never timed, so its verdict cannot depend on
    // how busy the machine is (1 MB strings were sent to the slower linear matcher under a deadline).
    const linearCost = cost.bounded && !cost.lookaround && linearInInput(cost);
    const nativeUpTo = linearCost ? Infinity : longestWithin(cost, NATIVE_STEP_BUDGET);
    out = {
      source,
      regexp,
      cost,
      nativeUpTo,
      untimedUpTo: linearCost ? Infinity : longestWithin(cost, UNTIMED_STEP_BUDGET, nativeUpTo),
      linear: lazyMatcher(ast),
      backtrack: lazyBacktracker(ast),
    };
  } catch (e) {
    out = e instanceof SyntaxError ? e : new SyntaxError(String(e));
  }
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(source, out);
  return out;
}

/**
 * Why a pattern check could not answer: its budget (`timeout`, `patternBudgetMs` counted in steps), the
 * validation's total budget (`budget`), V8's backtracking stack (`overflow`), or a pattern past its static
 * bound that the bounded matchers cannot read (`too-costly`).
 */
export type PatternAbortReason = 'timeout' | 'budget' | 'overflow' | 'too-costly';

/**
 * Thrown out of an evaluation that cannot finish; `validate` turns it into an invalid result, and
 * `validateOrThrow` into a `PatternCheckError` when `reason` is set.
 */
export class EvaluationAborted extends Error {
  constructor(
    readonly keyword: string,
    readonly schemaPath: string,
    message: string,
    /** Set when a pattern check is what could not finish. */
    readonly reason?: PatternAbortReason,
  ) {
    super(message);
  }
}

// The validation's total budget for pattern checks (`validationBudgetMs`): what is left of it. Validation
// is synchronous and runs no foreign code, so one module-level counter serves every validator.
let total = Infinity;
let remaining = Infinity;

/** Starts a validation's budget: called by the validator before each `validate`/`isValid`. */
export function startPatternBudget(budgetMs: number): void {
  total = budgetMs;
  remaining = budgetMs;
}

export type PatternTest = (input: string) => boolean;

/**
 * Kept for compatibility: pattern checks once ran on a worker thread, which this stopped. They run on the
 * calling thread now, on counted steps, so there is nothing to stop.
 */
export async function stopPatternWorker(): Promise<void> {}

const shown = (source: string): string => (source.length > 80 ? source.slice(0, 77) + '...' : source);

/** A matcher for `pattern` under the budget; throws `EvaluationAborted` when a check cannot finish. */
export function patternTester(p: CompiledPattern, budgetMs: number, keyword: string, schemaPath: string): PatternTest {
  const { regexp, nativeUpTo, untimedUpTo, source } = p;
  const stop = (reason: PatternAbortReason, input: string, detail: string): EvaluationAborted =>
    new EvaluationAborted(
      keyword,
      schemaPath,
      `the pattern /${shown(source)}/ ${detail} on a ${input.length}-character string, so the value cannot be validated`,
      reason,
    );
  const native = (input: string): boolean => {
    try {
      return regexp.test(input);
    } catch (e) {
      if (e instanceof RangeError) throw stop('overflow', input, 'overflowed the regular expression stack');
      throw e;
    }
  };
  if (budgetMs === Infinity) {
    // No deadline asked for: still the linear matcher where V8 could backtrack for long.
    if (nativeUpTo === Infinity) return native;
    return (input) => {
      if (input.length <= nativeUpTo) return native(input);
      const nfa = p.linear();
      return nfa === undefined || (p.cost.bounded && nfa.size > LARGE_NFA) ? native(input) : nfa.test(input);
    };
  }
  if (untimedUpTo === Infinity) return native;
  let nfa: NfaMatcher | undefined;
  let nfaUntimedUpTo = -1;
  let linearKnown = false;
  return (input) => {
    if (input.length <= untimedUpTo) return native(input);
    if (!linearKnown) {
      linearKnown = true;
      nfa = p.linear();
      // Without lookarounds the matcher's work is linear in the input; with them, quadratic at worst.
      if (nfa !== undefined)
        nfaUntimedUpTo = Math.floor(
          nfa.lookaround ? Math.sqrt(UNTIMED_NFA_WORK / nfa.size) : UNTIMED_NFA_WORK / nfa.size,
        );
    }
    if (nfa !== undefined && input.length <= nfaUntimedUpTo) return nfa.test(input);
    if (remaining <= 0)
      throw stop(
        'budget',
        input,
        `was not run: the value's pattern checks already took their ${total} ms (validationBudgetMs)`,
      );
    const started = performance.now();
    let charged = false;
    try {
      if (input.length <= nativeUpTo) return native(input);
      const allowed = Math.min(budgetMs, remaining);
      const late = (): EvaluationAborted =>
        allowed < budgetMs
          ? stop(
              'budget',
              input,
              `did not finish within what was left of the value's ${total} ms for pattern checks (validationBudgetMs)`,
            )
          : stop('timeout', input, `did not finish within ${budgetMs} ms`);
      if (nfa !== undefined && (nfa.size <= LARGE_NFA || nfa.lookaround || !p.cost.bounded)) {
        // Counted work, charged to the validation's budget as the time it stands for.
        const steps = Math.max(1, Math.floor(allowed * NFA_STEPS_PER_MS));
        charged = true;
        try {
          return nfa.test(input, steps);
        } catch (e) {
          if (e instanceof NfaDeadline) throw late();
          throw e;
        } finally {
          remaining -= nfa.lastSteps / NFA_STEPS_PER_MS;
        }
      }
      // Backreferences, or an automaton too large: the backtracking matcher, on counted steps as well.
      const backtracker = p.backtrack();
      if (backtracker === undefined)
        throw stop('too-costly', input, 'is past its static bound and could not be read by the bounded matchers');
      const steps = Math.max(1, Math.floor(allowed * BACKTRACK_STEPS_PER_MS));
      charged = true;
      try {
        return backtracker.test(input, steps);
      } catch (e) {
        if (e instanceof BacktrackBudget && e.kind === 'stack')
          throw stop('overflow', input, 'needed more backtracking memory than a check may use');
        if (e instanceof BacktrackBudget) throw late();
        throw e;
      } finally {
        remaining -= backtracker.lastSteps / BACKTRACK_STEPS_PER_MS;
      }
    } finally {
      if (!charged) remaining -= performance.now() - started;
    }
  };
}
