// The scope a server's own 401 challenge names, asked before `mcpc login` authorizes: the spec's first choice of scope.
import { createHttpClient, destroyQuietly } from '@mcpc/http';
import { parseWwwAuthenticate } from '@mcpc/oauth';
import type { CliContext } from '../context.js';

/** One unauthenticated request is enough; a server that says nothing in this long has no challenge to read. */
const PROBE_MS = 5_000;

/**
 * The `scope` of the server's Bearer (or DPoP) challenge to an unauthenticated `initialize`, or undefined
 * (no 401, no scope in it, no answer). The MCP authorization spec's scope selection takes this first and
 * the resource metadata's `scopes_supported` only without it; a login that skipped it asked for every
 * scope the server lists (`admin` included) where the challenge named `mcp`.
 */
export async function challengedScope(
  ctx: Pick<CliContext, 'env' | 'signal'>,
  url: string,
): Promise<string | undefined> {
  const http = createHttpClient({ env: ctx.env, connectTimeout: PROBE_MS, maxConnections: 1 });
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error('no answer')), PROBE_MS);
  const onAbort = (): void => stop.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await http.request({
      url: new URL(url),
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcpc-login', version: '0' } },
      }),
      signal: stop.signal,
      headersTimeout: PROBE_MS,
      bodyTimeout: PROBE_MS,
    });
    // Not read (an SSE answer could stay open); destroyed quietly, as undici's body errors on destroy.
    destroyQuietly(response.body);
    if (response.statusCode !== 401) return undefined;
    const raw = response.headers['www-authenticate'];
    const header = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
    const challenge = parseWwwAuthenticate(header).find((c) => c.scheme === 'bearer' || c.scheme === 'dpop');
    const scope = challenge?.params.scope?.trim();
    return scope === undefined || scope === '' ? undefined : scope;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    await http.close();
  }
}
