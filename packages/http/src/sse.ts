// Server-sent events read from body chunks, each event bounded, ids checked before they are echoed.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ResponseTooLargeError } from './errors.js';

export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

export interface SseHandlers {
  /** A complete event. The id, when valid, was already recorded through `onId`. */
  onEvent(event: SseEvent): void;
  onId(id: string): void;
  onRetry(ms: number): void;
  /** A bad id or a malformed field: reported, the stream goes on. */
  onWarning(message: string): void;
  /** Asked after each chunk: true stops reading there (the stream is released, nothing is thrown). */
  readonly stop?: () => boolean;
}

const MAX_EVENT_ID_LENGTH = 256;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Event ids are echoed back in `Last-Event-ID`: one with control characters could inject a header, and
 * an enormous one costs every reconnect. Only short, printable ASCII ids are kept.
 */
export function isAcceptableEventId(id: string): boolean {
  return id.length <= MAX_EVENT_ID_LENGTH && PRINTABLE_ASCII.test(id);
}

/**
 * Reads SSE events from decompressed byte chunks, with at most `maxBufferChars` buffered for one
 * unfinished line or event: an event that never ends costs bounded memory, and ends the stream with
 * ResponseTooLargeError.
 */
export async function readSse(
  chunks: AsyncIterable<Buffer>,
  maxBufferChars: number,
  handlers: SseHandlers,
): Promise<void> {
  let overflow: ResponseTooLargeError | undefined;
  const parser = createParser({
    maxBufferSize: maxBufferChars,
    onEvent(message: EventSourceMessage) {
      if (message.id !== undefined) {
        if (isAcceptableEventId(message.id)) handlers.onId(message.id);
        else
          handlers.onWarning(
            `ignored an SSE event id that is too long or not printable ASCII (${message.id.length} chars)`,
          );
      }
      handlers.onEvent({ event: message.event, data: message.data });
    },
    onRetry: (ms: number) => handlers.onRetry(ms),
    onError(error) {
      if (error.type === 'max-buffer-size-exceeded')
        overflow = new ResponseTooLargeError(maxBufferChars, 'an SSE event');
      else handlers.onWarning(`malformed SSE field (${error.type})`);
    },
  });
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (overflow !== undefined) throw overflow;
    if (handlers.stop?.() === true) return; // leaving the loop releases the body
  }
  parser.feed(decoder.decode());
  if (overflow !== undefined) throw overflow;
}
