// Asking the MCP server for a challenge: an unauthenticated request whose 401 names the resource metadata.
import type { HttpSettings } from '../http.js';
import { parseWwwAuthenticate, pickChallenge } from './www-authenticate.js';

/**
 * Without a challenge to go by, ask the server for one: a request without credentials that it answers
 * 401 names its `resource_metadata`. Only the headers are read; any failure is "no answer".
 */
export async function probeResourceMetadata(
  settings: HttpSettings,
  serverUrl: URL,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const response = await settings.fetch(serverUrl.href, {
      method: 'GET',
      headers: { accept: 'application/json, text/event-stream' },
      redirect: 'manual',
      signal: controller.signal,
    });
    const header = response.headers.get('www-authenticate') ?? undefined;
    await response.body?.cancel().catch(() => {});
    if (response.status !== 401) return undefined;
    return pickChallenge(parseWwwAuthenticate(header), ['bearer', 'dpop'])?.params.resource_metadata;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
    controller.abort();
  }
}
