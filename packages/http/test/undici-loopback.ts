// Test helper: a loopback node:http server and an own-agent undici client aimed at it, closed together.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { ownAgent } from '../src/undici-client.js';
import type { HttpClient } from '../src/types.js';

export interface UndiciLoopback {
  /** The server's origin, `http://127.0.0.1:<port>`. */
  readonly base: URL;
  readonly client: HttpClient;
  /** Closes the client, drops the server's open connections and stops it listening. */
  close(): Promise<void>;
}

export async function undiciLoopback(listener: RequestListener): Promise<UndiciLoopback> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const client = ownAgent(undici, { connectTimeout: 5_000, proxy: false, maxConnections: 4 });
  return {
    base,
    client,
    async close() {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
