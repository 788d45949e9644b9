// How a user is sent to authorize and the redirect comes back: the interaction contract, and a headless one.
import { AuthorizationResponseError } from './errors.js';
import type { FetchFunction } from './http.js';

/**
 * How a user is sent to authorize, and how the redirect back reaches the provider. `BrowserOAuth`
 * implements it with a loopback listener and the system browser; a host with its own UI, a test, or a
 * conformance client implements it too. A provider without one is non-interactive: it uses stored
 * tokens and refresh tokens, and fails fast with `AuthorizationRequiredError` when they do not suffice.
 */
export interface AuthorizationInteraction {
  /**
   * Get ready to receive a redirect (start a listener, say) and tell the provider the redirect URI
   * this request will carry — the configured one, or one with the port actually bound.
   */
  prepare(options: {
    readonly redirectUri: string;
    readonly signal?: AbortSignal | undefined;
  }): Promise<PreparedInteraction>;
}

export interface PreparedInteraction {
  readonly redirectUri: string;
  /**
   * Send the user to `authorizationUrl`, and resolve with the redirect back: the callback URL (or its
   * query). `state` is the request's, for telling its callback from a stray one.
   */
  complete(
    authorizationUrl: URL,
    options: { readonly state: string; readonly signal?: AbortSignal | undefined },
  ): Promise<string | URL | URLSearchParams>;
  /** Release whatever `prepare` set up. Called once, whatever happened. */
  close(): Promise<void>;
}

export interface HeadlessInteractionOptions {
  /** The redirect URI to put in the request (default: the provider's). */
  readonly redirectUri?: string;
  readonly fetch?: FetchFunction;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A headless interaction: GET the authorization URL without following redirects and take the
 * `Location` the authorization server answers with as the callback — for an authorization server
 * that approves without a user (a test stack, a conformance suite's). No browser, no listener.
 */
export function headlessInteraction(options: HeadlessInteractionOptions = {}): AuthorizationInteraction {
  const fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  return {
    async prepare({ redirectUri }) {
      const target = options.redirectUri ?? redirectUri;
      return {
        redirectUri: target,
        async complete(authorizationUrl, { signal }) {
          const response = await fetcher(authorizationUrl.href, {
            method: 'GET',
            redirect: 'manual',
            headers: { ...options.headers },
            ...(signal === undefined ? {} : { signal }),
          });
          await response.body?.cancel().catch(() => {});
          const location = response.headers.get('location');
          if (response.status < 300 || response.status > 399 || location === null) {
            throw new AuthorizationResponseError(
              'invalid',
              `the authorization endpoint answered HTTP ${response.status} instead of redirecting back`,
            );
          }
          return new URL(location, authorizationUrl);
        },
        async close() {},
      };
    },
  };
}
