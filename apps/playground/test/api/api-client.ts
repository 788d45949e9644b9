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
import { afterAll, beforeAll } from 'vitest';
import { startFixture, type Fixture } from '../../../../tooling/fixtures/http/spawn.mjs';
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

/**
 * What each API test file starts from, as its beforeAll and afterAll: a playground with its demo connected and its live
 * stream open, handed to `opened`. `demoOverHttp()` starts the demo's Streamable HTTP leg beside it (its /mcp URL);
 * after all, the stream is closed, the playground stopped, and any leg started with it.
 */
export function openDemoForFile(opened: (demo: { pg: Playground; events: Events }) => void): {
  demoOverHttp: () => Promise<URL>;
} {
  let demo: { pg?: Playground; events?: Events } = {};
  const legs: Fixture[] = [];
  beforeAll(async () => {
    const pg = await startWithDemo();
    const events = new Events(pg);
    await events.opened;
    demo = { pg, events };
    opened({ pg, events });
  }, 90_000);
  afterAll(async () => {
    demo.events?.close();
    await demo.pg?.stop();
    await Promise.all(legs.map((leg) => leg.stop()));
  });
  return {
    async demoOverHttp() {
      const leg = await startFixture(demoServerScript, ['http'], { timeoutMs: 20_000 });
      legs.push(leg);
      return new URL('/mcp', leg.url);
    },
  };
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
