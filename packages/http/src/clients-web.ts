// The HTTP client where only fetch exists (browsers, Workers), so a browser's bundle holds no undici and no node:http.
import { HttpClientUnavailableError } from './errors.js';
import { fetchClient } from './fetch-client.js';
import type { ClientSettings, PlatformClients } from './platform.js';
import type { HttpClient } from './types.js';

export const clients: PlatformClients = {
  async load(settings: ClientSettings): Promise<HttpClient> {
    if (settings.dispatcher !== undefined)
      throw new HttpClientUnavailableError('a dispatcher (undici) was given', 'this runtime has no node:http');
    if (settings.choice === 'node' || settings.choice === 'undici')
      throw new HttpClientUnavailableError(
        `httpClient: '${settings.choice}' was asked for`,
        "this runtime has no node:http: use 'auto' or 'fetch'",
      );
    return fetchClient(settings.fetch, settings.maxConnections);
  },

  async defaultClient(): Promise<'fetch'> {
    return 'fetch';
  },
};
