// The backtracking matcher's program: a `u`-mode pattern's regexpp AST compiled to a flat Int32Array of opcodes.
//
// The program holds opcodes and operands, with the character tests its leaves use. pattern-backtrack.ts runs it.
import type { AST } from '@eslint-community/regexpp';
import { childrenOf } from './pattern-analysis.js';
import { charTest, literalTest, type CharTest } from './pattern-chars.js';

/** Quantifier bounds past this mean "unbounded": V8 clamps them to the same value. */
const MAX_COUNT = 0x7fffffff;

// The program: opcodes, each followed by its operands (their layout in the comment).
export const CHAR = 0; // test — one character, left to right
export const CHAR_BACK = 1; // test — one character, right to left
export const SPLIT = 2; // alt — try what follows first, then `alt`
export const JMP = 3; // to
export const SAVE = 4; // slot
export const AT_START = 5;
export const AT_END = 6;
export const WORD = 7;
export const NOT_WORD = 8;
export const REF = 9; // n, group × n — a backreference (several groups for a duplicated name: the one that is set)
export const REF_BACK = 10; // n, group × n
export const LOOK = 11; // negate, captures, next — the body follows, ending with MATCH; `next` is the continuation
export const LOOP = 12; // reg, min, max, greedy, exit, fromSlot, toSlot — ENTER follows
export const ENTER = 13; // loop — starts an iteration; the body follows
export const LOOP_END = 14; // loop
export const MATCH = 15;
export const GREEDY = 16; // test, min, max — a repeated single character, as many as it can first
export const GREEDY_BACK = 17;
export const LAZY = 18; // test, min, max — as few as it can first
export const LAZY_BACK = 19;

/** A compiled pattern: what the matcher runs, and the registers it needs. */
export interface Program {
  readonly code: Int32Array;
  readonly tests: readonly CharTest[];
  /** Groups some backreference reads (2 capture slots each). */
  readonly captureGroups: number;
  /** Counted loops (a count and a start register each). */
  readonly loops: number;
}

/** Compiles `pattern` (the whole match ends with `MATCH`). */
export function compileProgram(pattern: AST.Pattern): Program {
  const shared: Shared = { groups: numberGroups(pattern), loops: 0, tests: [], bySource: new Map() };
  const compiler = new Compiler(shared);
  compiler.disjunction(pattern.alternatives, false);
  compiler.code.push(MATCH);
  return {
    code: Int32Array.from(compiler.code),
    tests: shared.tests,
    captureGroups: shared.groups.size,
    loops: shared.loops,
  };
}

/** What the whole pattern shares while it is compiled: group numbers, loop registers, character tests. */
interface Shared {
  /** The groups a backreference reads, numbered from 0; the others are compiled as non-capturing. */
  readonly groups: Map<AST.CapturingGroup, number>;
  loops: number;
  readonly tests: CharTest[];
  readonly bySource: Map<string, number>;
}

class Compiler {
  readonly code: number[] = [];

  constructor(private readonly shared: Shared) {}

  private emit(...words: number[]): number {
    const at = this.code.length;
    for (const w of words) this.code.push(w);
    return at;
  }

  /** Alternatives in order: SPLIT a2; a1; JMP end; a2: SPLIT a3; a2; JMP end; … the last alone. */
  disjunction(alternatives: readonly AST.Alternative[], backward: boolean): void {
    const jumps: number[] = [];
    for (let i = 0; i < alternatives.length; i++) {
      const elements = alternatives[i]!.elements;
      if (i === alternatives.length - 1) {
        this.sequence(elements, backward);
        break;
      }
      const split = this.emit(SPLIT, 0);
      this.sequence(elements, backward);
      jumps.push(this.emit(JMP, 0));
      this.code[split + 1] = this.code.length;
    }
    for (const j of jumps) this.code[j + 1] = this.code.length;
  }

  private sequence(elements: readonly AST.Element[], backward: boolean): void {
    // Right to left, a lookbehind's body reads its last element first (§22.2.2.3, direction backward).
    if (backward) for (let i = elements.length - 1; i >= 0; i--) this.element(elements[i]!, backward);
    else for (const e of elements) this.element(e, backward);
  }

  /** The index of the character test for a leaf, shared by every leaf with the same source. */
  private test(e: AST.Node): number {
    let i = this.shared.bySource.get(e.raw);
    if (i === undefined) {
      i = this.shared.tests.length;
      this.shared.tests.push(e.type === 'Character' ? literalTest(e.value) : charTest(e.raw));
      this.shared.bySource.set(e.raw, i);
    }
    return i;
  }

  private element(e: AST.Element, backward: boolean): void {
    switch (e.type) {
      case 'Character':
      case 'CharacterSet':
      case 'CharacterClass':
        this.emit(backward ? CHAR_BACK : CHAR, this.test(e));
        return;
      case 'Group':
        return this.alternatives(e, backward);
      case 'CapturingGroup': {
        const n = this.shared.groups.get(e);
        // What a group captures matters only to a backreference: `test` reports no captures.
        if (n === undefined) return this.alternatives(e, backward);
        // Read right to left, the group's end is where its reading starts.
        this.emit(SAVE, backward ? 2 * n + 1 : 2 * n);
        this.alternatives(e, backward);
        this.emit(SAVE, backward ? 2 * n : 2 * n + 1);
        return;
      }
      case 'Backreference': {
        if (insideItsGroup(e)) return;
        const targets = Array.isArray(e.resolved) ? e.resolved : [e.resolved];
        this.emit(backward ? REF_BACK : REF, targets.length, ...targets.map((g) => this.shared.groups.get(g)!));
        return;
      }
      case 'Assertion':
        switch (e.kind) {
          case 'start':
            this.emit(AT_START);
            return;
          case 'end':
            this.emit(AT_END);
            return;
          case 'word':
            this.emit(e.negate ? NOT_WORD : WORD);
            return;
          default: {
            // The body is compiled in place, in its own direction, ending with MATCH; `next` skips it.
            // `captures`: whether the body sets a group a backreference reads (its records then matter).
            const [from, to] = slotRange(e, this.shared.groups);
            const look = this.emit(LOOK, e.negate ? 1 : 0, to > from ? 1 : 0, 0);
            this.disjunction(e.alternatives, e.kind === 'lookbehind');
            this.emit(MATCH);
            this.code[look + 3] = this.code.length;
            return;
          }
        }
      case 'Quantifier':
        return this.quantifier(e, backward);
      default:
        throw new TypeError(`unexpected pattern element ${(e as { type: string }).type}`);
    }
  }

  /**
   * A group's alternatives; when each is one character (`(a|b|\d)`), a single test on the group's source:
   * whichever alternative matches, the same character is read, so the choice would be one to nothing.
   */
  private alternatives(e: AST.Group | AST.CapturingGroup, backward: boolean): void {
    if (e.alternatives.length > 1 && oneCharacterEach(e, this.shared.groups))
      this.emit(backward ? CHAR_BACK : CHAR, this.test(e));
    else this.disjunction(e.alternatives, backward);
  }

  private quantifier(q: AST.Quantifier, backward: boolean): void {
    // `{0}` never runs its atom (RepeatMatcher step 1: max = 0 calls the continuation, resetting nothing).
    if (q.max === 0) return;
    const min = Math.min(q.min, MAX_COUNT);
    const max = Math.min(q.max, MAX_COUNT);
    if (oneCharacter(q.element, this.shared.groups)) {
      // A run of single characters (`\w+`, `.*?`, `(?:a|b){0,80}`) keeps one record for the whole run, not
      // one per character: a million-character input would otherwise need tens of millions of entries.
      const op = q.greedy ? (backward ? GREEDY_BACK : GREEDY) : backward ? LAZY_BACK : LAZY;
      this.emit(op, this.test(q.element), min, max);
      return;
    }
    if (min === 1 && max === 1) {
      // One mandatory iteration: its captures are unset when it starts, and no empty check applies.
      this.element(q.element, backward);
      return;
    }
    const reg = this.shared.loops++;
    const [first, to] = slotRange(q.element, this.shared.groups);
    let from = first;
    // A group an iteration starts with is set afresh by every iteration that completes, and nothing can
    // read it while it is open (a backreference inside its own group is compiled to nothing): it needs
    // no reset. Resets cost stack, and `(?:(a|b)\1)*` on a long input is made of them.
    const atom = q.element;
    const lead =
      atom.type === 'Group' && atom.alternatives.length === 1 && !backward ? atom.alternatives[0]!.elements[0] : atom;
    // The first group by opening parenthesis has the lowest number: its slots are the first two of the range.
    if (lead?.type === 'CapturingGroup' && this.shared.groups.has(lead)) from += 2;
    const loop = this.emit(LOOP, reg, min, max, q.greedy ? 1 : 0, 0, from, to);
    this.emit(ENTER, loop);
    this.element(q.element, backward);
    this.emit(LOOP_END, loop);
    this.code[loop + 5] = this.code.length;
  }
}

/**
 * Whether `e` always matches exactly one character, in whichever of its ways, with no capture: a leaf, or a
 * non-capturing group of such alternatives (`(?:a|\d)`). Which way it matches then changes nothing that
 * follows, so a V8 test on its source can stand for it.
 */
function oneCharacter(e: AST.Node, groups: Map<AST.CapturingGroup, number>): boolean {
  switch (e.type) {
    case 'Character':
    case 'CharacterSet':
    case 'CharacterClass':
      return true;
    case 'CapturingGroup':
    case 'Group':
      // A group no backreference reads captures nothing that matters.
      return !(e.type === 'CapturingGroup' && groups.has(e)) && oneCharacterEach(e, groups);
    default:
      return false;
  }
}

/** Whether each alternative of `e` is one element matching exactly one character, with no capture. */
function oneCharacterEach(e: AST.Group | AST.CapturingGroup, groups: Map<AST.CapturingGroup, number>): boolean {
  return e.alternatives.every((a) => a.elements.length === 1 && oneCharacter(a.elements[0]!, groups));
}

/**
 * A backreference inside the group it refers to: nothing can have been captured yet, and V8 compiles it to
 * nothing (which shows only between the halves of a pair, where any other backreference fails).
 */
function insideItsGroup(e: AST.Backreference): boolean {
  const targets = Array.isArray(e.resolved) ? e.resolved : [e.resolved];
  return targets.some((g) => e.start > g.start && e.end <= g.end);
}

/** The capture slots of the groups inside `e` (first slot, slot after the last), for the per-iteration reset. */
function slotRange(e: AST.Node, groups: Map<AST.CapturingGroup, number>): [number, number] {
  let low = Infinity;
  let high = -1;
  const visit = (n: AST.Node): void => {
    const g = n.type === 'CapturingGroup' ? groups.get(n) : undefined;
    if (g !== undefined) {
      low = Math.min(low, g);
      high = Math.max(high, g);
    }
    for (const child of childrenOf(n)) visit(child);
  };
  visit(e);
  // Groups are numbered in the order of their opening parentheses, so those inside one atom are consecutive.
  return high < 0 ? [0, 0] : [2 * low, 2 * high + 2];
}

/** The groups some backreference reads, numbered from 0 in the order of their opening parentheses. */
function numberGroups(pattern: AST.Pattern): Map<AST.CapturingGroup, number> {
  const read = new Set<AST.CapturingGroup>();
  const refs = (n: AST.Node): void => {
    if (n.type === 'Backreference' && !insideItsGroup(n))
      for (const g of Array.isArray(n.resolved) ? n.resolved : [n.resolved]) read.add(g);
    for (const child of childrenOf(n)) refs(child);
  };
  refs(pattern);
  const groups = new Map<AST.CapturingGroup, number>();
  const visit = (n: AST.Node): void => {
    if (n.type === 'CapturingGroup' && read.has(n)) groups.set(n, groups.size);
    for (const child of childrenOf(n)) visit(child);
  };
  visit(pattern);
  return groups;
}
