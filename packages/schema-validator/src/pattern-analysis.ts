// A static bound on how much work a backtracking engine (V8's irregexp) can do for a pattern, so that
// only patterns that are provably cheap for the string at hand run on the calling thread.
//
// The model: a backtracking match explores each combination of choices at most once per start
// position. The choices are which alternative a disjunction takes and how many times a quantifier
// repeats. If no repeated sub-pattern contains a choice of its own (star height 1, no alternation under
// a repetition) and there are no backreferences, the number of combinations is at most
// `C · (n + 1)^U`: `C` the product of the bounded choices (alternatives, small repetition ranges) and
// `U` the number of repetitions whose range grows with the input length `n`. Each combination costs at
// most the pattern length `m` in fixed steps, and an unanchored pattern is tried from each of the
// `n + 1` start positions. Anything outside that shape (`(a+)+`, `(a|b)*`, backreferences, lookarounds
// that branch) has no such bound and is `unbounded`.

import { RegExpParser } from '@eslint-community/regexpp';
import type { AST } from '@eslint-community/regexpp';

export interface PatternCost {
  /** False when the pattern has no polynomial bound (see above). */
  readonly bounded: boolean;
  /** log10 of the constant factor `C · m`. */
  readonly log10Constant: number;
  /** The polynomial degree in the input length: `U`, plus one when the pattern is unanchored. */
  readonly degree: number;
}

/** A repetition whose range is at most this wide counts as a constant, not as a factor of `n`. */
const SMALL_RANGE = 16;

interface Shape {
  /** log10 of the bounded choices. */
  log: number;
  /** Repetitions that scale with the input. */
  u: number;
  /** Whether the sub-pattern can match in more than one way at all. */
  branches: boolean;
}

class Unbounded extends Error {}

const LEAF: Shape = { log: 0, u: 0, branches: false };

function seq(elements: readonly AST.Element[]): Shape {
  let log = 0;
  let u = 0;
  let branches = false;
  for (const e of elements) {
    const s = element(e);
    log += s.log;
    u += s.u;
    branches ||= s.branches;
  }
  return { log, u, branches };
}

function disjunction(alternatives: readonly AST.Alternative[]): Shape {
  if (alternatives.length === 1) return seq((alternatives[0] as AST.Alternative).elements);
  // The alternatives' combinations add up; bound the sum by count × the largest.
  let log = 0;
  let u = 0;
  for (const a of alternatives) {
    const s = seq(a.elements);
    log = Math.max(log, s.log);
    u = Math.max(u, s.u);
  }
  return { log: log + Math.log10(alternatives.length), u, branches: true };
}

function element(e: AST.Element): Shape {
  switch (e.type) {
    case 'Character':
    case 'CharacterSet':
    case 'CharacterClass':
    case 'ExpressionCharacterClass':
      return LEAF;
    case 'Backreference':
      // What a backreference matches depends on an earlier choice: no bound from this model.
      throw new Unbounded();
    case 'Assertion':
      if (e.kind === 'lookahead' || e.kind === 'lookbehind') {
        const s = disjunction(e.alternatives);
        if (s.branches) throw new Unbounded();
      }
      return LEAF;
    case 'Group':
    case 'CapturingGroup':
      return disjunction(e.alternatives);
    case 'Quantifier': {
      const inner = element(e.element);
      if (e.max <= 1) {
        // `x?`: two ways, times the inner ways.
        return { log: inner.log + Math.log10(2), u: inner.u, branches: true };
      }
      // A repeated sub-pattern that can itself match in several ways is the exponential case.
      if (inner.branches) throw new Unbounded();
      const range = e.max - e.min;
      if (range === 0) return inner;
      if (range < SMALL_RANGE) return { log: Math.log10(range + 1), u: 0, branches: true };
      return { log: 0, u: 1, branches: true };
    }
    default:
      return LEAF;
  }
}

/** True when every alternative of the pattern starts with `^` (no `m` flag: start of input only). */
function anchored(pattern: AST.Pattern): boolean {
  return pattern.alternatives.every((a) => {
    const first = a.elements[0];
    return first !== undefined && first.type === 'Assertion' && first.kind === 'start';
  });
}

const parser = new RegExpParser({ ecmaVersion: 2024 });

export function analysePattern(source: string): PatternCost {
  let ast: AST.Pattern;
  try {
    ast = parser.parsePattern(source, 0, source.length, { unicode: true });
  } catch {
    // V8 accepted it (checked before), the parser did not: make no claim about it.
    return { bounded: false, log10Constant: 0, degree: 0 };
  }
  try {
    const s = disjunction(ast.alternatives);
    return {
      bounded: true,
      log10Constant: s.log + Math.log10(Math.max(1, source.length)),
      degree: s.u + (anchored(ast) ? 0 : 1),
    };
  } catch (e) {
    if (e instanceof Unbounded) return { bounded: false, log10Constant: 0, degree: 0 };
    throw e;
  }
}
