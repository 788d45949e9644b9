// A scripted in-process peer (a Transport the test drives), a recording logger, and a tick.
import type { JsonRpcMessage, Logger, Transport, TransportSendOptions, TransportSink } from '@mcpc/jsonrpc';

/**
 * An in-process Transport whose far end is driven by the test: what the engine sends is queued for the
 * test to read, and the test injects what "the server" says. It implements the Transport contract for
 * real (exactly one close, nothing delivered after it), so engine tests exercise the same paths a real
 * transport does without a process in the way of deterministic timing.
 */
export class ScriptedPeer implements Transport {
  #sink: TransportSink | undefined;
  #closed = false;
  readonly sent: { message: JsonRpcMessage; options: TransportSendOptions | undefined }[] = [];
  #waiters: ((m: JsonRpcMessage) => void)[] = [];
  failSends: Error | undefined;
  closeCount = 0;

  async start(sink: TransportSink): Promise<void> {
    this.#sink = sink;
  }

  async send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) throw new Error('closed');
    if (this.failSends) throw this.failSends;
    this.sent.push({ message, options });
    this.#waiters.shift()?.(message);
  }

  async close(): Promise<void> {
    this.serverClose(undefined);
  }

  /** Resolves with the next message the engine sends (or the oldest unread one). */
  next(): Promise<JsonRpcMessage> {
    const unread = this.sent[this.#read];
    if (unread !== undefined) {
      this.#read++;
      return Promise.resolve(unread.message);
    }
    return new Promise((resolve) => {
      this.#waiters.push((m) => {
        this.#read++;
        resolve(m);
      });
    });
  }
  #read = 0;

  serverSends(message: unknown): void {
    this.#sink?.message(message as JsonRpcMessage);
  }

  serverError(error: Error): void {
    this.#sink?.error(error);
  }

  serverClose(cause: Error | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    this.closeCount++;
    this.#sink?.close(cause);
  }
}

/** A logger that records every line, for asserting what was (and was not) logged. */
export function recordingLogger(): Logger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));
