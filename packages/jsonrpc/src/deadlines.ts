// Deadlines on one shared timer: what the engine's request timeouts run on, instead of a `setTimeout` per request.
/** Something with a deadline. The two `timer*` fields belong to {@link Deadlines}; nothing else touches them. */
export interface Timed {
  /** When it expires, on the `performance.now()` clock. */
  timerDeadline: number;
  /** Where it is kept: its lane, its own timer, or nothing when it is not scheduled. */
  timerSlot: Set<Timed> | NodeJS.Timeout | undefined;
}

// setTimeout's ceiling (about 24.8 days); a longer wait is armed in steps, each sweep re-arming.
const MAX_TIMER_MS = 2 ** 31 - 1;
// Past this many distinct durations an entry gets a timer of its own, so a sweep stays O(lanes).
const MAX_LANES = 16;

/**
 * Deadlines on one shared timer. Node's `setTimeout` allocates a `Timeout` and links it into a list per
 * call; a request engine sets one for almost every request and clears it moments later. Here entries
 * with the same duration share a lane — an insertion-ordered `Set`, whose order is therefore deadline
 * order, the clock being monotonic — and a single timer is armed for the earliest head. Adding and
 * removing are O(1); a firing looks at the heads only, and expires what is due.
 *
 * The timer keeps the process alive while something is scheduled, like a `setTimeout` of each would,
 * and no longer: with nothing scheduled it is unref'd.
 */
export class Deadlines<T extends Timed> {
  readonly #expire: (entry: T) => void;
  readonly #lanes = new Map<number, Set<T>>();
  /** Entries in lanes (not counting those with a timer of their own). */
  #laned = 0;
  #timer: NodeJS.Timeout | undefined;
  /** The deadline the shared timer is armed for. */
  #armedFor = Number.POSITIVE_INFINITY;

  constructor(expire: (entry: T) => void) {
    this.#expire = expire;
  }

  /** Schedules `entry` to expire in `ms` milliseconds (> 0, finite), replacing any earlier schedule. */
  schedule(entry: T, ms: number): void {
    if (entry.timerSlot !== undefined) this.cancel(entry);
    const now = performance.now();
    entry.timerDeadline = now + ms;
    let lane = this.#lanes.get(ms);
    if (lane === undefined && this.#lanes.size >= MAX_LANES) this.#dropEmptyLanes();
    if (lane === undefined && this.#lanes.size >= MAX_LANES) {
      entry.timerSlot = setTimeout(() => this.#fire(entry), Math.min(MAX_TIMER_MS, ms));
      return;
    }
    if (lane === undefined) this.#lanes.set(ms, (lane = new Set()));
    lane.add(entry);
    entry.timerSlot = lane as Set<Timed>;
    // A timer is an object with ref/unref on Node, Deno and Bun, and a number in browsers and Workers.
    if (this.#laned++ === 0) this.#timer?.ref?.();
    this.#arm(entry.timerDeadline, now);
  }

  /** Unschedules `entry`; nothing happens when it is not scheduled. */
  cancel(entry: T): void {
    const slot = entry.timerSlot;
    if (slot === undefined) return;
    entry.timerSlot = undefined;
    if (!(slot instanceof Set)) return clearTimeout(slot);
    slot.delete(entry);
    // The timer stays armed (re-arming per request is what this saves); idle, it must not hold the process.
    this.#laned--;
    this.#unrefWhenIdle();
  }

  /** Drops every schedule and the timer. */
  clear(): void {
    for (const lane of this.#lanes.values()) for (const entry of lane) entry.timerSlot = undefined;
    this.#lanes.clear();
    this.#laned = 0;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
  }

  #arm(deadline: number, now: number): void {
    if (deadline >= this.#armedFor) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedFor = deadline;
    this.#timer = setTimeout(this.#sweep, Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(deadline - now))));
  }

  readonly #sweep = (): void => {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    const due: T[] = [];
    for (const [ms, lane] of this.#lanes) {
      // Oldest first: the loop stops at the first entry not yet due, so it runs once per expiry plus one.
      for (const entry of lane) {
        if (entry.timerDeadline > now) {
          next = Math.min(next, entry.timerDeadline);
          break;
        }
        lane.delete(entry);
        entry.timerSlot = undefined;
        this.#laned--;
        due.push(entry);
      }
      if (lane.size === 0) this.#lanes.delete(ms);
    }
    // Across lanes, in deadline order (a late sweep finds several due at once).
    if (due.length > 1) due.sort((a, b) => a.timerDeadline - b.timerDeadline);
    for (const entry of due) this.#expire(entry);
    // A timer fires on the loop's cached clock, which can run a little behind: what is not due yet waits.
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next, performance.now());
    this.#unrefWhenIdle();
  };

  #unrefWhenIdle(): void {
    if (this.#laned === 0) this.#timer?.unref?.();
  }

  #dropEmptyLanes(): void {
    for (const [ms, lane] of this.#lanes) if (lane.size === 0) this.#lanes.delete(ms);
  }

  #fire(entry: T): void {
    entry.timerSlot = undefined;
    this.#expire(entry);
  }
}
