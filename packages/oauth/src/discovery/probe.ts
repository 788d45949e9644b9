// Asking the MCP server for a challenge: an unauthenticated request whose 401 names the resource metadata.
import type { HttpSettings } from '../http.js';
import { parseWwwAuthenticate, pickChallenge, type Challenge } from './www-authenticate.js';

/** What the MCP server answered a request without credentials. */
export interface ProbedChallenge {
  readonly status: number;
  /** The `WWW-Authenticate` header as sent, if any. */
  readonly wwwAuthenticate: string | undefined;
  readonly challenges: readonly Challenge[];
  /** The Bearer (else DPoP) challenge of a 401: the one this client answers. */
  readonly challenge: Challenge | undefined;
  /** That challenge's `resource_metadata`: where discovery starts. */
  readonly resourceMetadata: string | undefined;
}

/**
 * Ask the server for a challenge: a GET without credentials, answered 401, names its `resource_metadata`.
 * Only the headers are read (the body is cancelled); a network failure or timeout rejects.
 */
export async function probeChallenge(
  settings: HttpSettings,
  serverUrl: URL,
  signal?: AbortSignal,
): Promise<ProbedChallenge> {
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
    const challenges = parseWwwAuthenticate(header);
    const challenge = response.status === 401 ? pickChallenge(challenges, ['bearer', 'dpop']) : undefined;
    return {
      status: response.status,
      wwwAuthenticate: header,
      challenges,
      challenge,
      resourceMetadata: challenge?.params.resource_metadata,
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
    controller.abort();
  }
}

/** The `resource_metadata` a probe finds; any failure is "no answer" (discovery then tries the well-known URLs). */
export async function probeResourceMetadata(
  settings: HttpSettings,
  serverUrl: URL,
  signal?: AbortSignal,
): Promise<string | undefined> {
  try {
    return (await probeChallenge(settings, serverUrl, signal)).resourceMetadata;
  } catch {
    return undefined;
  }
}
