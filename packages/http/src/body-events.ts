// The events of an HttpBody made here (not a Node Readable): data, end, error and close, with on, once and off.

export type BodyListener = (...args: never[]) => void;

type BodyEvent = 'data' | 'end' | 'error' | 'close';

/**
 * The listener bookkeeping a body needs and no more: no EventEmitter (its error-without-listener throw
 * and its warnings are not wanted here), one array per event made on first use. `listening` tells a
 * subclass that someone started listening for an event (a 'data' listener starts the flow).
 */
export abstract class BodyEvents {
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

  /** Someone listens for `event` now. */
  protected listening(_event: BodyEvent): void {}

  protected emit(event: BodyEvent, arg?: unknown): void {
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
