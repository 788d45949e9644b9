// The HTTP clients where Node's modules exist (Node, Deno, Bun): undici when installed, else node:http, or fetch.
import type * as Undici from 'undici';
import { HttpClientUnavailableError } from './errors.js';
import { fetchClient } from './fetch-client.js';
import { proxiesFrom } from './proxy.js';
import type { ClientSettings, PlatformClients } from './platform.js';
import type { HttpClient } from './types.js';

/** Bun, whose `undici` is a shim of its own unless the package is installed. */
const onBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

export const clients: PlatformClients = {
  async load(settings: ClientSettings): Promise<HttpClient> {
    const { choice, dispatcher } = settings;
    if (dispatcher !== undefined) return (await import('./undici-client.js')).fromDispatcher(dispatcher);
    if (choice === 'fetch') return fetchClient(settings.fetch, settings.maxConnections);
    if (choice !== 'node') {
      const undici = await importUndici();
      if (undici !== undefined)
        return (await import('./undici-client.js')).ownAgent(undici, {
          connectTimeout: settings.connectTimeout,
          proxy: settings.proxy,
          maxConnections: settings.maxConnections,
        });
      if (choice === 'undici')
        throw new HttpClientUnavailableError(
          "httpClient: 'undici' was asked for (on Bun, `undici` is Bun's own shim until the undici package is installed)",
        );
      // Bun's node:http is itself built on its fetch: fetch is the shorter way there, unless a proxy is set,
      // which only Node's client reads from the environment here.
      if (onBun && !settings.proxy) return fetchClient(settings.fetch, settings.maxConnections);
    }
    // Node's client goes through the proxy the environment names (see proxy.ts), never around it.
    return (await import('./node-client.js')).nodeClient({
      connectTimeout: settings.connectTimeout,
      maxConnections: settings.maxConnections,
      proxies: settings.proxy ? proxiesFrom(settings.env) : undefined,
    });
  },

  async defaultClient(): Promise<'undici' | 'node' | 'fetch'> {
    if ((await importUndici()) !== undefined) return 'undici';
    return onBun ? 'fetch' : 'node';
  },
};

async function importUndici(): Promise<typeof Undici | undefined> {
  let undici: typeof Undici;
  try {
    undici = await import('undici');
  } catch (error) {
    // Only its absence means "use Node's"; a broken install must not be papered over.
    const e = error as { code?: unknown; message?: unknown } | null;
    if (e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes("'undici'")) return undefined;
    throw error;
  }
  // Bun answers `import('undici')` with a built-in shim of its own (its fetch, and classes without
  // `dispatch`), where undici is not installed: taken for undici, every request failed there.
  return isUndici(undici) ? undici : undefined;
}

/** Whether a module that answers to the name `undici` is undici: its `Agent` dispatches. */
export function isUndici(module: unknown): boolean {
  const agent = (module as { Agent?: { prototype?: { dispatch?: unknown } } } | null)?.Agent;
  return typeof agent?.prototype?.dispatch === 'function';
}
