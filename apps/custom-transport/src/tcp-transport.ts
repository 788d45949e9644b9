// A Transport of JSON-RPC over one TCP connection, one message per newline-terminated line.
//
// It is written against @mcpc/jsonrpc alone.

import { connect, type Socket } from 'node:net';
import {
  ConnectionClosedError,
  MessageTooLargeError,
  TransportError,
  TransportErrorCode,
  decodeMessage,
  type JsonRpcMessage,
  type Transport,
  type TransportSink,
} from '@mcpc/jsonrpc';

export interface TcpTransportOptions {
  /** The server's port. */
  readonly port: number;
  /** The server's address (127.0.0.1). */
  readonly host?: string;
  /** How long to wait for the connection, in milliseconds (10 000). */
  readonly connectTimeout?: number;
  /** The largest line accepted from the server, in bytes (4 MiB); a longer one closes the connection. */
  readonly maxMessageBytes?: number;
  /** How long `close()` waits for the server to end its side before cutting the socket (2 000 ms). */
  readonly closeTimeout?: number;
}

const NEWLINE = 0x0a;

/**
 * Newline-delimited JSON-RPC over TCP: the framing MCP's stdio transport uses, on a socket. The server
 * end can be the official SDK's `StdioServerTransport` given the socket as its input and output.
 */
export class TcpTransport implements Transport {
  readonly #host: string;
  readonly #port: number;
  readonly #connectTimeout: number;
  readonly #maxBytes: number;
  readonly #closeTimeout: number;
  #socket: Socket | undefined;
  #sink: TransportSink | undefined;
  #state: 'new' | 'connecting' | 'open' | 'closed' = 'new';
  /** Bytes of the line not yet terminated; held as chunks, joined once the newline arrives. */
  #partial: Buffer[] = [];
  #partialBytes = 0;

  constructor(options: TcpTransportOptions) {
    this.#host = options.host ?? '127.0.0.1';
    this.#port = options.port;
    this.#connectTimeout = options.connectTimeout ?? 10_000;
    this.#maxBytes = options.maxMessageBytes ?? 4 * 1024 * 1024;
    this.#closeTimeout = options.closeTimeout ?? 2_000;
  }

  /** `tcp://host:port`, for messages. */
  get label(): string {
    return `tcp://${this.#host.includes(':') ? `[${this.#host}]` : this.#host}:${this.#port}`;
  }

  start(sink: TransportSink): Promise<void> {
    if (this.#state !== 'new') return Promise.reject(new TransportError('start() was already called'));
    this.#state = 'connecting';
    return new Promise<void>((resolve, reject) => {
      const socket = connect({ host: this.#host, port: this.#port });
      socket.setNoDelay(true);
      const fail = (error: Error): void => {
        clearTimeout(timer);
        socket.destroy();
        this.#state = 'closed';
        // Transport errors the client acts on carry the shared codes: this one is "could not reach it".
        reject(
          new TransportError(`could not connect to ${this.label}: ${error.message}`, {
            code: TransportErrorCode.NetworkError,
            cause: error,
          }),
        );
      };
      const timer = setTimeout(
        () => fail(new Error(`no connection within ${this.#connectTimeout} ms`)),
        this.#connectTimeout,
      );
      socket.once('error', fail);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', fail);
        this.#socket = socket;
        this.#sink = sink;
        this.#state = 'open';
        let cause: Error | undefined;
        socket.on('data', (chunk: Buffer) => this.#read(chunk));
        socket.on('error', (error) => {
          cause ??= new TransportError(`the connection to ${this.label} failed: ${error.message}`, {
            code: TransportErrorCode.NetworkError,
            cause: error,
          });
        });
        socket.once('close', () =>
          this.#finish(
            cause ??
              new TransportError(`${this.label} closed the connection`, { code: TransportErrorCode.NetworkError }),
          ),
        );
        resolve();
      });
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    const socket = this.#socket;
    if (this.#state !== 'open' || socket === undefined) return Promise.reject(new ConnectionClosedError(undefined));
    let line: string;
    try {
      line = JSON.stringify(message) + '\n';
    } catch (error) {
      return Promise.reject(new TransportError('the message could not be serialized as JSON', { cause: error }));
    }
    // Resolves once the bytes are handed to the kernel: the callback runs after the write flushes.
    return new Promise<void>((resolve, reject) => {
      socket.write(line, (error) =>
        error ? reject(new TransportError(`could not write to ${this.label}`, { cause: error })) : resolve(),
      );
    });
  }

  /** Ends our side, waits (bounded) for the server to end its own, and releases the socket. */
  async close(): Promise<void> {
    const socket = this.#socket;
    if (this.#state === 'closed' || socket === undefined) {
      this.#state = 'closed';
      return;
    }
    this.#finish(undefined);
    if (socket.destroyed) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => socket.destroy(), this.#closeTimeout);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.end();
    });
  }

  /** Splits the stream into lines, bounding the line still being read by `maxMessageBytes`. */
  #read(chunk: Buffer): void {
    let start = 0;
    while (this.#state === 'open') {
      const newline = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (this.#partialBytes + piece.length > this.#maxBytes) {
        this.#finish(new MessageTooLargeError(this.#maxBytes));
        this.#socket?.destroy();
        return;
      }
      if (newline === -1) {
        if (piece.length > 0) {
          this.#partial.push(piece);
          this.#partialBytes += piece.length;
        }
        return;
      }
      const line = this.#partial.length === 0 ? piece : Buffer.concat([...this.#partial, piece]);
      this.#partial = [];
      this.#partialBytes = 0;
      start = newline + 1;
      this.#deliver(line);
    }
  }

  #deliver(line: Buffer): void {
    // A CR before the newline, and blank lines, are framing, not messages.
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    if (line.subarray(0, end).every((byte) => byte === 0x20 || byte === 0x09)) return;
    const decoded = decodeMessage(line.subarray(0, end));
    if (decoded.ok) this.#sink!.message(decoded.message, { byteLength: line.length + 1 });
    else this.#sink!.error(decoded.error);
  }

  #finish(cause: Error | undefined): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#partial = [];
    this.#partialBytes = 0;
    const sink = this.#sink;
    this.#sink = undefined;
    sink?.close(cause);
  }
}
