// One request through an undici dispatcher's dispatch(): its abort, its response head, its body as chunks come.
import type { Dispatcher } from 'undici';
import { PushedBody } from './pushed-body.js';
import type { HttpHeaders, HttpRequest, HttpResponse } from './types.js';

/**
 * Sends `r` with `dispatcher.dispatch()` on undici's own handler interface (the one its HTTP/1.1 and
 * HTTP/2 clients call directly): no `Readable` for the body, no headers object from undici, no promise
 * of its own. The `request()` API made all three for every call, a third of the client's CPU per call at
 * 64 in flight. Resolves at the response head; the body is a {@link PushedBody}.
 */
export function dispatchRequest(dispatcher: Dispatcher, r: HttpRequest): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const handler = new ExchangeHandler(r, resolve, reject);
    try {
      const target = targetOf(r.url);
      dispatcher.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: r.method,
          headers: r.headers,
          body: r.body ?? null,
          headersTimeout: r.headersTimeout,
          bodyTimeout: r.bodyTimeout,
        },
        handler as unknown as Dispatcher.DispatchHandler,
      );
    } catch (error) {
      handler.onError(error as Error);
    }
  });
}

/** The origin and path of the last URL sent to (a transport sends every POST to one URL). */
let lastTarget = { href: '', origin: '', path: '' };

/** The URL's origin and path, as undici takes them: made again only when the URL is another. */
function targetOf(url: URL): { readonly origin: string; readonly path: string } {
  const href = url.href;
  if (href !== lastTarget.href) lastTarget = { href, origin: url.origin, path: url.pathname + url.search };
  return lastTarget;
}

type Abort = (reason: unknown) => void;

/**
 * The handler of one exchange. An abort before undici has a connection for the request is kept and
 * acted on when undici hands over its abort (as undici's own `request()` does); after the head, it fails
 * the body. undici reports every end of the exchange through `onError`, the abort's reason included.
 */
class ExchangeHandler {
  readonly #resolve: (response: HttpResponse) => void;
  readonly #reject: (error: unknown) => void;
  #abort: Abort | undefined;
  /** Why the request was aborted before undici could act on it. */
  #reason: unknown;
  #aborted = false;
  #unlink: (() => void) | undefined;
  #body: PushedBody | undefined;
  #done = false;

  constructor(r: HttpRequest, resolve: (response: HttpResponse) => void, reject: (error: unknown) => void) {
    this.#resolve = resolve;
    this.#reject = reject;
    const link = r.abort;
    if (link !== undefined) {
      if (link.aborted) this.#onAbort(link.reason);
      else this.#unlink = link.onAbort(() => this.#onAbort(link.reason));
    } else {
      const signal = r.signal;
      if (signal.aborted) this.#onAbort(signal.reason);
      else {
        const listener = (): void => this.#onAbort(signal.reason);
        signal.addEventListener('abort', listener, { once: true });
        this.#unlink = () => signal.removeEventListener('abort', listener);
      }
    }
  }

  #onAbort(reason: unknown): void {
    if (this.#aborted || this.#done) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#abort?.(reason);
  }

  onConnect(abort: Abort): void {
    this.#abort = abort;
    if (this.#aborted) abort(this.#reason);
  }

  onHeaders(statusCode: number, rawHeaders: readonly (Buffer | string)[], resume: () => void): boolean {
    if (statusCode < 200) return true; // an informational answer: the real one follows
    const body = new PushedBody({
      resume,
      abort: (reason) => this.#abort?.(reason),
    });
    this.#body = body;
    this.#resolve({ statusCode, headers: headersOf(rawHeaders), body });
    return true;
  }

  onData(chunk: Buffer): boolean {
    return this.#body === undefined ? true : this.#body.push(chunk);
  }

  onComplete(): void {
    this.#finish();
    this.#body?.end();
  }

  onError(error: Error): void {
    this.#finish();
    if (this.#body === undefined) this.#reject(error);
    else this.#body.fail(error);
  }

  #finish(): void {
    this.#done = true;
    this.#unlink?.();
    this.#unlink = undefined;
  }
}

/**
 * The response head's headers by lower-case name, a repeated one as an array, bytes read as Latin-1 (as
 * undici's `request()` gives them). Nothing inherited: a header named `__proto__` is a header like any other.
 */
function headersOf(raw: readonly (Buffer | string)[]): HttpHeaders {
  const headers = Object.create(NO_NAMES) as Record<string, string | string[]>;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = latin1(raw[i]!).toLowerCase();
    const value = latin1(raw[i + 1]!);
    const before = headers[name];
    if (before === undefined) headers[name] = value;
    else if (typeof before === 'string') headers[name] = [before, value];
    else before.push(value);
  }
  return headers;
}

/**
 * The prototype of the headers objects: empty, with no prototype of its own, so that no name is inherited
 * (`constructor`, `__proto__`). Not `Object.create(null)` for the headers themselves: V8 makes those
 * dictionaries, three times the size of an object with a prototype.
 */
const NO_NAMES: object = Object.create(null) as object;

const latin1 = (b: Buffer | string): string => (typeof b === 'string' ? b : b.toString('latin1'));
