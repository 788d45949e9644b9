// The Server-Sent Events hub: each event to every page on GET /api/events, with a bounded buffer and heartbeats.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerEvent } from '../contract/api.js';

/** Events queued per client while its socket is backed up; past it the oldest droppable ones go, then the client. */
const MAX_QUEUED = 2_000;
/** Bytes queued per client before the same happens. */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
/** Event types a client can re-fetch (GET …/frames, …/http, …/timeline), so they are the first dropped when it lags. */
const DROPPABLE = new Set<string>(['frame', 'http', 'progress', 'span'] satisfies ServerEvent['type'][]);
const HEARTBEAT_MS = 15_000;

/** Sends one event to every page. */
export type Emit = (event: ServerEvent) => void;

class EventClient {
  private queue: { type: string; text: string }[] = [];
  private queuedBytes = 0;
  private blocked = false;
  private gone = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly onGone: () => void,
  ) {
    res.on('drain', () => this.flush());
    res.on('close', () => this.close());
  }

  send(type: string, text: string): void {
    if (this.gone) return;
    if (!this.blocked) {
      this.blocked = !this.res.write(text);
      return;
    }
    this.queue.push({ type, text });
    this.queuedBytes += text.length;
    while (this.queue.length > MAX_QUEUED || this.queuedBytes > MAX_QUEUED_BYTES) {
      const i = this.queue.findIndex((e) => DROPPABLE.has(e.type));
      if (i < 0) {
        // Nothing left that the page could fetch again: end the stream; EventSource reconnects and resyncs.
        this.close();
        return;
      }
      this.queuedBytes -= this.queue[i]?.text.length ?? 0;
      this.queue.splice(i, 1);
    }
  }

  private flush(): void {
    this.blocked = false;
    while (this.queue.length > 0 && !this.blocked) {
      const next = this.queue.shift()!;
      this.queuedBytes -= next.text.length;
      this.blocked = !this.res.write(next.text);
    }
  }

  close(): void {
    if (this.gone) return;
    this.gone = true;
    this.queue = [];
    this.res.end();
    this.onGone();
  }
}

export class EventHub {
  readonly #clients = new Set<EventClient>();
  readonly #heartbeat: NodeJS.Timeout;

  constructor() {
    this.#heartbeat = setInterval(() => {
      for (const c of this.#clients) c.send('heartbeat', ': heartbeat\n\n');
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** Takes over a GET /api/events response; `initial` events are sent to this client alone (the current state). */
  attach(req: IncomingMessage, res: ServerResponse, initial: readonly ServerEvent[]): void {
    req.socket.setKeepAlive(true);
    req.socket.setNoDelay(true);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 1000\n: connected\n\n');
    const client = new EventClient(res, () => this.#clients.delete(client));
    this.#clients.add(client);
    for (const event of initial) client.send(event.type, format(event));
  }

  emit(event: ServerEvent): void {
    if (this.#clients.size === 0) return;
    const text = format(event);
    for (const c of this.#clients) c.send(event.type, text);
  }

  get size(): number {
    return this.#clients.size;
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const c of [...this.#clients]) c.close();
  }
}

/** One event: a single `data:` line of JSON (JSON.stringify never emits a raw newline). */
function format(event: ServerEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}
