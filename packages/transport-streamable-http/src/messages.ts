// Reading a POST's or GET's answer: a JSON message or an event stream, with the cursor for resuming it.
import {
  destroyQuietly,
  header,
  isIdentityEncoding,
  readPlainText,
  readSseBody,
  readText,
  ResponseTooLargeError,
  type HttpResponse,
  type SseEvent,
  type SseHandlers,
  utf8Length,
} from '@mcpc/http';
import { decodeMessage, type JsonRpcMessage, type JsonRpcProtocolError } from '@mcpc/jsonrpc';

export interface MessageHandlers {
  message(message: JsonRpcMessage, byteLength: number): void;
  malformed(error: JsonRpcProtocolError): void;
  warning(text: string): void;
}

/** Where a stream got to, for resuming it with `Last-Event-ID` and pacing the reconnect. */
export interface StreamCursor {
  lastEventId: string | undefined;
  retryMs: number | undefined;
}

// Every response of a connection carries the same one or two content types: the last one parsed is kept.
let lastContentType: string | undefined;
let lastMediaType = '';

/** The response's media type, lower case, without parameters (`application/json`); '' when it has none. */
export function mediaType(response: HttpResponse): string {
  const contentType = header(response, 'content-type');
  if (contentType === undefined) return '';
  if (contentType !== lastContentType) {
    lastMediaType = contentType.split(';')[0]!.trim().toLowerCase();
    lastContentType = contentType;
  }
  return lastMediaType;
}

/**
 * Reads a JSON body holding one JSON-RPC message, within `limit` decompressed bytes. An uncompressed
 * body is read in one go (its declared length checked against the limit first); a compressed one is
 * decompressed a chunk at a time, so a small bomb cannot expand in memory.
 */
export async function readJsonMessage(response: HttpResponse, limit: number, on: MessageHandlers): Promise<void> {
  const encoding = header(response, 'content-encoding');
  let text: string;
  let bytes: number;
  if (isIdentityEncoding(encoding)) {
    const declared = Number(header(response, 'content-length') ?? Number.NaN);
    if (declared > limit) {
      destroyQuietly(response.body);
      throw new ResponseTooLargeError(limit);
    }
    ({ text, bytes } = await readPlainText(
      response.body,
      limit,
      Number.isInteger(declared) && declared >= 0 ? declared : undefined,
    ));
  } else {
    text = await readText(response.body, encoding, limit);
    bytes = utf8Length(text);
  }
  if (text.trim() === '') return;
  deliver(text, bytes, on);
}

/**
 * Reads an SSE body, delivering each event's JSON-RPC message as it completes — so a result that has
 * arrived is kept even if the connection dies after it. Events of a type other than `message`, and the
 * empty priming event, carry no message. `stream.stopReading()`, asked after each chunk, ends the read early.
 */
export function readEventStream(
  response: HttpResponse,
  maxEventChars: number,
  cursor: StreamCursor,
  on: MessageHandlers,
  stream?: { stopReading(): boolean },
): Promise<void> {
  const handlers = new EventStreamHandlers(cursor, on, stream);
  return readSseBody(response.body, header(response, 'content-encoding'), maxEventChars, handlers);
}

/**
 * The parser's callbacks for one event stream. A class: an object literal of closures cost five objects a
 * response, and the parser calls these for every event, always on one shape.
 */
class EventStreamHandlers implements SseHandlers {
  readonly #cursor: StreamCursor;
  readonly #on: MessageHandlers;
  readonly #stream: { stopReading(): boolean } | undefined;

  constructor(cursor: StreamCursor, on: MessageHandlers, stream: { stopReading(): boolean } | undefined) {
    this.#cursor = cursor;
    this.#on = on;
    this.#stream = stream;
  }

  stop(): boolean {
    return this.#stream !== undefined && this.#stream.stopReading();
  }

  onId(id: string): void {
    this.#cursor.lastEventId = id;
  }

  onRetry(ms: number): void {
    this.#cursor.retryMs = ms;
  }

  onWarning(text: string): void {
    this.#on.warning(text);
  }

  onEvent(event: SseEvent): void {
    if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
    deliver(event.data, event.bytes ?? utf8Length(event.data), this.#on);
  }
}

function deliver(text: string, byteLength: number, on: MessageHandlers): void {
  const decoded = decodeMessage(text);
  if (decoded.ok) on.message(decoded.message, byteLength);
  else on.malformed(decoded.error);
}
