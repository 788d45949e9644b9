// The auth hook: the one contract between a transport that carries requests and a provider of credentials.
//
// `@mcpc/oauth` is such a provider.

/** The HTTP methods a transport asks credentials for. */
export type AuthMethod = 'POST' | 'GET' | 'DELETE';

/** One request about to go to the server. */
export interface AuthContext {
  readonly method: AuthMethod;
  readonly url: URL;
}

/** The server refused a request with 401 or 403. */
export interface AuthChallenge extends AuthContext {
  readonly status: 401 | 403;
  /** The `WWW-Authenticate` challenge, when the server sent one. */
  readonly wwwAuthenticate: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Any response from the server, for what it may carry for the provider (a `DPoP-Nonce`). */
export interface AuthResponse {
  readonly url: URL;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * The seam between a transport and an authorization provider (such as `@mcpc/oauth`'s `OAuthProvider`):
 * the transport asks it for headers before every request, and tells it about a 401/403. Declared in the
 * kernel so that the transports, the provider and the client share one contract and import none of each
 * other.
 */
export interface AuthProvider {
  /** Headers for this request (`Authorization`, a DPoP proof…). */
  headers(context: AuthContext): Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;
  /**
   * The server refused the request. Resolve `'retry'` once new credentials are in place (the request is
   * re-sent with fresh headers, at most twice per request — a DPoP server's nonce comes with the second
   * refusal; a refused request did not run); `'fail'` raises `UnauthorizedError`; throw to raise an
   * error of your own (an `InsufficientScopeError`).
   */
  challenge(challenge: AuthChallenge): 'retry' | 'fail' | Promise<'retry' | 'fail'>;
  /** Every response, for what it may carry for the provider (a `DPoP-Nonce`). */
  responded?(response: AuthResponse): void;
}
