import { decodeMessage, type JsonRpcMessage, type JsonRpcProtocolError } from '@mcpc/jsonrpc';
import type { Dispatcher } from 'undici';
import { bodyChunks, readText } from './body.js';
import { header } from './http.js';
import { readSse } from './sse.js';

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

export const mediaType = (response: Dispatcher.ResponseData): string => (header(response, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** Reads a JSON body holding one JSON-RPC message, within `limit` decompressed bytes. */
export async function readJsonMessage(response: Dispatcher.ResponseData, limit: number, on: MessageHandlers): Promise<void> {
  const text = await readText(response.body, header(response, 'content-encoding'), limit);
  if (text.trim() === '') return;
  deliver(text, on);
}

/**
 * Reads an SSE body, delivering each event's JSON-RPC message as it completes — so a result that has
 * arrived is kept even if the connection dies after it. Events of a type other than `message`, and the
 * empty priming event, carry no message.
 */
export async function readEventStream(response: Dispatcher.ResponseData, maxEventChars: number, cursor: StreamCursor, on: MessageHandlers): Promise<void> {
  await readSse(bodyChunks(response.body, header(response, 'content-encoding'), undefined), maxEventChars, {
    onId: (id) => void (cursor.lastEventId = id),
    onRetry: (ms) => void (cursor.retryMs = ms),
    onWarning: on.warning,
    onEvent: (event) => {
      if (event.data === '' || (event.event !== undefined && event.event !== 'message')) return;
      deliver(event.data, on);
    },
  });
}

function deliver(text: string, on: MessageHandlers): void {
  const decoded = decodeMessage(text);
  if (decoded.ok) on.message(decoded.message, Buffer.byteLength(text));
  else on.malformed(decoded.error);
}
