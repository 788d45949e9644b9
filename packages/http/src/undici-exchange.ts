// One request through an undici dispatcher's dispatch(): its abort, its response head, its body as chunks come.
import type { Dispatcher } from 'undici';
import { PushedBody, type BodySource } from './pushed-body.js';
import { RawHeadersResponse } from './raw-headers.js';
import type { HttpRequest, HttpResponse } from './types.js';

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
class ExchangeHandler implements BodySource {
  readonly #resolve: (response: HttpResponse) => void;
  readonly #reject: (error: unknown) => void;
  #abort: Abort | undefined;
  /** Why the request was aborted before undici could act on it. */
  #reason: unknown;
  #aborted = false;
  #unlink: (() => void) | undefined;
  #body: PushedBody | undefined;
  /** undici's resume of a paused connection, from the response head. */
  #resume: (() => void) | undefined;
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
    this.#resume = resume;
    const body = new PushedBody(this);
    this.#body = body;
    this.#resolve(new RawHeadersResponse(statusCode, rawHeaders, body));
    return true;
  }

  /** The body asks for more chunks after a pause (see BodySource). */
  resume(): void {
    this.#resume?.();
  }

  /** The body was destroyed before its end (see BodySource). */
  abort(reason: Error): void {
    this.#abort?.(reason);
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
