// The linear-time matcher: a Thompson NFA from the regexpp AST, run as a lazily built DFA (a cache of state sets).
//
// It answers only "does the pattern match somewhere in the string", i.e. `new RegExp(source, 'u').test(input)`.
// Over 450 lines as one job: building and running are mutually recursive (a lookaround's body is an automaton
// built while its parent is built and run while its parent runs), so splitting them would make an import circle.
//
// Why it exists: a backtracking engine can take exponential time, and V8's cannot always be interrupted.
// This one does O(input length × NFA size) work at worst, on the calling thread, and checks the clock as
// it goes, so a pattern it accepts never needs the worker.
//
// What it accepts: `u`-mode patterns without backreferences. `^`, `$` (no `m` flag: start and end of
// input only), `\b` and `\B` are assertions on the surrounding characters; a lookaround is an assertion
// answered by a matcher of its own, run from the position (to the right for a lookahead, to the left for
// a lookbehind, whose body is built mirrored), once per position and match, so the work stays
// polynomial: O(n² × size) at worst for a lookaround tried at every position. The input
// is read by code point, as `u` mode does (a lone surrogate is a character of its own). Every character
// test is delegated to V8 (a one-character RegExp built from the leaf's own source), so classes, `\p{…}`,
// `.` and escapes mean exactly what they mean to RegExp; the answers are cached (ASCII in a table, the
// rest in a bounded map; see pattern-chars.ts). Without backreferences, capture groups, greediness and
// the atomicity of lookarounds do not change whether a match exists, so they are ignored.

import type { AST } from '@eslint-community/regexpp';
import { charTest, isWordChar, literalTest, matches, type CharTest } from './pattern-chars.js';

/** NFA nodes past this (counted repetitions are expanded) make the pattern too large for this matcher. */
export const NFA_NODE_LIMIT = 20_000;
/** Cached DFA states per automaton; past it its cache starts over (the answer is the same, only slower). */
const DFA_STATE_LIMIT = 512;
/** Cached DFA states across all patterns (about 1.5 KB each); past it every cache starts over. */
const ALL_DFA_STATES = 16_384;
/** Cached non-ASCII transitions per DFA state (the character tests' own caches are in pattern-chars.ts). */
const WIDE_CACHE_LIMIT = 256;

const CHAR = 0;
const SPLIT = 1;
const ASSERT = 2;
const LOOK = 3;
const MATCH = 4;

const AT_START = 0;
const AT_END = 1;
const WORD_BOUNDARY = 2;
const NOT_WORD_BOUNDARY = 3;

type NfaNode =
  | { readonly op: typeof CHAR; readonly test: CharTest; readonly next: number }
  | { readonly op: typeof SPLIT; readonly next: number[] }
  | { readonly op: typeof ASSERT; readonly kind: number; readonly next: number }
  | { readonly op: typeof LOOK; readonly look: Lookaround; readonly next: number }
  | { readonly op: typeof MATCH };

interface Lookaround {
  readonly id: number;
  readonly negate: boolean;
  readonly body: Automaton;
}

/** Why a pattern is not for this matcher; the caller falls back to the other engines. */
export class NfaUnsupported extends Error {}

/**
 * Thrown when a match has done its budget of work (automaton steps): counted, not timed, so the same
 * input gets the same verdict on a busy machine as on an idle one.
 */
export class NfaDeadline extends Error {}

/** Shared by a pattern and its lookarounds: the node budget and the character tests, by source. */
interface BuildShared {
  nodes: number;
  looks: number;
  readonly tests: Map<string, CharTest>;
  /** One automaton per lookaround in the source, however often a counted repetition copies it. */
  readonly lookarounds: Map<AST.LookaroundAssertion, Lookaround>;
}

class Builder {
  readonly nodes: NfaNode[] = [];

  /** `backward`: for a lookbehind's body, which V8 matches from right to left. */
  constructor(
    private readonly shared: BuildShared,
    private readonly backward: boolean,
  ) {}

  private push(n: NfaNode): number {
    if (++this.shared.nodes > NFA_NODE_LIMIT) throw new NfaUnsupported(`more than ${NFA_NODE_LIMIT} NFA nodes`);
    this.nodes.push(n);
    return this.nodes.length - 1;
  }

  match(): number {
    return this.push({ op: MATCH });
  }

  /** Builds `alternatives` followed by the node `next`; returns the entry node. */
  disjunction(alternatives: readonly AST.Alternative[], next: number): number {
    if (alternatives.length === 1) return this.sequence((alternatives[0] as AST.Alternative).elements, next);
    const entries = alternatives.map((a) => this.sequence(a.elements, next));
    return this.push({ op: SPLIT, next: entries });
  }

  private sequence(elements: readonly AST.Element[], next: number): number {
    // Built from the element read last, so each element knows what follows it; read right to left, a
    // lookbehind's body reads its first element last.
    let at = next;
    if (this.backward) for (let i = 0; i < elements.length; i++) at = this.element(elements[i] as AST.Element, at);
    else for (let i = elements.length - 1; i >= 0; i--) at = this.element(elements[i] as AST.Element, at);
    return at;
  }

  private element(e: AST.Element, next: number): number {
    switch (e.type) {
      case 'Character':
      case 'CharacterSet':
      case 'CharacterClass': {
        let test = this.shared.tests.get(e.raw);
        if (test === undefined) {
          test = e.type === 'Character' ? literalTest(e.value) : charTest(e.raw);
          this.shared.tests.set(e.raw, test);
        }
        return this.push({ op: CHAR, test, next });
      }
      case 'Group':
      case 'CapturingGroup':
        return this.disjunction(e.alternatives, next);
      case 'Assertion':
        switch (e.kind) {
          // Read right to left, the start of the input is where the reading ends, and its end where it starts.
          case 'start':
            return this.push({ op: ASSERT, kind: this.backward ? AT_END : AT_START, next });
          case 'end':
            return this.push({ op: ASSERT, kind: this.backward ? AT_START : AT_END, next });
          case 'word':
            return this.push({ op: ASSERT, kind: e.negate ? NOT_WORD_BOUNDARY : WORD_BOUNDARY, next });
          default: {
            let look = this.shared.lookarounds.get(e);
            if (look === undefined) {
              look = {
                id: this.shared.looks++,
                negate: e.negate,
                body: new Automaton(e.alternatives, false, this.shared, e.kind === 'lookbehind'),
              };
              this.shared.lookarounds.set(e, look);
            }
            return this.push({ op: LOOK, look, next });
          }
        }
      case 'Quantifier':
        return this.quantifier(e, next);
      default:
        // Backreferences; `v`-mode class expressions never reach here (the pattern is read in `u` mode).
        throw new NfaUnsupported(e.type);
    }
  }

  private quantifier(q: AST.Quantifier, next: number): number {
    let at = next;
    if (q.max === Infinity) {
      // loop: either one more copy (which comes back here) or leave.
      const loop = this.push({ op: SPLIT, next: [] });
      const body = this.element(q.element, loop);
      (this.nodes[loop] as { next: number[] }).next.push(body, next);
      at = loop;
    } else {
      // (x(x(x)?)?)? for the optional copies past the minimum.
      for (let i = q.max - q.min; i > 0; i--) {
        const body = this.element(q.element, at);
        at = this.push({ op: SPLIT, next: [body, next] });
      }
    }
    for (let i = 0; i < q.min; i++) at = this.element(q.element, at);
    return at;
  }
}

/** Where the matcher stands between two characters, as far as assertions can tell. */
interface DfaState {
  /** NFA nodes reached, before their assertions are resolved (sorted). */
  readonly kernel: Int32Array;
  readonly atStart: boolean;
  readonly prevWord: boolean;
  /** Transitions by ASCII code point: a state (`MATCHED` when a match ended here), or null (not built yet). */
  readonly ascii: (DfaState | null)[];
  readonly wide: Map<number, DfaState>;
  /** Whether the pattern matches when the input ends here (null: not known yet). */
  atEnd: boolean | null;
  /** Its closure reaches a lookaround, whose answer depends on the rest of the input: nothing is cached. */
  volatile: boolean;
  /** No NFA node is left: no match can start or continue (anchored automata only). */
  readonly dead: boolean;
}

function newState(kernel: Int32Array, atStart: boolean, prevWord: boolean): DfaState {
  // Filled, not holey: the hot loop reads these arrays on every character.
  return {
    kernel,
    atStart,
    prevWord,
    ascii: new Array<DfaState | null>(128).fill(null),
    wide: new Map(),
    atEnd: null,
    volatile: false,
    dead: kernel.length === 0,
  };
}

/** The transition taken when a match ends before the character: the answer is yes. */
const MATCHED: DfaState = newState(new Int32Array(0), false, false);

/** One match in progress: the input, the step budget and the lookaround answers found so far. */
interface Run {
  readonly input: string;
  readonly maxSteps: number;
  /** Lookaround answers by `id × (length + 1) + position`: 1 matched, 2 did not (made on first use). */
  looks: Map<number, number> | undefined;
  /** Work done so far (automaton steps), checked against `maxSteps`. */
  steps: number;
}

function tick(r: Run, work: number): void {
  r.steps += work;
  if (r.steps > r.maxSteps) throw new NfaDeadline();
}

// The process-wide bound on cached states: the automata holding some, and how many they hold.
let liveStates = 0;
const holding = new Set<Automaton>();

/** The NFA of a pattern or of one lookaround's body, with its cache of DFA states. */
class Automaton {
  private readonly nodes: readonly NfaNode[];
  private readonly start: number;
  private states = new Map<string, DfaState>();
  private cached = 0;
  /** The states a run starts in, by `atStart × 2 + prevWord`: looked up on every run. */
  private starts: (DfaState | undefined)[] = [];
  // Scratch space for closures: a generation mark per node, so no clearing between uses.
  private readonly mark: Uint32Array;
  private readonly seen: Uint32Array;
  private generation = 0;

  /** `anywhere`: a match may begin at any position (the start node rejoins every state), not only here. */
  constructor(
    alternatives: readonly AST.Alternative[],
    private readonly anywhere: boolean,
    shared: BuildShared,
    /** Reads right to left from where it starts (a lookbehind's body). */
    private readonly backward = false,
  ) {
    const b = new Builder(shared, backward);
    this.start = b.disjunction(alternatives, b.match());
    this.nodes = b.nodes;
    this.mark = new Uint32Array(this.nodes.length);
    this.seen = new Uint32Array(this.nodes.length);
  }

  /**
   * Whether the automaton matches the empty string between the two halves of a surrogate pair. V8 tries
   * those positions in `u` mode too (the spec's search would skip them) and lets no character match
   * there, so only assertions can: `\B` holds (neither half is a word character), `^`, `$`, `\b` do not.
   */
  emptyInsidePair(): boolean {
    const nodes = this.nodes;
    const seen = new Uint8Array(nodes.length);
    const stack = [this.start];
    while (stack.length > 0) {
      const i = stack.pop() as number;
      if (seen[i] === 1) continue;
      seen[i] = 1;
      const node = nodes[i] as NfaNode;
      if (node.op === MATCH) return true;
      if (node.op === SPLIT) stack.push(...node.next);
      else if (node.op === ASSERT && node.kind === NOT_WORD_BOUNDARY) stack.push(node.next);
      else if (node.op === LOOK && node.look.body.emptyInsidePair() !== node.look.negate) stack.push(node.next);
    }
    return false;
  }

  /** Drops the cached states (a run in progress keeps the ones it holds). */
  forget(): void {
    this.states = new Map();
    this.starts = [];
    this.cached = 0;
  }

  /** Whether a match begins at `from` (or, when `anywhere`, at or after it; or ends there, `backward`). */
  run(r: Run, from: number): boolean {
    if (this.backward) return this.runBackward(r, from);
    const input = r.input;
    const n = input.length;
    const prevWord = from > 0 && isWordChar(input.charCodeAt(from - 1));
    const which = (from === 0 ? 2 : 0) + (prevWord ? 1 : 0);
    let s = (this.starts[which] ??= this.state(new Int32Array([this.start]), from === 0, prevWord));
    let read = 0;
    for (let i = from; i < n;) {
      let cp = input.charCodeAt(i);
      let t: DfaState | null | undefined;
      if (cp < 128) t = s.ascii[cp];
      else {
        // `u` mode reads a surrogate pair as one character.
        if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) cp = input.codePointAt(i) as number;
        t = s.wide.get(cp);
      }
      if (t === null || t === undefined) t = this.step(r, s, cp, i);
      if (t === MATCHED) return true;
      if (t.dead) return false;
      s = t;
      i += cp > 0xffff ? 2 : 1;
      if (++read === 1024) {
        tick(r, read);
        read = 0;
      }
    }
    if (s.atEnd !== null) return s.atEnd;
    const atEnd = this.closure(r, s, n, false, false);
    if (!s.volatile) s.atEnd = atEnd;
    return atEnd;
  }

  /**
   * A lookbehind's body, read from `from` towards the start. The state's `atStart` means "at the end of
   * the input" here and `prevWord` is about the character on the right; `\b` compares the same two.
   */
  private runBackward(r: Run, from: number): boolean {
    const input = r.input;
    const n = input.length;
    const prevWord = from < n && isWordChar(input.charCodeAt(from));
    const which = (from === n ? 2 : 0) + (prevWord ? 1 : 0);
    let s = (this.starts[which] ??= this.state(new Int32Array([this.start]), from === n, prevWord));
    let read = 0;
    for (let i = from; i > 0;) {
      let cp = input.charCodeAt(i - 1);
      let t: DfaState | null | undefined;
      if (cp < 128) t = s.ascii[cp];
      else {
        if (cp >= 0xdc00 && cp <= 0xdfff && i >= 2) {
          const high = input.charCodeAt(i - 2);
          if (high >= 0xd800 && high <= 0xdbff) cp = (high - 0xd800) * 0x400 + (cp - 0xdc00) + 0x10000;
        }
        t = s.wide.get(cp);
      }
      if (t === null || t === undefined) t = this.step(r, s, cp, i);
      if (t === MATCHED) return true;
      if (t.dead) return false;
      s = t;
      i -= cp > 0xffff ? 2 : 1;
      if (++read === 1024) {
        tick(r, read);
        read = 0;
      }
    }
    if (s.atEnd !== null) return s.atEnd;
    const atEnd = this.closure(r, s, 0, false, false);
    if (!s.volatile) s.atEnd = atEnd;
    return atEnd;
  }

  private state(kernel: Int32Array, atStart: boolean, prevWord: boolean): DfaState {
    const key = `${atStart ? 1 : 0}${prevWord ? 1 : 0}${kernel.join(',')}`;
    let s = this.states.get(key);
    if (s === undefined) {
      if (this.cached >= DFA_STATE_LIMIT) {
        liveStates -= this.cached;
        this.forget();
      }
      if (liveStates >= ALL_DFA_STATES) {
        for (const a of holding) a.forget();
        holding.clear();
        liveStates = 0;
      }
      holding.add(this);
      liveStates++;
      this.cached++;
      s = newState(kernel, atStart, prevWord);
      this.states.set(key, s);
    }
    return s;
  }

  /** The transition of `s` on `cp` (read at position `at`), cached unless a lookaround was involved. */
  private step(r: Run, s: DfaState, cp: number, at: number): DfaState {
    const nextWord = isWordChar(cp);
    const reached: number[] = [];
    let t: DfaState;
    if (this.closure(r, s, at, nextWord, true, reached, cp)) t = MATCHED;
    else {
      if (this.anywhere && this.seen[this.start] !== this.generation) reached.push(this.start);
      const kernel = Int32Array.from(reached).sort();
      t = this.state(kernel, false, nextWord);
    }
    if (!s.volatile) {
      if (cp < 128) s.ascii[cp] = t;
      else if (s.wide.size < WIDE_CACHE_LIMIT) s.wide.set(cp, t);
    }
    return t;
  }

  /**
   * Follows the epsilon edges from `s`'s kernel at position `at` (the end of the input when it is the
   * input's length; `nextWord`: whether the next character is a word character). Returns true when the
   * match node is reached. With `consume`, collects into `reached` the successors of the character
   * nodes that accept `cp`.
   */
  private closure(
    r: Run,
    s: DfaState,
    at: number,
    nextWord: boolean,
    consume: boolean,
    reached?: number[],
    cp = 0,
  ): boolean {
    const nodes = this.nodes;
    const mark = this.mark;
    const seen = this.seen;
    if (++this.generation === 0xffffffff) {
      mark.fill(0);
      seen.fill(0);
      this.generation = 1;
    }
    const g = this.generation;
    // Where the reading ends: the end of the input, or its start for a lookbehind's body.
    const atEnd = this.backward ? at === 0 : at === r.input.length;
    const stack = Array.from(s.kernel);
    let visited = 0;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      if (mark[i] === g) continue;
      mark[i] = g;
      if (++visited === 1024) {
        tick(r, visited);
        visited = 0;
      }
      const node = nodes[i] as NfaNode;
      switch (node.op) {
        case MATCH:
          tick(r, visited);
          return true;
        case SPLIT:
          for (let k = node.next.length - 1; k >= 0; k--) stack.push(node.next[k] as number);
          break;
        case ASSERT: {
          let ok: boolean;
          if (node.kind === AT_START) ok = s.atStart;
          else if (node.kind === AT_END) ok = atEnd;
          else ok = (s.prevWord !== (atEnd ? false : nextWord)) === (node.kind === WORD_BOUNDARY);
          if (ok) stack.push(node.next);
          break;
        }
        case LOOK:
          s.volatile = true;
          if (lookaround(r, node.look, at) !== node.look.negate) stack.push(node.next);
          break;
        case CHAR:
          // Two character nodes may share a successor (the loop node of a repetition): keep it once.
          if (consume && seen[node.next] !== g && matches(node.test, cp)) {
            seen[node.next] = g;
            (reached as number[]).push(node.next);
          }
          break;
      }
    }
    tick(r, visited);
    return false;
  }
}

function lookaround(r: Run, look: Lookaround, at: number): boolean {
  const key = look.id * (r.input.length + 1) + at;
  const looks = (r.looks ??= new Map());
  let known = looks.get(key);
  if (known === undefined) {
    known = look.body.run(r, at) ? 1 : 2;
    looks.set(key, known);
  }
  return known === 1;
}

/** The matcher for one pattern. Construction throws `NfaUnsupported` for a pattern it cannot run. */
export class NfaMatcher {
  private readonly top: Automaton;
  /** An empty match between the halves of a surrogate pair counts (see `emptyInsidePair`). */
  private readonly insidePairs: boolean;
  /** NFA nodes, lookarounds included. */
  readonly size: number;
  /** Whether a lookaround is part of it: the work may then grow with the square of the input length. */
  readonly lookaround: boolean;
  /** The steps the last `test` took (or had taken when it ran out). */
  lastSteps: number;

  constructor(ast: AST.Pattern) {
    const shared: BuildShared = { nodes: 0, looks: 0, tests: new Map(), lookarounds: new Map() };
    // Every alternative starts with `^`: a match can only begin at position 0.
    const anchored = ast.alternatives.every(
      (a) => a.elements[0]?.type === 'Assertion' && a.elements[0].kind === 'start',
    );
    this.top = new Automaton(ast.alternatives, !anchored, shared);
    this.insidePairs = !anchored && this.top.emptyInsidePair();
    this.size = shared.nodes;
    this.lastSteps = 0;
    this.lookaround = shared.looks > 0;
  }

  /**
   * `RegExp.prototype.test` for the pattern. Throws `NfaDeadline` when the match takes more than
   * `maxSteps` steps of work (automaton nodes visited); `lastSteps` then says how many it took.
   */
  test(input: string, maxSteps = Infinity): boolean {
    if (this.insidePairs && /[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(input)) return true;
    const run: Run = { input, maxSteps, looks: undefined, steps: 0 };
    try {
      return this.top.run(run, 0);
    } finally {
      this.lastSteps = run.steps;
    }
  }
}
