// What the OAuth debugger's steps read out of responses and tokens: DPoP proofs, token sets, JSON-RPC bodies.
import { describeJwt, redactSecret, type Exchange, type StoredTokens } from '@mcpc/oauth/steps';

type DecodedJwt = NonNullable<ReturnType<typeof describeJwt>>;

/** The DPoP proofs a step's requests carried, decoded. */
export function proofsOf(exchanges: readonly Exchange[]): DecodedJwt[] {
  return exchanges.flatMap((x) => {
    const proof = x.request.headers.dpop;
    const decoded = proof === undefined ? undefined : describeJwt(proof);
    return decoded === undefined ? [] : [decoded];
  });
}

/** A token set as the page sees it. */
export function tokenInfo(t: StoredTokens): Record<string, unknown> {
  return {
    token_type: t.tokenType,
    access_token: redactSecret(t.accessToken),
    ...(t.refreshToken ? { refresh_token: redactSecret(t.refreshToken) } : {}),
    ...(t.scope !== undefined ? { scope: t.scope } : {}),
    ...(t.expiresAt !== undefined ? { expires_in: Math.round((t.expiresAt - Date.now()) / 1000) } : {}),
    ...(t.dpopJkt !== undefined ? { dpop_jkt: t.dpopJkt } : {}),
    accessTokenJwt: describeJwt(t.accessToken) ?? 'opaque (not a JWT)',
  };
}

/** A JSON-RPC response as far as the authenticated call reads it. */
export interface RpcMessage {
  result?: { serverInfo?: { name?: string; version?: string }; protocolVersion?: string };
  error?: { code: number; message: string };
}

/** The JSON-RPC response in a JSON or SSE body. */
export function rpcMessage(text: string): RpcMessage | undefined {
  try {
    return JSON.parse(text) as RpcMessage;
  } catch {
    /* maybe SSE */
  }
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    try {
      const m: unknown = JSON.parse(data);
      if (m && typeof m === 'object' && ('result' in m || 'error' in m)) return m as RpcMessage;
    } catch {
      /* not JSON */
    }
  }
  return undefined;
}

/** A JSON body as an object, or `{}`. */
export function safeJson(text: string | undefined): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text ?? '');
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
