// The events of an HttpBody made here (not a Node Readable): data, end, error and close, with on, once and off.

export type BodyListener = (...args: never[]) => void;

type BodyEvent = 'data' | 'end' | 'error' | 'close';

/** How a followed body finished: it ended, it closed before its end, or it failed. */
export type BodyEnd = 'end' | 'close' | Error;

/** Who reads a body through `followBody`: its chunks, then once how it finished. */
export interface BodyFollower {
  onData(chunk: Uint8Array): void;
  onEnd(end: BodyEnd): void;
}

/**
 * The listener bookkeeping a body needs and no more: no EventEmitter (its error-without-listener throw
 * and its warnings are not wanted here), one array per event made on first use. `listening` tells a
 * subclass that someone started listening for an event (a 'data' listener starts the flow).
 */
export abstract class BodyEvents {
  /**
   * The follower (see {@link follow}), called before any listener. Reading a body through `followBody` is
   * what every response goes through; a field for it costs less than four listener arrays and three
   * `once` wrappers a response.
   */
  #follower: BodyFollower | undefined;
  #data: BodyListener[] | undefined;
  #end: BodyListener[] | undefined;
  #error: BodyListener[] | undefined;
  #close: BodyListener[] | undefined;

  on(event: string, listener: BodyListener): this {
    const list = this.#list(event, true);
    if (list === undefined) return this;
    list.push(listener);
    this.listening(event as BodyEvent);
    return this;
  }

  once(event: string, listener: BodyListener): this {
    const once = ((...args: never[]) => {
      this.off(event, once);
      listener(...args);
    }) as BodyListener & { listener?: BodyListener };
    once.listener = listener;
    return this.on(event, once);
  }

  off(event: string, listener: BodyListener): this {
    const list = this.#list(event, false);
    if (list === undefined) return this;
    const i = list.findIndex((l) => l === listener || (l as { listener?: BodyListener }).listener === listener);
    if (i >= 0) list.splice(i, 1);
    return this;
  }

  /**
   * Hands the chunks to the follower until the body ends, fails or closes, then tells it once which, as
   * `followBody` does with listeners. False, and nothing done, when the body already has a follower.
   */
  follow(follower: BodyFollower): boolean {
    if (this.#follower !== undefined) return false;
    this.#follower = follower;
    this.listening('data');
    return true;
  }

  /** Stops `follower`, if it still follows: it hears nothing more. */
  unfollow(follower: BodyFollower): void {
    if (this.#follower === follower) this.#follower = undefined;
  }

  /** Someone listens for `event` now. */
  protected listening(_event: BodyEvent): void {}

  protected emit(event: BodyEvent, arg?: unknown): void {
    const follower = this.#follower;
    if (follower !== undefined) {
      if (event === 'data') follower.onData(arg as Uint8Array);
      else {
        this.#follower = undefined;
        follower.onEnd(event === 'error' ? (arg as Error) : event);
      }
    }
    const list = this.#list(event, false);
    if (list === undefined || list.length === 0) return;
    // A copy when there are several: a `once` listener leaves the list while it is walked.
    if (list.length === 1) (list[0] as (a: unknown) => void)(arg);
    else for (const listener of [...list]) (listener as (a: unknown) => void)(arg);
  }

  #list(event: string, make: boolean): BodyListener[] | undefined {
    switch (event) {
      case 'data':
        return make ? (this.#data ??= []) : this.#data;
      case 'end':
        return make ? (this.#end ??= []) : this.#end;
      case 'error':
        return make ? (this.#error ??= []) : this.#error;
      case 'close':
        return make ? (this.#close ??= []) : this.#close;
      default:
        return undefined; // an event no body here emits
    }
  }
}
