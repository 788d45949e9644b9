// The recording fetch the steps run on: every request and response kept, secrets redacted, bodies bounded.
import type { Logger } from '@mcpc/jsonrpc';
import type { FetchFunction } from '../http.js';
import { redactBody, redactHeaders, redactUrl } from './redaction.js';

/** A request as recorded: secrets in the URL, the headers and the body redacted. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** A response as recorded: secrets redacted, the body bounded in size. */
export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text, at most `maxRecordedBody` characters of it. */
  readonly body: string;
  /** The body was longer than what is kept, or was not read to its end (a probe reads only the headers). */
  readonly bodyTruncated: boolean;
}

/** One HTTP exchange a step made. */
export interface Exchange {
  readonly request: RecordedRequest;
  /** Absent when no response came (a network error, a timeout: see `error`). */
  readonly response?: RecordedResponse;
  readonly error?: string;
  /** From the request to the response's headers. */
  readonly durationMs: number;
}

interface Entry {
  readonly request: RecordedRequest;
  status?: number;
  headers?: Headers;
  readonly chunks: Uint8Array[];
  size: number;
  ended: boolean;
  error?: string;
  durationMs: number;
}

/** A request body as text: strings and forms as they are, bytes decoded, a stream not read. */
function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  return '(a body that is not text)';
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Records what goes through its `fetch`: the request (secrets redacted) when it is sent, the status and
 * headers when they arrive, and the first `maxBody` bytes of the body as the caller reads it — the caller
 * gets every byte, so the library reads the response exactly as it would without the recorder. Log lines
 * the library writes are kept beside the exchanges.
 */
export class ExchangeRecorder {
  readonly #inner: FetchFunction;
  readonly #maxBody: number;
  readonly #entries: Entry[] = [];
  readonly #log: string[] = [];

  constructor(inner: FetchFunction, maxBody: number) {
    this.#inner = inner;
    this.#maxBody = maxBody;
  }

  readonly fetch: FetchFunction = async (input, init) => {
    const headers = new Headers(init.headers);
    const text = bodyText(init.body);
    const entry: Entry = {
      request: {
        method: init.method ?? 'GET',
        url: redactUrl(input),
        headers: redactHeaders(headers),
        ...(text === undefined ? {} : { body: redactBody(text, headers.get('content-type')) }),
      },
      chunks: [],
      size: 0,
      ended: false,
      durationMs: 0,
    };
    this.#entries.push(entry);
    const started = Date.now();
    let response: Response;
    try {
      response = await this.#inner(input, init);
    } catch (error) {
      entry.durationMs = Date.now() - started;
      entry.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw error;
    }
    entry.durationMs = Date.now() - started;
    entry.status = response.status;
    entry.headers = response.headers;
    const source = response.body;
    if (source === null || NULL_BODY.has(response.status)) {
      entry.ended = true;
      return response;
    }
    const reader = source.getReader();
    const keep = (chunk: Uint8Array) => {
      const room = this.#maxBody - entry.size;
      if (room > 0) entry.chunks.push(chunk.byteLength <= room ? chunk : chunk.subarray(0, room));
      entry.size += chunk.byteLength;
    };
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          entry.ended = true;
          controller.close();
          return;
        }
        keep(value);
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** A logger that keeps every line for the step that writes it, and passes it on to `forward`. */
  logger(forward: Logger | undefined): Logger {
    const line = (level: 'debug' | 'info' | 'warn' | 'error') => (message: string) => {
      this.#log.push(`${level}: ${message}`);
      forward?.[level](message);
    };
    return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
  }

  /** Where the next step's records begin. */
  mark(): { readonly exchanges: number; readonly log: number } {
    return { exchanges: this.#entries.length, log: this.#log.length };
  }

  /** The exchanges and log lines since `mark`, as they stand now. */
  since(mark: { readonly exchanges: number; readonly log: number }): {
    readonly exchanges: readonly Exchange[];
    readonly log: readonly string[];
  } {
    return {
      exchanges: this.#entries.slice(mark.exchanges).map((e) => this.#exchange(e)),
      log: this.#log.slice(mark.log),
    };
  }

  #exchange(e: Entry): Exchange {
    if (e.status === undefined || e.headers === undefined)
      return { request: e.request, ...(e.error === undefined ? {} : { error: e.error }), durationMs: e.durationMs };
    const bytes = new Uint8Array(e.chunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const c of e.chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    const text = new TextDecoder().decode(bytes);
    return {
      request: e.request,
      response: {
        status: e.status,
        headers: redactHeaders(e.headers),
        body: redactBody(text, e.headers.get('content-type')),
        bodyTruncated: e.size > this.#maxBody || !e.ended,
      },
      durationMs: e.durationMs,
    };
  }
}
