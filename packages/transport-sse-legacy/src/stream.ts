// One GET stream of the legacy SSE transport: opening it, awaiting its `endpoint` event, handing on its messages.
//
// The wait for the `endpoint` event is bounded.
import {
  HttpError,
  bodyChunks,
  discard,
  exchange,
  header,
  readSse,
  type ExchangeSettings,
  type HttpClient,
} from '@mcpc/http';
import { EndpointTimeoutError } from './errors.js';
import type { ResolvedSseOptions } from './options.js';
import { endpointFrom, mediaTypeOf, noStream, unauthorized } from './responses.js';

export interface Stream {
  /** Resolves once the stream's endpoint is known. */
  readonly ready: Promise<URL>;
  /** Settles when the stream ends, for whatever reason. */
  readonly done: Promise<void>;
  readonly abort: AbortController;
}

/** What a stream needs from the transport that opens it. */
export interface StreamContext {
  readonly options: ResolvedSseOptions;
  readonly http: HttpClient;
  readonly settings: ExchangeSettings;
  /** Aborted when the transport closes. */
  readonly closing: AbortSignal;
  headers(own: Record<string, string>): Promise<Record<string, string>>;
  warn(message: string): void;
  /** Anything arrived on the stream (the keep-alive's clock). */
  inbound(): void;
  /** Each `endpoint` event; when it comes on the current stream, the endpoint moves with it. */
  endpointMoved(stream: AbortController, url: URL): void;
  /** The data of a `message` event. */
  message(data: string): void;
}

/** Opens a GET stream and reads it in the background; `ready` settles with its endpoint. */
export function openStream(ctx: StreamContext): Stream {
  const options = ctx.options;
  const abort = new AbortController();
  const signal = AbortSignal.any([abort.signal, ctx.closing]);
  let settleReady!: { resolve(url: URL): void; reject(e: unknown): void };
  const ready = new Promise<URL>((resolve, reject) => (settleReady = { resolve, reject }));
  ready.catch(() => {});
  let known = false;
  const timer = setTimeout(() => {
    if (known) return;
    settleReady.reject(new EndpointTimeoutError(options.endpointTimeoutMs));
    abort.abort();
  }, options.endpointTimeoutMs);

  const done = (async () => {
    try {
      const headers = await ctx.headers({ accept: 'text/event-stream' });
      const response = await exchange(ctx.http, ctx.settings, {
        method: 'GET',
        headers,
        signal,
        retryable: false,
        bodyTimeout: 0,
        auth: options.auth,
      });
      if (response.statusCode === 401 || response.statusCode === 403) {
        await discard(response);
        throw unauthorized(options, response.statusCode, header(response, 'www-authenticate'), options.url);
      }
      const type = mediaTypeOf(header(response, 'content-type'));
      if (response.statusCode !== 200 || type !== 'text/event-stream') {
        await discard(response);
        throw new HttpError(response.statusCode, noStream(options.url, response.statusCode, type), {
          contentType: type,
        });
      }
      await readSse(
        bodyChunks(response.body, header(response, 'content-encoding'), undefined),
        options.maxSseEventBytes,
        {
          onId: () => {},
          onRetry: () => {},
          onWarning: (w) => ctx.warn(w),
          onEvent: (event) => {
            ctx.inbound();
            if (event.event === 'endpoint') {
              const url = endpointFrom(options.url, event.data);
              if (url instanceof Error) {
                settleReady.reject(url);
                abort.abort(url);
                return;
              }
              known = true;
              settleReady.resolve(url);
              // A later endpoint event on the same stream moves the endpoint along with it.
              ctx.endpointMoved(abort, url);
            } else if (event.event === undefined || event.event === 'message') {
              ctx.message(event.data);
            }
          },
        },
      );
    } catch (error) {
      const why = abort.signal.reason instanceof Error ? abort.signal.reason : error;
      settleReady.reject(why);
      throw why;
    } finally {
      clearTimeout(timer);
      if (!known) settleReady.reject(new EndpointTimeoutError(options.endpointTimeoutMs));
    }
  })();
  // The first failure to surface is the one start() or the reconnect loop reports.
  done.catch((e: unknown) => settleReady.reject(e));
  return { ready, done, abort };
}
