// The API tests' client: a playground without a browser, its routes called by their contract/api.ts keys, its events.
import type {
  Api,
  ErrorBody,
  PathParams,
  RequestOf,
  ResponseOf,
  RouteKey,
  ServerEvent,
  ServerView,
} from '../../contract/api.js';
import { demoServerScript, startPlayground, until, type Playground } from '../harness.js';

export interface Answer<T> {
  status: number;
  body: T;
}

/** Calls a declared route over HTTP with the token: the answer typed as the route declares it (or an error body). */
export async function call<K extends RouteKey>(
  pg: Playground,
  key: K,
  params: PathParams<K>,
  body?: RequestOf<K>,
  query?: Record<Api[K]['query'], string>,
): Promise<Answer<ResponseOf<K>>> {
  const [method, pattern] = key.split(' ') as [string, string];
  const values = params as Record<string, string>;
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
  const search = query === undefined ? '' : `?${new URLSearchParams(query).toString()}`;
  return send<ResponseOf<K>>(pg, method, `${path}${search}`, body);
}

/** Any request with the token (JSON when `body` is given): for paths and bodies the declared API does not allow. */
export async function send<T = unknown>(
  pg: Playground,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  const res = await fetch(new URL(path, pg.origin), {
    method,
    headers: {
      'x-playground-token': pg.token,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/** The error code of a failed answer. */
export function codeOf(answer: Answer<unknown>): string | undefined {
  return (answer.body as Partial<ErrorBody> | undefined)?.error?.code;
}

/** A playground without its demo, with the demo's stdio leg added through the API as `demo` and connected. */
export async function startWithDemo(): Promise<Playground> {
  const pg = await startPlayground(['--no-demo']);
  const added = await call(
    pg,
    'POST /api/servers',
    {},
    {
      kind: 'stdio',
      name: 'demo',
      command: process.execPath,
      args: [demoServerScript, 'stdio'],
    },
  );
  if (added.status !== 200) throw new Error(`adding the demo: ${added.status} ${JSON.stringify(added.body)}`);
  await connected(pg, 'demo');
  return pg;
}

/** What each API test file starts from: a playground with its demo connected, and its live stream open. */
export async function openDemo(): Promise<{ pg: Playground; events: Events }> {
  const pg = await startWithDemo();
  const events = new Events(pg);
  await events.opened;
  return { pg, events };
}

/** Closes what `openDemo` opened, and any fixtures a file started beside it. */
export async function closeDemo(
  opened: { pg?: Playground; events?: Events },
  ...fixtures: ({ stop(): Promise<unknown> } | undefined)[]
): Promise<void> {
  opened.events?.close();
  await opened.pg?.stop();
  await Promise.all(fixtures.map((f) => f?.stop()));
}

/** Waits until the server is connected; its view. */
export function connected(pg: Playground, id: string): Promise<ServerView> {
  return until(async () => {
    const { body } = await call(pg, 'GET /api/servers', {});
    return body.find((s) => s.id === id && s.state === 'connected');
  }, `server "${id}" to connect`);
}

/** The live stream (`GET /api/events?token=`), read over HTTP: every event kept, waited for by a predicate. */
export class Events {
  readonly seen: ServerEvent[] = [];
  readonly #controller = new AbortController();
  readonly #waiters = new Set<() => void>();
  readonly opened: Promise<void>;

  constructor(pg: Playground, token = pg.token) {
    this.opened = this.#read(new URL(`/api/events?token=${encodeURIComponent(token)}`, pg.origin));
  }

  async #read(url: URL): Promise<void> {
    const res = await fetch(url, { signal: this.#controller.signal });
    if (res.status !== 200 || res.body === null) throw new Error(`GET /api/events: ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            for (const line of block.split('\n'))
              if (line.startsWith('data: ')) this.seen.push(JSON.parse(line.slice(6)) as ServerEvent);
            for (const wake of this.#waiters) wake();
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  }

  /** The first event (seen already, or to come) of the type that `match` accepts. */
  next<T extends ServerEvent['type']>(
    type: T,
    match: (e: Extract<ServerEvent, { type: T }>) => boolean = () => true,
    timeoutMs = 15_000,
  ): Promise<Extract<ServerEvent, { type: T }>> {
    const find = () =>
      this.seen.find((e): e is Extract<ServerEvent, { type: T }> => e.type === type && match(e as never));
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(`no "${type}" event within ${timeoutMs} ms; seen: ${this.seen.map((e) => e.type).join(', ')}`),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
      check();
    });
  }

  close(): void {
    this.#controller.abort();
  }
}
