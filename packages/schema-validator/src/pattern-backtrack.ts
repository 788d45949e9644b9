// A backtracking matcher for every `u`-mode pattern (backreferences and lookarounds included) that counts its
// work in steps: the engine for what the linear matcher cannot run, on any runtime, with no thread and no clock.
//
// Why: V8's own engine can backtrack for minutes and cannot always be interrupted; run on a worker thread
// under a wall-clock deadline (what this replaces), a verdict depended on how busy the machine was, and
// browsers and Workers have no worker threads at all. Here the same input under the same budget always
// gets the same verdict, everywhere.
//
// How: the regexpp AST is compiled to a small program run by a loop with an explicit backtrack stack (no
// recursion that grows with the input: a million characters do not overflow the JS stack). It follows
// ECMA-262 §22.2.2's semantics where they decide whether a match exists: alternatives and quantifiers tried
// in order (greedy or lazy), counted repetitions kept as counters (never expanded), captures reset at the
// start of each iteration, an iteration past the minimum that matches empty fails, a backreference to a
// group not set matches empty, lookarounds atomic (their captures kept from the first success; none from
// a negative one), lookbehind bodies read right to left. Every character test is V8's own (a one-character
// RegExp per leaf, cached), as in the linear matcher.

import type { AST } from '@eslint-community/regexpp';
import { charTest, isWordChar, literalTest, matches, type CharTest } from './pattern-nfa.js';

/**
 * Thrown when a match has done its budget of steps (`'steps'`: counted, so the verdict never depends on the
 * clock), or would need more backtracking memory than a check may use (`'stack'`).
 */
export class BacktrackBudget extends Error {
  constructor(readonly kind: 'steps' | 'stack') {
    super(kind === 'steps' ? 'step budget exceeded' : 'backtrack stack too large');
  }
}

/**
 * Steps one millisecond of a pattern budget buys: about what this matcher does in a millisecond on a 2-core
 * AMD EPYC (measured 35,000–70,000 a ms on catastrophic backtracking, cold to warm; about the slowest is
 * taken, so a budget in milliseconds is not exceeded by much on such a machine).
 */
export const BACKTRACK_STEPS_PER_MS = 30_000;

/** Backtrack entries past this make the match too large to decide (memory stays bounded). */
const MAX_STACK = 4_000_000;

const CHAR = 0;
const SPLIT = 1;
const JMP = 2;
const SAVE = 3;
const ASSERT = 4;
const BACKREF = 5;
const LOOK = 6;
const LOOP_INIT = 7;
const LOOP_TEST = 8;
const ITER_START = 9;
const ITER_END = 10;
const MATCH = 11;
const GREEDY_CHARS = 12;

const AT_START = 0;
const AT_END = 1;
const WORD_BOUNDARY = 2;
const NOT_WORD_BOUNDARY = 3;

type Instruction =
  | { readonly op: typeof CHAR; readonly test: CharTest }
  | { readonly op: typeof SPLIT; x: number; y: number }
  | { readonly op: typeof JMP; x: number }
  | { readonly op: typeof SAVE; readonly slot: number }
  | { readonly op: typeof ASSERT; readonly kind: number }
  | { readonly op: typeof BACKREF; readonly group: number }
  | { readonly op: typeof LOOK; readonly program: Program; readonly negate: boolean }
  | { readonly op: typeof LOOP_INIT; readonly reg: number }
  | {
      readonly op: typeof LOOP_TEST;
      readonly reg: number;
      readonly min: number;
      readonly max: number;
      readonly greedy: boolean;
      readonly body: number;
      exit: number;
    }
  | { readonly op: typeof ITER_START; readonly reg: number; readonly from: number; readonly to: number }
  | { readonly op: typeof ITER_END; readonly reg: number; readonly min: number; readonly top: number }
  | { readonly op: typeof MATCH }
  | { readonly op: typeof GREEDY_CHARS; readonly test: CharTest; readonly min: number; readonly max: number };

interface Program {
  readonly code: Instruction[];
  /** Read right to left (a lookbehind's body). */
  readonly backward: boolean;
}

/** What the whole pattern shares: group numbers, loop registers, character tests by source. */
interface Shared {
  readonly groups: Map<AST.CapturingGroup, number>;
  loops: number;
  readonly tests: Map<string, CharTest>;
}

class Compiler {
  readonly code: Instruction[] = [];

  constructor(
    private readonly shared: Shared,
    private readonly backward: boolean,
  ) {}

  private emit(i: Instruction): number {
    this.code.push(i);
    return this.code.length - 1;
  }

  disjunction(alternatives: readonly AST.Alternative[]): void {
    if (alternatives.length === 1) return this.sequence(alternatives[0]!.elements);
    // SPLIT a1, next; a1; JMP end; next: SPLIT a2, next2; … last alternative alone.
    const jumps: { x: number }[] = [];
    for (let i = 0; i < alternatives.length; i++) {
      if (i < alternatives.length - 1) {
        const split = this.emit({ op: SPLIT, x: 0, y: 0 });
        (this.code[split] as { x: number }).x = this.code.length;
        this.sequence(alternatives[i]!.elements);
        jumps.push(this.code[this.emit({ op: JMP, x: 0 })] as { x: number });
        (this.code[split] as { y: number }).y = this.code.length;
      } else this.sequence(alternatives[i]!.elements);
    }
    for (const j of jumps) j.x = this.code.length;
  }

  private sequence(elements: readonly AST.Element[]): void {
    // Right to left, a lookbehind's body reads its last element first.
    if (this.backward) for (let i = elements.length - 1; i >= 0; i--) this.element(elements[i]!);
    else for (const e of elements) this.element(e);
  }

  private element(e: AST.Element): void {
    switch (e.type) {
      case 'Character':
      case 'CharacterSet':
      case 'CharacterClass': {
        let test = this.shared.tests.get(e.raw);
        if (test === undefined) {
          test = e.type === 'Character' ? literalTest(e.value) : charTest(e.raw);
          this.shared.tests.set(e.raw, test);
        }
        this.emit({ op: CHAR, test });
        return;
      }
      case 'Group':
        return this.disjunction(e.alternatives);
      case 'CapturingGroup': {
        const n = this.shared.groups.get(e)!;
        // Read right to left, the group's end is where its reading starts (§22.2.2.x, direction backward).
        this.emit({ op: SAVE, slot: this.backward ? 2 * n + 1 : 2 * n });
        this.disjunction(e.alternatives);
        this.emit({ op: SAVE, slot: this.backward ? 2 * n : 2 * n + 1 });
        return;
      }
      case 'Backreference': {
        const target = Array.isArray(e.resolved) ? e.resolved[0] : e.resolved;
        this.emit({ op: BACKREF, group: this.shared.groups.get(target as AST.CapturingGroup)! });
        return;
      }
      case 'Assertion':
        switch (e.kind) {
          case 'start':
            this.emit({ op: ASSERT, kind: AT_START });
            return;
          case 'end':
            this.emit({ op: ASSERT, kind: AT_END });
            return;
          case 'word':
            this.emit({ op: ASSERT, kind: e.negate ? NOT_WORD_BOUNDARY : WORD_BOUNDARY });
            return;
          default: {
            const body = new Compiler(this.shared, e.kind === 'lookbehind');
            body.disjunction(e.alternatives);
            body.code.push({ op: MATCH });
            this.emit({ op: LOOK, program: { code: body.code, backward: e.kind === 'lookbehind' }, negate: e.negate });
            return;
          }
        }
      case 'Quantifier':
        return this.quantifier(e);
      default:
        throw new TypeError(`unexpected pattern element ${(e as { type: string }).type}`);
    }
  }

  private quantifier(q: AST.Quantifier): void {
    if (q.max === 0) return;
    const e = q.element;
    // `\w+`, `.*`, `[^,]{0,80}` read forward: all the characters it can, then give them back one at a time
    // on backtracking from a single record (a record per character made a million-character input
    // need tens of millions of stack entries).
    if (
      q.greedy &&
      !this.backward &&
      (e.type === 'Character' || e.type === 'CharacterSet' || e.type === 'CharacterClass')
    ) {
      let test = this.shared.tests.get(e.raw);
      if (test === undefined) {
        test = e.type === 'Character' ? literalTest(e.value) : charTest(e.raw);
        this.shared.tests.set(e.raw, test);
      }
      this.emit({ op: GREEDY_CHARS, test, min: q.min, max: q.max });
      return;
    }
    const reg = this.shared.loops++;
    const [from, to] = groupRange(q.element, this.shared.groups);
    this.emit({ op: LOOP_INIT, reg });
    const top = this.emit({ op: LOOP_TEST, reg, min: q.min, max: q.max, greedy: q.greedy, body: 0, exit: 0 });
    const test = this.code[top] as { body: number; exit: number };
    test.body = this.emit({ op: ITER_START, reg, from, to });
    this.element(q.element);
    this.emit({ op: ITER_END, reg, min: q.min, top });
    test.exit = this.code.length;
  }
}

/** The capture slots of the groups inside `e` (first slot, slot after the last), for the per-iteration reset. */
function groupRange(e: AST.Node, groups: Map<AST.CapturingGroup, number>): [number, number] {
  let low = Infinity;
  let high = -1;
  const visit = (n: AST.Node): void => {
    if (n.type === 'CapturingGroup') {
      const g = groups.get(n)!;
      low = Math.min(low, g);
      high = Math.max(high, g);
    }
    for (const child of childrenOf(n)) visit(child);
  };
  visit(e);
  return high < 0 ? [0, 0] : [2 * low, 2 * high + 2];
}

function childrenOf(n: AST.Node): readonly AST.Node[] {
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

/** Capturing groups numbered as ECMAScript numbers them: by their opening parenthesis, left to right. */
function numberGroups(pattern: AST.Pattern): Map<AST.CapturingGroup, number> {
  const groups = new Map<AST.CapturingGroup, number>();
  const visit = (n: AST.Node): void => {
    if (n.type === 'CapturingGroup') groups.set(n, groups.size + 1);
    for (const child of childrenOf(n)) visit(child);
  };
  visit(pattern);
  return groups;
}

// Backtrack stack records, three numbers each: a choice point (where to resume), or an undo of one write.
const CHOICE = 0;
const UNDO_CAPTURE = 1;
const UNDO_COUNT = 2;
const UNDO_START = 3;
/** Where a greedy run of characters may give back to (its minimum), then the record below: */
const GIVE_BACK_FLOOR = 4;
/** … a run of characters that may give back one more: resume at `index` from one character before `value`. */
const GIVE_BACK = 5;

/** A pattern compiled for this matcher; `test` answers as `new RegExp(source, 'u').test(input)` does. */
export class BacktrackMatcher {
  readonly #program: Program;
  readonly #groups: number;
  readonly #loops: number;
  #input = '';
  #steps = 0;
  #budget = 0;
  #count: Int32Array = new Int32Array(0);
  #start: Int32Array = new Int32Array(0);

  constructor(pattern: AST.Pattern) {
    const shared: Shared = { groups: numberGroups(pattern), loops: 0, tests: new Map() };
    const compiler = new Compiler(shared, false);
    compiler.disjunction(pattern.alternatives);
    compiler.code.push({ op: MATCH });
    this.#program = { code: compiler.code, backward: false };
    this.#groups = shared.groups.size;
    this.#loops = shared.loops;
  }

  /** Steps the last `test` took (to its answer, or to its budget). */
  get lastSteps(): number {
    return this.#steps;
  }

  /** Whether the pattern matches somewhere in `input`; throws `BacktrackBudget` past `budgetSteps` steps. */
  test(input: string, budgetSteps: number): boolean {
    this.#input = input;
    this.#steps = 0;
    this.#budget = budgetSteps;
    this.#count = new Int32Array(this.#loops);
    this.#start = new Int32Array(this.#loops);
    const captures = new Int32Array(2 * (this.#groups + 1)).fill(-1);
    try {
      for (let at = 0; at <= input.length;) {
        captures.fill(-1);
        if (this.#run(this.#program, at, captures) >= 0) return true;
        if (at === input.length) break;
        // Every code unit, as V8 tries them: one in the middle of a surrogate pair can match only what reads
        // no character there (an assertion, an empty group), since no character starts mid-pair.
        at++;
      }
      return false;
    } finally {
      this.#input = '';
    }
  }

  /** Runs `program` from `pos`; the position where it matched (captures set), or -1. */
  #run(program: Program, pos: number, captures: Int32Array): number {
    const code = program.code;
    const backward = program.backward;
    const input = this.#input;
    const count = this.#count;
    const start = this.#start;
    const stack: number[] = [];
    let pc = 0;
    for (;;) {
      if (++this.#steps > this.#budget) throw new BacktrackBudget('steps');
      const ins = code[pc]!;
      let ok = true;
      switch (ins.op) {
        case CHAR: {
          if (backward) {
            if (pos === 0 || isPairAt(input, pos - 1)) ok = false;
            else {
              const width = isPairBefore(input, pos) ? 2 : 1;
              const cp = input.codePointAt(pos - width)!;
              if (matches(ins.test, cp)) {
                pos -= width;
                pc++;
              } else ok = false;
            }
          } else if (pos >= input.length || (pos > 0 && isPairAt(input, pos - 1))) ok = false;
          else {
            const cp = input.codePointAt(pos)!;
            // A lone surrogate is a character of its own; a pair is one.
            const width = cp > 0xffff ? 2 : 1;
            if (matches(ins.test, cp)) {
              pos += width;
              pc++;
            } else ok = false;
          }
          break;
        }
        case SPLIT:
          stack.push(CHOICE, ins.y, pos);
          pc = ins.x;
          break;
        case JMP:
          pc = ins.x;
          break;
        case SAVE:
          stack.push(UNDO_CAPTURE, ins.slot, captures[ins.slot]!);
          captures[ins.slot] = pos;
          pc++;
          break;
        case ASSERT:
          ok = assertion(ins.kind, input, pos);
          if (ok) pc++;
          break;
        case BACKREF: {
          const from = captures[2 * ins.group]!;
          const to = captures[2 * ins.group + 1]!;
          // A group not set (or not finished) matches the empty string.
          if (from < 0 || to < 0) {
            pc++;
            break;
          }
          const length = to - from;
          if (backward) {
            if (pos - length < 0 || !sameText(input, from, pos - length, length)) ok = false;
            else pos -= length;
          } else if (pos + length > input.length || !sameText(input, from, pos, length)) ok = false;
          else pos += length;
          // As V8 has it in u mode: a backreference does not end in the middle of a surrogate pair.
          if (ok && length > 0 && pos > 0 && isPairAt(input, pos - 1)) ok = false;
          if (ok) pc++;
          break;
        }
        case LOOK: {
          // Atomic: run to its first success on a copy of the captures, never backtracked into.
          const inner = captures.slice();
          const matched = this.#run(ins.program, pos, inner) >= 0;
          if (matched === ins.negate) ok = false;
          else {
            if (!ins.negate)
              for (let i = 0; i < inner.length; i++)
                if (inner[i] !== captures[i]) {
                  stack.push(UNDO_CAPTURE, i, captures[i]!);
                  captures[i] = inner[i]!;
                }
            pc++;
          }
          break;
        }
        case LOOP_INIT:
          stack.push(UNDO_COUNT, ins.reg, count[ins.reg]!, UNDO_START, ins.reg, start[ins.reg]!);
          count[ins.reg] = 0;
          pc++;
          break;
        case LOOP_TEST: {
          const n = count[ins.reg]!;
          if (n < ins.min) pc = ins.body;
          else if (n >= ins.max) pc = ins.exit;
          else if (ins.greedy) {
            stack.push(CHOICE, ins.exit, pos);
            pc = ins.body;
          } else {
            stack.push(CHOICE, ins.body, pos);
            pc = ins.exit;
          }
          break;
        }
        case ITER_START:
          stack.push(UNDO_START, ins.reg, start[ins.reg]!);
          start[ins.reg] = pos;
          // Each iteration starts with the captures inside the quantified atom unset (RepeatMatcher step 4).
          for (let i = ins.from; i < ins.to; i++)
            if (captures[i] !== -1) {
              stack.push(UNDO_CAPTURE, i, captures[i]!);
              captures[i] = -1;
            }
          pc++;
          break;
        case ITER_END: {
          const n = count[ins.reg]!;
          // An iteration past the minimum that consumed nothing fails (RepeatMatcher's continuation).
          if (n >= ins.min && pos === start[ins.reg]) ok = false;
          else {
            stack.push(UNDO_COUNT, ins.reg, n);
            count[ins.reg] = n + 1;
            pc = ins.top;
          }
          break;
        }
        case MATCH:
          return pos;
        case GREEDY_CHARS: {
          const from = pos;
          let n = 0;
          // No character starts in the middle of a surrogate pair (as for CHAR).
          const midPair = pos > 0 && isPairAt(input, pos - 1);
          while (!midPair && n < ins.max && pos < input.length) {
            if (++this.#steps > this.#budget) throw new BacktrackBudget('steps');
            const cp = input.codePointAt(pos)!;
            if (!matches(ins.test, cp)) break;
            pos += cp > 0xffff ? 2 : 1;
            n++;
          }
          if (n < ins.min) {
            ok = false;
            break;
          }
          // Where giving back stops: after the minimum's characters.
          let floor = from;
          for (let i = 0; i < ins.min; i++) floor += isPairAt(input, floor) ? 2 : 1;
          if (pos > floor) stack.push(GIVE_BACK_FLOOR, 0, floor, GIVE_BACK, pc + 1, pos);
          pc++;
          break;
        }
      }
      if (ok) {
        if (stack.length > MAX_STACK) throw new BacktrackBudget('stack');
        continue;
      }
      // Failure: undo writes back to the latest choice point, and resume there.
      for (;;) {
        if (stack.length === 0) return -1;
        const value = stack.pop()!;
        const index = stack.pop()!;
        const kind = stack.pop()!;
        if (kind === CHOICE) {
          pc = index;
          pos = value;
          break;
        }
        if (kind === GIVE_BACK) {
          const floor = stack[stack.length - 1]!;
          const back = value - (isPairBefore(input, value) && value - 2 >= floor ? 2 : 1);
          if (back > floor) stack.push(GIVE_BACK, index, back);
          else stack.length -= 3; // the floor record: nothing more to give back
          pc = index;
          pos = back;
          break;
        }
        if (kind === GIVE_BACK_FLOOR) continue;
        if (kind === UNDO_CAPTURE) captures[index] = value;
        else if (kind === UNDO_COUNT) count[index] = value;
        else start[index] = value;
      }
    }
  }
}

function assertion(kind: number, input: string, pos: number): boolean {
  switch (kind) {
    case AT_START:
      return pos === 0;
    case AT_END:
      return pos === input.length;
    default: {
      const before = pos > 0 && isWordChar(input.charCodeAt(pos - 1));
      const after = pos < input.length && isWordChar(input.charCodeAt(pos));
      return (before !== after) === (kind === WORD_BOUNDARY);
    }
  }
}

/** Whether the code units at `a` and `b`, `length` of them, are the same (no flags: no case folding). */
function sameText(input: string, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (input.charCodeAt(a + i) !== input.charCodeAt(b + i)) return false;
  return true;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
const isPairAt = (s: string, i: number): boolean =>
  i + 1 < s.length && isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1));
const isPairBefore = (s: string, i: number): boolean =>
  i >= 2 && isLow(s.charCodeAt(i - 1)) && isHigh(s.charCodeAt(i - 2));
