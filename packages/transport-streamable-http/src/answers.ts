// Reading the answer to a request: a JSON body, or an SSE stream resumed until the answer.
//
// What is not one is said in plain words.
import {
  discard,
  header,
  HttpError,
  notAnEndpoint,
  refused,
  ResponseStreamClosedError,
  ResponseTooLargeError,
  sleep,
  UnauthorizedError,
  type AbortLink,
  type HttpResponse,
} from '@mcpc/http';
import type { JsonRpcMessage, JsonRpcProtocolError, JsonRpcRequest } from '@mcpc/jsonrpc';
import { AnswerStream } from './answer-stream.js';
import { noAnswer } from './diagnostics.js';
import { mediaType, readEventStream, readJsonMessage, type MessageHandlers, type StreamCursor } from './messages.js';
import type { ResolvedOptions } from './options.js';
import type { Wire } from './wire.js';

const ERROR_BODY_LIMIT = 1024 * 1024;

/** Where debug lines go, and whether anyone reads them now. */
export interface DebugTrace {
  enabled(): boolean;
  line(message: string): void;
}

/** Reads responses into JSON-RPC messages for the handlers it is given; resumes broken streams through the wire. */
export class Answers {
  readonly #options: ResolvedOptions;
  readonly #wire: Wire;
  /** Debug lines (the HTTP exchange, for a host tracing the protocol), asked first whether anyone reads them. */
  readonly #trace: DebugTrace | undefined;

  constructor(options: ResolvedOptions, wire: Wire, trace?: DebugTrace) {
    this.#options = options;
    this.#wire = wire;
    this.#trace = trace;
  }

  /**
   * Reads the answer to a request: a JSON body, or an SSE stream resumed with `Last-Event-ID` when it
   * breaks before the answer. Resolves once the answer was delivered; an SSE stream is closed then (see
   * AnswerStream), and is idle, until the answer, after `readTimeout` without an event. `stateless`: an
   * MCP 2026-07-28 request, which is never resumed; `longLived`: no idle bound until the answer.
   */
  async read(
    request: JsonRpcRequest,
    response: HttpResponse,
    abort: AbortLink,
    deliver: MessageHandlers,
    stateless = false,
    longLived = false,
  ): Promise<void> {
    const status = response.statusCode;
    // Not built for a logger that drops debug lines: this runs on every request.
    if (this.#trace?.enabled() === true)
      this.#trace.line(
        `POST ${request.method} id=${String(request.id)} → HTTP ${status} ${mediaType(response) || '(no content type)'}`,
      );
    if (status === 401 || status === 403) {
      await discard(response);
      throw this.unauthorized(response);
    }
    if (status >= 400) return this.#errorAnswer(request, response, deliver);
    const stream = new AnswerStream(longLived ? 0 : this.#options.readTimeout);
    const watch = new RequestWatch(request.id, stream, deliver);
    const cursor: StreamCursor = { lastEventId: undefined, retryMs: undefined };
    try {
      let failure: unknown;
      try {
        await this.messages(response, cursor, watch, stream);
      } catch (error) {
        if (abort.aborted) throw abort.reason;
        if (watch.answered) return; // The socket died after the answer: the answer stands.
        if (error instanceof ResponseTooLargeError || error instanceof HttpError) throw error;
        failure = error;
      }
      if (!watch.answered) await this.#unanswered(request, response, abort, watch, stream, cursor, failure, stateless);
    } finally {
      stream.release();
    }
  }

  /**
   * The POST's stream ended (or broke, with `failure`) before the answer: resumed until the answer where
   * the protocol allows, else a ResponseStreamClosedError that says why. Apart from `read`, whose frame
   * every request in flight holds.
   */
  async #unanswered(
    request: JsonRpcRequest,
    response: HttpResponse,
    abort: AbortLink,
    watch: RequestWatch,
    stream: AnswerStream,
    cursor: StreamCursor,
    failure: unknown,
    stateless: boolean,
  ): Promise<void> {
    if (stateless) {
      // MCP 2026-07-28 has no resumption: the break lost the request (and, for the server, cancelled
      // it). The caller re-issues it under a new id.
      if (failure !== undefined)
        throw new ResponseStreamClosedError(request.method, errorMessage(failure), { resumable: false });
      const type = mediaType(response);
      // A whole JSON body that was not the answer says so; a stream that ended without it, as before.
      const message =
        type === 'text/event-stream'
          ? undefined
          : noAnswer(this.#options.url, response.statusCode, type, request.method, watch.firstMalformed);
      throw new ResponseStreamClosedError(request.method, 'the response carried no answer', {
        resumable: false,
        ...(message !== undefined && { message }),
      });
    }
    for (let attempt = 0; !watch.answered; attempt++) {
      const type = mediaType(response);
      if (type !== 'text/event-stream' || this.#options.mode === 'json') {
        if (failure !== undefined) throw new ResponseStreamClosedError(request.method, errorMessage(failure));
        // Not a stream that broke: a whole response that was not the answer. Say so, in plain words.
        const message = noAnswer(this.#options.url, response.statusCode, type, request.method, watch.firstMalformed);
        throw new ResponseStreamClosedError(request.method, 'the response carried no answer', { message });
      }
      if (cursor.lastEventId === undefined) {
        const why = failure === undefined ? '' : `${errorMessage(failure)}, and `;
        throw new ResponseStreamClosedError(request.method, `${why}the server gave no event id to resume from`);
      }
      if (attempt >= this.#options.maxResumeAttempts) {
        throw new ResponseStreamClosedError(request.method, `resumption failed ${attempt} times`);
      }
      const signal = abort.signal; // resuming: a rare path, where an AbortSignal is no cost worth saving
      await sleep(this.#wire.reconnectDelay(cursor, attempt), signal);
      try {
        const resumed = await this.#wire.get(signal, cursor.lastEventId, this.#options.readTimeout);
        if (resumed.statusCode >= 400 || mediaType(resumed) !== 'text/event-stream') {
          await discard(resumed);
          throw new ResponseStreamClosedError(
            request.method,
            `the server refused to resume it (HTTP ${resumed.statusCode})`,
          );
        }
        response = resumed;
        await this.messages(resumed, cursor, watch, stream);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (watch.answered) return;
        if (error instanceof ResponseStreamClosedError || error instanceof ResponseTooLargeError) throw error;
        failure = error;
      }
    }
  }

  /** A 4xx to a request: a JSON-RPC error in the body keeps its code and data; anything else is an HttpError. */
  async #errorAnswer(request: JsonRpcRequest, response: HttpResponse, deliver: MessageHandlers): Promise<void> {
    let delivered = false;
    if (mediaType(response) === 'application/json') {
      try {
        await readJsonMessage(response, ERROR_BODY_LIMIT, {
          ...deliver,
          message: (m, bytes) => {
            if ('error' in m && (m.id === null || m.id === request.id)) {
              // The server may not have read the id; the error is this request's all the same.
              deliver.message({ jsonrpc: '2.0', id: request.id, error: m.error }, bytes);
              delivered = true;
            }
          },
        });
      } catch {
        // Not a JSON-RPC error after all: fall through to the HTTP status.
      }
    } else {
      await discard(response);
    }
    if (!delivered) {
      const type = mediaType(response);
      throw new HttpError(response.statusCode, refused(this.#options.url, response.statusCode, type, request.method), {
        contentType: type,
      });
    }
  }

  async httpError(response: HttpResponse, method: string | undefined): Promise<HttpError> {
    await discard(response);
    const type = mediaType(response);
    return new HttpError(response.statusCode, refused(this.#options.url, response.statusCode, type, method), {
      contentType: type,
    });
  }

  /** 401/403 without an auth provider that could act on it (one that could, acted in `exchange`). */
  unauthorized(response: HttpResponse): UnauthorizedError {
    const configured = this.#options.headers;
    // Credentials in the configured headers count as "authorization was given" too.
    const fromHeaders =
      typeof configured === 'object' && Object.keys(configured).some((name) => name.toLowerCase() === 'authorization');
    return new UnauthorizedError(response.statusCode, header(response, 'www-authenticate'), {
      url: this.#options.url,
      authConfigured: this.#options.auth !== undefined || fromHeaders,
    });
  }

  /** The messages of one response (JSON, SSE, or an acknowledgement with no body) to `on`. */
  messages(response: HttpResponse, cursor: StreamCursor, on: MessageHandlers, stream?: AnswerStream): Promise<void> {
    const type = mediaType(response);
    if (type === 'application/json') return readJsonMessage(response, this.#options.maxBodyBytes, on);
    if (type === 'text/event-stream' && this.#options.mode === 'streamable') {
      stream?.follow(response.body);
      return readEventStream(response, this.#options.maxSseEventBytes, cursor, on, stream);
    }
    return discard(response).then(() => {
      if (response.statusCode !== 202 && response.statusCode !== 204) {
        const expected = this.#options.mode === 'json' ? 'application/json' : 'application/json or text/event-stream';
        throw new HttpError(
          response.statusCode,
          notAnEndpoint(this.#options.url, response.statusCode, type, expected),
          { contentType: type },
        );
      }
    });
  }
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * What one request's response streams have shown so far, noted on the messages' way to `deliver`: a
 * class, one object a request where an object literal of closures and its state made five.
 */
class RequestWatch implements MessageHandlers {
  readonly #id: JsonRpcRequest['id'];
  readonly #stream: AnswerStream;
  readonly #deliver: MessageHandlers;
  answered = false;
  /** Why the first frame that was not JSON-RPC was not (for the message when no answer came). */
  firstMalformed: string | undefined;

  constructor(id: JsonRpcRequest['id'], stream: AnswerStream, deliver: MessageHandlers) {
    this.#id = id;
    this.#stream = stream;
    this.#deliver = deliver;
  }

  message(m: JsonRpcMessage, bytes: number): void {
    this.#stream.event();
    if (!('method' in m) && m.id === this.#id) {
      this.answered = true;
      this.#stream.answered();
    }
    this.#deliver.message(m, bytes);
  }

  malformed(e: JsonRpcProtocolError): void {
    this.#stream.event();
    this.firstMalformed ??= e.message;
    this.#deliver.malformed(e);
  }

  warning(text: string): void {
    this.#deliver.warning(text);
  }
}
