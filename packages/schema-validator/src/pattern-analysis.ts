// A static bound on the work a backtracking engine can do for a pattern on a string of length `n`.
//
// The engine is V8's irregexp: only patterns that are provably cheap for the string at hand run on it.
//
// The model: for each sub-pattern `e`, `P(e)` bounds the number of ways it can match from a position
// (the combinations a backtracking search may try) and `T(e)` the steps needed to try them all. A
// sequence tries the rest once per way of its head: `T(a b) = T(a) + P(a) · T(b)`, `P(a b) = P(a) · P(b)`;
// alternatives add up. A character costs one step. A repetition of a sub-pattern that matches in one
// way only is tried once per count it can reach, and the counts it can reach are limited by the input:
// `k = min(max, n + 1)` iterations, each costing `T(inner)` — so `{1000}` costs a thousand times its
// body, not one step. A lookaround runs its body to completion every time it is reached (its own choices
// are not backtracked into later: ECMAScript lookarounds are atomic), so it costs `T(body)` and matches
// in one way. A backreference compares up to `n` characters. The whole pattern is tried from each of
// the `n + 1` start positions unless every alternative starts with `^`.
//
// A repetition (past a small count) of a sub-pattern that can itself match in several ways — `(a+)+`,
// `(a|b)*`, `(\w+\s?)*` — has no polynomial bound: such a pattern is `unbounded`.

import type { AST } from '@eslint-community/regexpp';
import { RegExpParser } from '@eslint-community/regexpp';

export interface PatternCost {
  /** False when the pattern has no polynomial bound (see above), or could not be analysed. */
  readonly bounded: boolean;
  /** Whether the pattern has a lookahead or a lookbehind. */
  readonly lookaround: boolean;
  /** An upper bound on the backtracking steps for a string of `n` UTF-16 units; Infinity when unbounded. */
  steps(n: number): number;
}

/** A repetition up to this count of a multi-way sub-pattern is expanded (`(a|b){3}`: 2³ ways), not refused. */
const SMALL_COUNT = 16;

interface Cost {
  /** Steps to try every way. */
  t: number;
  /** Ways to match. */
  p: number;
  /** Shortest match, in characters. */
  min: number;
}

class Unbounded extends Error {}

class Model {
  lookaround = false;

  constructor(private readonly n: number) {}

  disjunction(alternatives: readonly AST.Alternative[]): Cost {
    let t = 0;
    let p = 0;
    let min = Infinity;
    for (const a of alternatives) {
      const c = this.sequence(a.elements);
      t += c.t;
      p += c.p;
      min = Math.min(min, c.min);
    }
    return { t, p, min };
  }

  private sequence(elements: readonly AST.Element[]): Cost {
    // Folded from the end: each element tries what follows once per way it matches.
    let t = 1;
    let p = 1;
    let min = 0;
    for (let i = elements.length - 1; i >= 0; i--) {
      const c = this.element(elements[i] as AST.Element);
      t = c.t + c.p * t;
      p *= c.p;
      min += c.min;
    }
    return { t, p, min };
  }

  private element(e: AST.Element): Cost {
    switch (e.type) {
      case 'Character':
      case 'CharacterSet':
      case 'CharacterClass':
      case 'ExpressionCharacterClass':
        return { t: 1, p: 1, min: 1 };
      case 'Backreference':
        return { t: this.n + 1, p: 1, min: 0 };
      case 'Assertion':
        if (e.kind === 'lookahead' || e.kind === 'lookbehind') {
          this.lookaround = true;
          return { t: this.disjunction(e.alternatives).t + 1, p: 1, min: 0 };
        }
        return { t: 1, p: 1, min: 0 };
      case 'Group':
      case 'CapturingGroup':
        return this.disjunction(e.alternatives);
      case 'Quantifier':
        return this.quantifier(e);
      default:
        throw new Unbounded();
    }
  }

  private quantifier(q: AST.Quantifier): Cost {
    const inner = this.element(q.element);
    const min = q.min * inner.min;
    if (inner.p > 1 && q.max > 1) {
      // Every count is a product of the inner choices: exponential unless the count is small.
      if (q.max > SMALL_COUNT) throw new Unbounded();
      const ways = (q.max - q.min + 1) * inner.p ** q.max;
      return { t: (q.max - q.min + 1) * q.max * inner.p ** (q.max - 1) * inner.t + 1, p: ways, min };
    }
    // Iterations that consume input stop at the end of it; an empty one past the minimum ends the loop.
    const reach = inner.min >= 1 ? Math.min(q.max, this.n + 1) : Math.min(q.max, q.min + this.n + 1);
    const counts = Math.max(1, reach - Math.min(q.min, reach) + 1);
    return { t: reach * inner.t + 1, p: counts * inner.p, min };
  }
}

/** True when every alternative of the pattern starts with `^` (no `m` flag: start of input only). */
function anchored(pattern: AST.Pattern): boolean {
  return pattern.alternatives.every((a) => {
    const first = a.elements[0];
    return first !== undefined && first.type === 'Assertion' && first.kind === 'start';
  });
}

// ES2025: a runtime whose V8 takes duplicate named groups (`(?<x>a)|(?<x>b)`, Node 24) gets an AST for them.
const parser = new RegExpParser({ ecmaVersion: 2025 });

/** The nodes directly inside `n` that can hold groups or characters (a class's members are not walked). */
export function childrenOf(n: AST.Node): readonly AST.Node[] {
  switch (n.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return n.alternatives;
    case 'Alternative':
      return n.elements;
    case 'Assertion':
      return n.kind === 'lookahead' || n.kind === 'lookbehind' ? n.alternatives : [];
    case 'Quantifier':
      return [n.element];
    default:
      return [];
  }
}

/** Whether any group sets modifiers (`(?i:…)`), which no matcher here implements. */
function hasModifiers(n: AST.Node): boolean {
  return (n.type === 'Group' && n.modifiers !== null) || childrenOf(n).some(hasModifiers);
}

/** The pattern's AST (`u` mode), or undefined when regexpp does not read it as V8 does (or uses modifiers). */
export function parsePattern(source: string): AST.Pattern | undefined {
  try {
    const ast = parser.parsePattern(source, 0, source.length, { unicode: true });
    return hasModifiers(ast) ? undefined : ast;
  } catch {
    return undefined;
  }
}

const UNKNOWN: PatternCost = { bounded: false, lookaround: true, steps: () => Infinity };

export function analysePattern(source: string | AST.Pattern): PatternCost {
  const ast = typeof source === 'string' ? parsePattern(source) : source;
  // V8 accepted it (checked before), the parser did not: make no claim about it.
  if (ast === undefined) return UNKNOWN;
  const starts = anchored(ast) ? () => 1 : (n: number) => n + 1;
  // Ways only grow with the input, so a long one shows whether any repetition is exponential.
  const probe = new Model(1e9);
  try {
    probe.disjunction(ast.alternatives);
  } catch (e) {
    if (e instanceof Unbounded) return { bounded: false, lookaround: probe.lookaround, steps: () => Infinity };
    throw e;
  }
  return {
    bounded: true,
    lookaround: probe.lookaround,
    steps: (n) => starts(n) * new Model(n).disjunction(ast.alternatives).t,
  };
}

/** The longest string (in UTF-16 units) whose bound is within `budget` steps: -1 for none, Infinity for all. */
export function longestWithin(cost: PatternCost, budget: number, atMost = Infinity): number {
  if (!cost.bounded || cost.steps(0) > budget) return -1;
  // Bounds that stop growing (no repetition reaches past a fixed count) cover every length.
  if (atMost === Infinity && cost.steps(1e12) <= budget) return Infinity;
  let lo = 0;
  let hi = 1;
  while (hi <= atMost && cost.steps(hi) <= budget) {
    lo = hi;
    hi *= 2;
  }
  if (hi > atMost) {
    if (cost.steps(atMost) <= budget) return atMost;
    hi = atMost;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (cost.steps(mid) <= budget) lo = mid;
    else hi = mid;
  }
  return lo;
}
