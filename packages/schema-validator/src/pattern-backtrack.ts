// A step-counted backtracking matcher for every `u`-mode pattern: the engine for what the linear matcher cannot run.
//
// Over 450 lines as one job: running the program. The step loop is one function, a switch on the opcodes, so
// its state stays in locals, and the records it pushes (choice points, undos, loop registers) are popped by
// the same loop; split across modules it would cost a call per step.
//
// It counts its work in steps and takes backreferences and lookarounds too; it runs on any runtime, with no thread and
// no clock.
//
// Why: V8's own engine can backtrack for minutes and cannot be interrupted; run on a worker thread under a
// wall-clock deadline, a verdict depended on how busy the machine was, and browsers and Workers have no
// worker threads at all. Here the same input under the same budget always gets the same verdict, everywhere.
//
// How: the regexpp AST is compiled to a flat program (an Int32Array; pattern-program.ts) run by one loop with an
// explicit backtrack stack (an Int32Array too), so no JS recursion grows with the input: a million characters do not
// overflow the JS stack. Only a lookaround recurses, once per level of nesting in the pattern, and its
// records share the one stack, so a single cap bounds a check's memory. It follows ECMA-262 §22.2.2's
// semantics where they decide whether a match exists: alternatives and quantifiers tried in order (greedy
// or lazy); counted repetitions kept as counters, never expanded; the captures inside a quantified atom reset
// at the start of each iteration (RepeatMatcher step 4); an iteration past the minimum that matches empty
// fails; a backreference to a group not set matches empty; lookarounds atomic (their captures kept from the
// body's first match, none from a negative one); lookbehind bodies read right to left; the input read by
// code point (a lone surrogate is a character of its own). Every character test is V8's own (a one-character
// RegExp per leaf, cached; see pattern-chars.ts), as in the linear matcher.

import type { AST } from '@eslint-community/regexpp';
import { isWordChar, matches, type CharTest } from './pattern-chars.js';
import {
  AT_END,
  AT_START,
  CHAR,
  CHAR_BACK,
  compileProgram,
  ENTER,
  GREEDY,
  GREEDY_BACK,
  JMP,
  LAZY,
  LAZY_BACK,
  LOOK,
  LOOP,
  LOOP_END,
  MATCH,
  NOT_WORD,
  REF,
  REF_BACK,
  SAVE,
  SPLIT,
  WORD,
} from './pattern-program.js';

/**
 * Thrown when a match has done its budget of steps (`'steps'`: counted, so the verdict never depends on the
 * clock), or would need more backtracking memory than a check may use (`'stack'`, see
 * `BACKTRACK_STACK_LIMIT`). Either way the input was not decided.
 */
export class BacktrackBudget extends Error {
  constructor(readonly kind: 'steps' | 'stack') {
    super(kind === 'steps' ? 'step budget exceeded' : 'backtrack stack too large');
  }
}

/**
 * Steps one millisecond of a pattern budget buys. Measured on a 2-core Intel Xeon VM (Node 20, a shared
 * machine), steps per ms once warm, median of 9 runs of 150 ms each, three rounds:
 *   `^[a-z]+$`, 100,000 characters                       290,000–310,000 (one record for the whole run)
 *   `^(\w+)(?:,\s?\1)*$`, a valid 10,000-character list  88,000–95,000
 *   `^(?:(?=[a-z])(?!x)\w)+$`, 10,000 characters         110,000–118,000
 *   `^(?:(?<=[a-z]|^)\d|[a-z])+$`, 10,000 characters     45,000–133,000 (as the JIT turns out)
 *   `^(?:(?=(\w))\1)+$`, 10,000 characters               38,000–86,000 (a capture kept from a lookahead)
 *   `^(a+)+$`, 20 `a`s and a `b` (5 million steps)       89,000–96,000
 * A process's first check runs slower while V8 compiles the matcher (3,000–9,000 a ms over the first
 * millisecond or two; a long check is compiled as it runs). This is the slowest rate seen, lookarounds
 * with captures, rounded down: a budget in milliseconds is not overrun on such a machine.
 */
export const BACKTRACK_STEPS_PER_MS = 30_000;

/**
 * Backtrack stack entries (32-bit) one check may hold, its lookarounds' included: 32 MB. A greedy loop
 * costs 5 entries an iteration and a greedy character run 4 in all, so a million-character input fits
 * unless nearly every character leaves a choice behind.
 */
export const BACKTRACK_STACK_LIMIT = 1 << 23;

// Backtrack records, their kind on top (records differ in size): choice points to resume, and undos of
// writes. Popped on failure: an undo is applied and popping goes on; a choice point resumes the run.
const K_CHOICE = 0; // pc, pos
const K_CAPTURE = 1; // slot, old value
const K_LOOP = 2; // reg, old count, old start
/** Leave a greedy loop at `pos` instead of one more iteration (the registers are restored first). */
const K_LOOP_GREEDY = 3; // loop pc, old count, old start, pos
/** Run one more iteration of a lazy loop, the `n`th, from `pos`. */
const K_LOOP_LAZY = 4; // loop pc, pos, n
/** A greedy run of characters gives one back: resume at `pc` from one character before `pos`, down to `floor`. */
const K_GIVE = 5; // pc, floor, pos
const K_GIVE_BACK = 6; // pc, floor, pos (right to left: giving back moves `pos` right, up to `floor`)
/** A lazy run of characters takes one more (the instruction at `insPc`, `n` taken so far). */
const K_TAKE = 7; // insPc, pos, n
const K_TAKE_BACK = 8; // insPc, pos, n
const INITIAL_STACK = 1 << 10;
const RECORD_SIZE = [3, 3, 4, 5, 4, 4, 4, 4, 4];

const isHigh = (c: number): boolean => (c & 0xfc00) === 0xd800;
const isLow = (c: number): boolean => (c & 0xfc00) === 0xdc00;

/** Whether `i` falls between the two halves of a surrogate pair, where `u` mode reads no character. */
const insidePair = (s: string, i: number): boolean => i > 0 && isLow(s.charCodeAt(i)) && isHigh(s.charCodeAt(i - 1));

/** A pattern compiled for this matcher; `test` answers as `new RegExp(source, 'u').test(input)` does. */
export class BacktrackMatcher {
  readonly #code: Int32Array;
  readonly #tests: readonly CharTest[];
  /** Every test's ASCII answers in one table, at `test × 128 + code point`: one load on the hot path. */
  readonly #ascii: Uint8Array;
  /** Every alternative starts with `^`: a match can only begin at position 0. */
  readonly #anchored: boolean;
  /** Capture slots (start, end per group a backreference reads; -1 when not set). */
  readonly #caps: Int32Array;
  /** Per loop: iterations done before the current one, and where the current one started. */
  readonly #count: Int32Array;
  readonly #start: Int32Array;
  // Scratch for keeping a lookaround's captures: each slot's value before it, marked by generation.
  readonly #before: Int32Array;
  readonly #mark: Uint32Array;
  readonly #changed: Int32Array;
  #generation = 0;

  #stack: Int32Array = new Int32Array(INITIAL_STACK);
  #sp = 0;
  #input = '';
  #steps = 0;
  #budget = 0;

  constructor(pattern: AST.Pattern) {
    const program = compileProgram(pattern);
    this.#code = program.code;
    this.#tests = program.tests;
    this.#ascii = new Uint8Array(128 * program.tests.length);
    program.tests.forEach((t, i) => this.#ascii.set(t.ascii, 128 * i));
    this.#anchored = pattern.alternatives.every(
      (a) => a.elements[0]?.type === 'Assertion' && a.elements[0].kind === 'start',
    );
    const slots = 2 * program.captureGroups;
    this.#caps = new Int32Array(slots);
    this.#before = new Int32Array(slots);
    this.#mark = new Uint32Array(slots);
    this.#changed = new Int32Array(slots);
    this.#count = new Int32Array(program.loops);
    this.#start = new Int32Array(program.loops);
  }

  /** Steps the last `test` took (to its answer, or to its budget). */
  get lastSteps(): number {
    return this.#steps;
  }

  /**
   * Whether the pattern matches somewhere in `input`. Throws `BacktrackBudget` once it has done
   * `budgetSteps` steps (a step: one instruction, one character read by a repeated-character run, 16
   * characters compared by a backreference, one capture reset), or when it needs more than
   * `BACKTRACK_STACK_LIMIT` backtrack entries.
   */
  test(input: string, budgetSteps: number): boolean {
    this.#input = input;
    this.#steps = 0;
    this.#budget = budgetSteps;
    this.#sp = 0;
    this.#caps.fill(-1);
    try {
      // Every code unit, as V8 tries them: one between the halves of a surrogate pair can match only what
      // reads no character there (an assertion, an empty group). A failed attempt undoes all its writes.
      const last = this.#anchored ? 0 : input.length;
      for (let at = 0; at <= last; at++) if (this.#run(0, at) >= 0) return true;
      return false;
    } finally {
      this.#input = '';
      // A check that needed a large stack does not keep it.
      if (this.#stack.length > 64 * INITIAL_STACK) this.#stack = new Int32Array(INITIAL_STACK);
    }
  }

  /** Room for `need` entries: a larger stack (the entries below `sp` copied), or `BacktrackBudget('stack')`. */
  #grow(need: number, sp: number): Int32Array {
    if (need > BACKTRACK_STACK_LIMIT) throw new BacktrackBudget('stack');
    const grown = new Int32Array(Math.min(BACKTRACK_STACK_LIMIT, Math.max(need, 2 * this.#stack.length)));
    grown.set(this.#stack.subarray(0, sp));
    this.#stack = grown;
    return grown;
  }

  /**
   * Runs the program from `pc` at `pos`, on the stack above `this.#sp`. Returns where it matched, with its
   * records left on the stack (`this.#sp` above them), or -1 with the stack back where it was and every
   * write it made undone.
   */
  #run(pc: number, pos: number): number {
    const code = this.#code;
    const tests = this.#tests;
    const ascii = this.#ascii;
    const input = this.#input;
    const length = input.length;
    const caps = this.#caps;
    const count = this.#count;
    const start = this.#start;
    const budget = this.#budget;
    const base = this.#sp;
    let stack: Int32Array = this.#stack;
    let sp = base;
    let steps = this.#steps;
    run: for (;;) {
      if (++steps > budget) {
        this.#steps = steps;
        throw new BacktrackBudget('steps');
      }
      // Room for the records one instruction pushes (at most 5); a loop's capture reset makes its own.
      if (sp + 8 > stack.length) {
        this.#steps = steps; // what `lastSteps` reports if the stack cannot grow
        stack = this.#grow(sp + 8, sp);
      }
      switch (code[pc]) {
        case CHAR: {
          const next = stepForward(input, pos, ascii, tests, code[pc + 1]!);
          if (next < 0) break;
          pos = next;
          pc += 2;
          continue;
        }
        case CHAR_BACK: {
          const next = stepBackward(input, pos, ascii, tests, code[pc + 1]!);
          if (next < 0) break;
          pos = next;
          pc += 2;
          continue;
        }
        case SPLIT:
          stack[sp] = code[pc + 1]!;
          stack[sp + 1] = pos;
          stack[sp + 2] = K_CHOICE;
          sp += 3;
          pc += 2;
          continue;
        case JMP:
          pc = code[pc + 1]!;
          continue;
        case SAVE: {
          const slot = code[pc + 1]!;
          stack[sp] = slot;
          stack[sp + 1] = caps[slot]!;
          stack[sp + 2] = K_CAPTURE;
          sp += 3;
          caps[slot] = pos;
          pc += 2;
          continue;
        }
        case AT_START:
          if (pos !== 0) break;
          pc++;
          continue;
        case AT_END:
          if (pos !== length) break;
          pc++;
          continue;
        case WORD:
        case NOT_WORD: {
          const before = pos > 0 && isWordChar(input.charCodeAt(pos - 1));
          const after = pos < length && isWordChar(input.charCodeAt(pos));
          if ((before !== after) !== (code[pc] === WORD)) break;
          pc++;
          continue;
        }
        case REF:
        case REF_BACK: {
          const n = code[pc + 1]!;
          let from = -1;
          let to = -1;
          for (let k = 0; k < n; k++) {
            const g = code[pc + 2 + k]!;
            if (caps[2 * g]! >= 0 && caps[2 * g + 1]! >= 0) {
              from = caps[2 * g]!;
              to = caps[2 * g + 1]!;
              break;
            }
          }
          // A group not set (or still open) matches the empty string.
          const size = to - from;
          // Right to left, the text compared is the one ending here (BackreferenceMatcher, direction -1).
          const at = code[pc] === REF ? pos : pos - size;
          if (size > 0) {
            if (at < 0 || at + size > length) break;
            // A character compared costs a small part of an instruction (~2 ns against 10–40 ns).
            steps += size >> 4;
            if (steps > budget) {
              this.#steps = steps;
              throw new BacktrackBudget('steps');
            }
            let same = true;
            for (let i = 0; i < size; i++)
              if (input.charCodeAt(from + i) !== input.charCodeAt(at + i)) {
                same = false;
                break;
              }
            if (!same) break;
          }
          // Characters are compared, not code units, so the text must not end inside a pair; and V8 fails
          // every backreference, even an empty one, that ends between the halves of a pair.
          const end = code[pc] === REF ? at + size : at;
          if (insidePair(input, end)) break;
          pos = end;
          pc += 2 + n;
          continue;
        }
        case LOOK: {
          // Atomic: the body runs to its first match and is never backtracked into (§22.2.2.4).
          const mark = sp;
          this.#sp = sp;
          this.#steps = steps;
          const matched = this.#run(pc + 4, pos) >= 0;
          stack = this.#stack;
          steps = this.#steps;
          sp = this.#sp;
          const negate = code[pc + 1] === 1;
          if (matched) {
            // Without captures, its records only hold choices and its own loops' registers: dropped.
            if (code[pc + 2] === 0) sp = mark;
            else if (negate) {
              // A negative lookaround's captures are never seen after it.
              this.#unwind(mark, sp);
              sp = mark;
            } else sp = this.#keepCaptures(mark, sp);
            if (negate) break;
          } else if (!negate) break;
          pc = code[pc + 3]!;
          continue;
        }
        case LOOP:
        case LOOP_END: {
          const loop = code[pc] === LOOP ? pc : code[pc + 1]!;
          const reg = code[loop + 1]!;
          const min = code[loop + 2]!;
          let n = 0;
          if (code[pc] === LOOP_END) {
            const done = count[reg]!;
            // An iteration past the minimum that matched empty fails (RepeatMatcher's continuation, step 2.b).
            if (done >= min && pos === start[reg]) break;
            n = done + 1;
          }
          // The registers now hold the previous iteration's values (or another run's of this loop, for
          // LOOP), which a backtrack into that iteration needs: each branch below saves them before a write.
          if (n < min) {
            stack[sp] = reg;
            stack[sp + 1] = count[reg]!;
            stack[sp + 2] = start[reg]!;
            stack[sp + 3] = K_LOOP;
            sp += 4;
            count[reg] = n;
            pc = loop + 8;
          } else if (n >= code[loop + 3]!) {
            // Done: nothing written, the registers stay as the last iteration left them.
            pc = code[loop + 5]!;
          } else if (code[loop + 4] === 1) {
            // Greedy: one more iteration first; leaving the loop here is the choice left behind.
            stack[sp] = loop;
            stack[sp + 1] = count[reg]!;
            stack[sp + 2] = start[reg]!;
            stack[sp + 3] = pos;
            stack[sp + 4] = K_LOOP_GREEDY;
            sp += 5;
            count[reg] = n;
            pc = loop + 8;
          } else {
            // Lazy: leave first; one more iteration is the choice left behind.
            stack[sp] = loop;
            stack[sp + 1] = pos;
            stack[sp + 2] = n;
            stack[sp + 3] = K_LOOP_LAZY;
            sp += 4;
            pc = code[loop + 5]!;
          }
          continue;
        }
        case ENTER: {
          const loop = code[pc + 1]!;
          // Its old value is saved by the record that led here (K_LOOP, K_LOOP_GREEDY, or K_LOOP_LAZY's K_LOOP).
          start[code[loop + 1]!] = pos;
          // The captures inside the quantified atom start each iteration unset (RepeatMatcher step 4).
          const to = code[loop + 7]!;
          for (let slot = code[loop + 6]!; slot < to; slot++) {
            const old = caps[slot]!;
            if (old === -1) continue;
            if (++steps > budget) {
              this.#steps = steps;
              throw new BacktrackBudget('steps');
            }
            if (sp + 3 > stack.length) {
              this.#steps = steps;
              stack = this.#grow(sp + 3, sp);
            }
            stack[sp] = slot;
            stack[sp + 1] = old;
            stack[sp + 2] = K_CAPTURE;
            sp += 3;
            caps[slot] = -1;
          }
          pc += 2;
          continue;
        }
        case MATCH:
          this.#sp = sp;
          this.#steps = steps;
          return pos;
        case GREEDY:
        case GREEDY_BACK: {
          const t = code[pc + 1]!;
          const min = code[pc + 2]!;
          const max = code[pc + 3]!;
          const forward = code[pc] === GREEDY;
          // `floor`: where the minimum's characters end, the furthest giving back may go.
          let floor = pos;
          let n = 0;
          while (n < max) {
            const next = forward ? stepForward(input, pos, ascii, tests, t) : stepBackward(input, pos, ascii, tests, t);
            if (next < 0) break;
            if (++steps > budget) {
              this.#steps = steps;
              throw new BacktrackBudget('steps');
            }
            pos = next;
            if (++n === min) floor = pos;
          }
          if (n < min) break;
          if (n === min + 1) {
            // One character to give back: a plain choice is smaller.
            stack[sp] = pc + 4;
            stack[sp + 1] = floor;
            stack[sp + 2] = K_CHOICE;
            sp += 3;
          } else if (n > min) {
            stack[sp] = pc + 4;
            stack[sp + 1] = floor;
            stack[sp + 2] = pos;
            stack[sp + 3] = forward ? K_GIVE : K_GIVE_BACK;
            sp += 4;
          }
          pc += 4;
          continue;
        }
        case LAZY:
        case LAZY_BACK: {
          const t = code[pc + 1]!;
          const min = code[pc + 2]!;
          const forward = code[pc] === LAZY;
          let n = 0;
          for (; n < min; n++) {
            const next = forward ? stepForward(input, pos, ascii, tests, t) : stepBackward(input, pos, ascii, tests, t);
            if (next < 0) break;
            if (++steps > budget) {
              this.#steps = steps;
              throw new BacktrackBudget('steps');
            }
            pos = next;
          }
          if (n < min) break;
          if (n < code[pc + 3]!) {
            stack[sp] = pc;
            stack[sp + 1] = pos;
            stack[sp + 2] = n;
            stack[sp + 3] = forward ? K_TAKE : K_TAKE_BACK;
            sp += 4;
          }
          pc += 4;
          continue;
        }
      }
      // Failure: undo writes back to the latest choice point, and resume there.
      for (;;) {
        if (sp === base) {
          this.#sp = sp;
          this.#steps = steps;
          return -1;
        }
        switch (stack[sp - 1]) {
          case K_CHOICE:
            pc = stack[sp - 3]!;
            pos = stack[sp - 2]!;
            sp -= 3;
            continue run;
          case K_CAPTURE:
            caps[stack[sp - 3]!] = stack[sp - 2]!;
            sp -= 3;
            break;
          case K_LOOP: {
            const reg = stack[sp - 4]!;
            count[reg] = stack[sp - 3]!;
            start[reg] = stack[sp - 2]!;
            sp -= 4;
            break;
          }
          case K_LOOP_GREEDY: {
            const loop = stack[sp - 5]!;
            const reg = code[loop + 1]!;
            count[reg] = stack[sp - 4]!;
            start[reg] = stack[sp - 3]!;
            pos = stack[sp - 2]!;
            sp -= 5;
            pc = code[loop + 5]!;
            continue run;
          }
          case K_LOOP_LAZY: {
            const loop = stack[sp - 4]!;
            const reg = code[loop + 1]!;
            pos = stack[sp - 3]!;
            const n = stack[sp - 2]!;
            // Replaced by the undo of the registers this iteration writes (same size: no room needed).
            stack[sp - 4] = reg;
            stack[sp - 3] = count[reg]!;
            stack[sp - 2] = start[reg]!;
            stack[sp - 1] = K_LOOP;
            count[reg] = n;
            pc = loop + 8;
            continue run;
          }
          case K_GIVE:
          case K_GIVE_BACK: {
            const floor = stack[sp - 3]!;
            const at = stack[sp - 2]!;
            let back: number;
            if (stack[sp - 1] === K_GIVE) back = at - (at - 2 >= floor && insidePair(input, at - 1) ? 2 : 1);
            else back = at + (at + 2 <= floor && insidePair(input, at + 1) ? 2 : 1);
            pc = stack[sp - 4]!;
            pos = back;
            // Kept while there is more to give back.
            if (back === floor) sp -= 4;
            else stack[sp - 2] = back;
            continue run;
          }
          case K_TAKE:
          case K_TAKE_BACK: {
            const ins = stack[sp - 4]!;
            const n = stack[sp - 2]!;
            const next =
              stack[sp - 1] === K_TAKE
                ? stepForward(input, stack[sp - 3]!, ascii, tests, code[ins + 1]!)
                : stepBackward(input, stack[sp - 3]!, ascii, tests, code[ins + 1]!);
            if (next < 0) {
              sp -= 4;
              break;
            }
            if (n + 1 < code[ins + 3]!) {
              stack[sp - 3] = next;
              stack[sp - 2] = n + 1;
            } else sp -= 4;
            pc = ins + 4;
            pos = next;
            continue run;
          }
        }
      }
    }
  }

  /** Pops the records above `mark`, undoing their writes: a negative lookaround leaves no trace. */
  #unwind(mark: number, sp: number): void {
    const stack = this.#stack;
    while (sp > mark) {
      const kind = stack[sp - 1]!;
      if (kind === K_CAPTURE) this.#caps[stack[sp - 3]!] = stack[sp - 2]!;
      sp -= RECORD_SIZE[kind]!;
    }
  }

  /**
   * Replaces the records a matched lookaround left above `mark` by the undos of the captures it changed
   * (each slot's value before it): its choice points are dropped (it is atomic), its captures kept, and a
   * later backtrack past it still restores them. Returns the new top.
   */
  #keepCaptures(mark: number, sp: number): number {
    const stack = this.#stack;
    const caps = this.#caps;
    const before = this.#before;
    const seen = this.#mark;
    const changed = this.#changed;
    if (++this.#generation === 0xffffffff) {
      seen.fill(0);
      this.#generation = 1;
    }
    const g = this.#generation;
    let n = 0;
    // From the top down, so the value a slot ends with in `before` is its oldest: the one before the body.
    while (sp > mark) {
      const kind = stack[sp - 1]!;
      if (kind === K_CAPTURE) {
        const slot = stack[sp - 3]!;
        before[slot] = stack[sp - 2]!;
        if (seen[slot] !== g) {
          seen[slot] = g;
          changed[n++] = slot;
        }
      }
      sp -= RECORD_SIZE[kind]!;
    }
    // At most one record per changed slot: never more than was just popped, so there is room.
    for (let i = 0; i < n; i++) {
      const slot = changed[i]!;
      if (caps[slot] === before[slot]) continue;
      stack[sp] = slot;
      stack[sp + 1] = before[slot]!;
      stack[sp + 2] = K_CAPTURE;
      sp += 3;
    }
    return sp;
  }
}

/** Reads one character at `pos`, left to right: the position after it when test `t` accepts it, else -1. */
function stepForward(input: string, pos: number, ascii: Uint8Array, tests: readonly CharTest[], t: number): number {
  if (pos >= input.length) return -1;
  let c = input.charCodeAt(pos);
  let width = 1;
  if ((c & 0xf800) === 0xd800) {
    if (c < 0xdc00) {
      const d = pos + 1 < input.length ? input.charCodeAt(pos + 1) : 0;
      if (isLow(d)) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        width = 2;
      }
    } else if (pos > 0 && isHigh(input.charCodeAt(pos - 1))) return -1;
  }
  return (c < 128 ? ascii[(t << 7) | c] === 1 : matches(tests[t]!, c)) ? pos + width : -1;
}

/** Reads one character ending at `pos`, right to left: the position before it when test `t` accepts it, else -1. */
function stepBackward(input: string, pos: number, ascii: Uint8Array, tests: readonly CharTest[], t: number): number {
  if (pos <= 0) return -1;
  let c = input.charCodeAt(pos - 1);
  let width = 1;
  if ((c & 0xf800) === 0xd800) {
    if (c >= 0xdc00) {
      const h = pos >= 2 ? input.charCodeAt(pos - 2) : 0;
      if (isHigh(h)) {
        c = ((h - 0xd800) << 10) + (c - 0xdc00) + 0x10000;
        width = 2;
      }
    } else if (pos < input.length && isLow(input.charCodeAt(pos))) return -1;
  }
  return (c < 128 ? ascii[(t << 7) | c] === 1 : matches(tests[t]!, c)) ? pos - width : -1;
}
