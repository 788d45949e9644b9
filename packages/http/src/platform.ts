// The contract between createHttpClient and the clients a platform has (`#http-clients`).
//
// `#http-clients` is clients-node.ts or clients-web.ts.
import type { FetchFunction, HttpClient, HttpClientChoice, UndiciDispatcher } from './types.js';

/** What `createHttpClient` settled, handed to the platform's loader on the first request. */
export interface ClientSettings {
  readonly choice: HttpClientChoice;
  readonly dispatcher: UndiciDispatcher | undefined;
  readonly fetch: FetchFunction | undefined;
  readonly connectTimeout: number;
  readonly maxConnections: number;
  /** Whether the environment names a proxy (read once, as the client is made). */
  readonly proxy: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The HTTP clients of one kind of runtime. */
export interface PlatformClients {
  load(settings: ClientSettings): Promise<HttpClient>;
  /** What `'auto'` picks here. */
  defaultClient(): Promise<'undici' | 'node' | 'fetch'>;
}
