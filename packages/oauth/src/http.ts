// How OAuth requests are sent: the fetch, the URL policy, timeouts, no redirects, and bounded JSON bodies.
import { AbortError } from '@mcpc/jsonrpc';
import { OAuthErrorCode } from './codes.js';
import { InvalidResponseError, OAuthError } from './errors.js';
import { checkPeerUrl, type PeerUrlPolicy } from './discovery/url-policy.js';

/** The `fetch` the provider sends OAuth requests with (the global one by default). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** How OAuth requests are sent: through which fetch, under which URL policy, within which bounds. */
export interface HttpSettings {
  readonly fetch: FetchFunction;
  readonly policy: PeerUrlPolicy;
  /** The configured MCP server's origin: URLs on it are the host's own choice, not the peer's. */
  readonly trustedOrigin: string;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
}

/** Options oauth4webapi hands its `customFetch`. */
interface CustomFetchInit {
  readonly body?: unknown;
  readonly headers: Record<string, string>;
  readonly method: string;
  readonly redirect: 'manual';
  readonly signal?: AbortSignal;
}

/**
 * Check a URL before anything is sent to it: the configured server's own origin is the host's choice;
 * anything else came from the peer and must pass {@link checkPeerUrl}.
 */
export function checkOutgoing(settings: HttpSettings, url: string, purpose: string): URL {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (
    parsed !== undefined &&
    parsed.origin === settings.trustedOrigin &&
    parsed.username === '' &&
    parsed.password === '' &&
    !url.includes('#')
  )
    return parsed;
  return checkPeerUrl(url, purpose, settings.policy);
}

/** Whether oauth4webapi must be told to allow plain HTTP for this endpoint: only the local-stack exception. */
export function insecureAllowed(settings: HttpSettings, endpoint: unknown): boolean {
  if (typeof endpoint !== 'string') return false;
  try {
    return new URL(endpoint).protocol === 'http:' && settings.policy.localStack;
  } catch {
    return false;
  }
}

async function readBounded(response: Response, limit: number): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw new InvalidResponseError(
          `a response from ${new URL(response.url || 'http://unknown').origin} exceeded ${limit} bytes`,
        );
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * One OAuth HTTP request: the URL checked first (a refused URL gets nothing), redirects never followed
 * (a 3xx is an answer, not an invitation to go elsewhere), bounded in time and in body size. The
 * returned `Response` holds the whole (bounded) body.
 */
export interface SendInit {
  readonly purpose: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
  readonly signal?: AbortSignal | undefined;
}

export async function send(settings: HttpSettings, url: string, init: SendInit): Promise<Response> {
  checkOutgoing(settings, url, init.purpose);
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = init.signal === undefined ? timeout : AbortSignal.any([init.signal, timeout]);
  const { purpose } = init;
  let response: Response;
  try {
    response = await settings.fetch(url, {
      method: init.method,
      headers: init.headers,
      body: (init.body ?? null) as NonNullable<RequestInit['body']> | null,
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    if (init.signal?.aborted === true) throw new AbortError(undefined, init.signal.reason);
    if (timeout.aborted)
      throw new OAuthError(
        `the ${purpose} request to ${new URL(url).origin} timed out after ${settings.timeoutMs} ms`,
        { code: OAuthErrorCode.Network, cause: error },
      );
    throw new OAuthError(
      `could not reach ${new URL(url).origin} for the ${purpose}: ${error instanceof Error ? error.message : String(error)}`,
      { code: OAuthErrorCode.Network, cause: error },
    );
  }
  const bytes = await readBounded(response, settings.maxBodyBytes);
  const copy = new Response(NULL_BODY.has(response.status) ? null : bytes, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // Response.url is read-only and empty on a constructed response; oauth4webapi does not need it.
  return copy;
}

/** The `customFetch` oauth4webapi calls: the same checks and bounds as {@link send}. */
export function customFetchFor(settings: HttpSettings, purpose: string, signal?: AbortSignal) {
  return (url: string, options: CustomFetchInit): Promise<Response> =>
    send(settings, url, {
      purpose,
      method: options.method,
      headers: options.headers,
      body: options.body,
      signal: options.signal ?? signal,
    });
}

/** GET a JSON document (metadata). Returns the response with its bounded body. */
export function getJson(settings: HttpSettings, url: string, purpose: string, signal?: AbortSignal): Promise<Response> {
  return send(settings, url, { purpose, method: 'GET', headers: { accept: 'application/json' }, signal });
}
