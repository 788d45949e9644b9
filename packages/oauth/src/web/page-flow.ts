// The authorization code flow from a web page: by redirect or in a popup.
//
// By redirect, the state and PKCE verifier wait in the provider's storage across the navigation; in a popup, its
// callback page hands the redirect back to the opener over a BroadcastChannel. Browser globals are read when called, so
// Node can load this module.
import { AbortError } from '@mcpc/jsonrpc';
import { AuthorizationAbandonedError, AuthorizationTimeoutError } from '../errors.js';
import type { AuthorizationInteraction } from '../interaction.js';
import type { AuthorizationResult, StartedAuthorization } from '../provider-options.js';

/** The provider's two halves of the code flow (an `OAuthProvider`). */
export interface CodeFlowProvider {
  startAuthorization(options?: {
    readonly redirectUri?: string;
    readonly scope?: string | readonly string[];
    readonly signal?: AbortSignal;
  }): Promise<StartedAuthorization>;
  completeAuthorization(
    callback: string | URL | URLSearchParams,
    options?: { readonly signal?: AbortSignal },
  ): Promise<AuthorizationResult>;
}

/** What a page's popup is to its opener. */
export interface PopupWindow {
  readonly closed: boolean;
  close(): void;
  readonly location: { replace(url: string): void };
}

interface PageGlobals {
  readonly location: { readonly href: string; assign(url: string): void };
  readonly history: { readonly state: unknown; replaceState(state: unknown, unused: string, url: string): void };
  open(url: string, target: string, features: string): PopupWindow | null;
  close(): void;
}
const page = (): PageGlobals => globalThis as unknown as PageGlobals;

/** The parameters an authorization response puts on the redirect URI. */
const RESPONSE_PARAMETERS = ['code', 'state', 'iss', 'error', 'error_description', 'error_uri', 'session_state'];

/** Whether `url` is a redirect back from an authorization server: it has `state`, and `code` or `error`. */
export function isAuthorizationCallback(url: string | URL): boolean {
  const query = new URL(url).searchParams;
  return query.has('state') && (query.has('code') || query.has('error'));
}

/**
 * Sends the page to the authorization server: starts the flow (the request's record goes to the
 * provider's storage, which must outlive the page — `IndexedDBStorage`) and navigates away. The page
 * at the redirect URI calls `completeRedirectAuthorization` when it loads.
 */
export async function redirectToAuthorization(
  provider: CodeFlowProvider,
  options: {
    readonly redirectUri?: string;
    readonly scope?: string | readonly string[];
    readonly signal?: AbortSignal;
    /** How the page leaves (default `location.assign`). */
    readonly navigate?: (url: URL) => void;
  } = {},
): Promise<StartedAuthorization> {
  const started = await provider.startAuthorization(options);
  (options.navigate ?? ((u: URL) => page().location.assign(u.href)))(started.authorizationUrl);
  return started;
}

/**
 * Finishes a redirect flow on the page it came back to: `undefined` when the URL is not a callback, else
 * the code is redeemed (state, issuer and verifier checked by the provider). The response parameters are
 * then taken off the address bar, so the code does not stay in history or go out in a `Referer`.
 */
export async function completeRedirectAuthorization(
  provider: CodeFlowProvider,
  options: { readonly url?: string | URL; readonly signal?: AbortSignal } = {},
): Promise<AuthorizationResult | undefined> {
  const own = options.url === undefined;
  const url = new URL(options.url ?? page().location.href);
  if (!isAuthorizationCallback(url)) return undefined;
  try {
    return await provider.completeAuthorization(url, options);
  } finally {
    if (own) {
      const clean = new URL(url);
      for (const name of RESPONSE_PARAMETERS) clean.searchParams.delete(name);
      page().history.replaceState(page().history.state, '', clean.href);
    }
  }
}

export interface PopupInteractionOptions {
  /**
   * The popup, opened in the click's handler (`window.open('about:blank', 'mcpc-oauth', …)`): browsers
   * block a popup opened later, after discovery has awaited the network. A function is called when the
   * flow needs it. Default: opened then, which a browser may block (`AuthorizationAbandonedError`).
   */
  readonly popup?: PopupWindow | (() => PopupWindow | null);
  /** Window features for a popup this interaction opens (`'popup,width=520,height=680'`). */
  readonly features?: string;
  /** The BroadcastChannel the callback page posts on (`'mcpc-oauth'`); the same in `sendPopupCallback`. */
  readonly channel?: string;
  /** How long the user has (300 000 ms). */
  readonly timeoutMs?: number;
  /**
   * Watch for the user closing the popup (default true). An authorization server that sends
   * `Cross-Origin-Opener-Policy: same-origin` severs the opener's view of the popup, which then reads as
   * closed at once: turn this off there, and let the user cancel through `signal`.
   */
  readonly detectClose?: boolean;
}

/** What the callback page posts to its opener. */
interface CallbackMessage {
  readonly type: 'mcpc-oauth-callback';
  readonly url: string;
}
const isCallbackMessage = (v: unknown): v is CallbackMessage =>
  typeof v === 'object' &&
  v !== null &&
  (v as CallbackMessage).type === 'mcpc-oauth-callback' &&
  typeof (v as CallbackMessage).url === 'string';

/** How long a closed popup's message may take to arrive before the popup counts as abandoned. */
const CLOSE_GRACE_MS = 1_000;
const CLOSE_POLL_MS = 250;

/**
 * The authorization code flow in a popup, as the provider's `interaction`: the popup goes to the
 * authorization server, the page at the redirect URI (same origin as the opener) calls
 * `sendPopupCallback()`, and the provider redeems the code in the opener. Call `provider.authorize()` from
 * a click handler that opened the popup.
 */
export function popupInteraction(options: PopupInteractionOptions = {}): AuthorizationInteraction {
  const timeoutMs = options.timeoutMs ?? 300_000;
  return {
    async prepare({ redirectUri }) {
      return {
        redirectUri,
        complete: (authorizationUrl, { state, signal }) =>
          new Promise<string>((resolve, reject) => {
            if (signal?.aborted) return reject(new AbortError(undefined, signal.reason));
            const given = typeof options.popup === 'function' ? options.popup() : options.popup;
            const popup =
              given ??
              page().open(authorizationUrl.href, 'mcpc-oauth', options.features ?? 'popup,width=520,height=680');
            if (popup === null || popup === undefined || popup.closed)
              return reject(new AuthorizationAbandonedError('popup-blocked'));
            if (given !== null && given !== undefined) popup.location.replace(authorizationUrl.href);

            const channel = new BroadcastChannel(options.channel ?? 'mcpc-oauth');
            let closedSince: number | undefined;
            // The callbacks below run later, once `settle` exists.
            const timer = setTimeout(() => settle(new AuthorizationTimeoutError(timeoutMs)), timeoutMs);
            const watch = setInterval(() => {
              if (options.detectClose === false || !popup.closed) return;
              closedSince ??= Date.now();
              if (Date.now() - closedSince >= CLOSE_GRACE_MS) settle(new AuthorizationAbandonedError('popup-closed'));
            }, CLOSE_POLL_MS);
            const settle = (error: unknown, url?: string) => {
              clearTimeout(timer);
              clearInterval(watch);
              signal?.removeEventListener('abort', onAbort);
              channel.close();
              if (!popup.closed) popup.close();
              if (url !== undefined) resolve(url);
              else reject(error);
            };
            channel.onmessage = (event: MessageEvent) => {
              // Another flow's callback (another tab, an older popup) is not this one's.
              if (!isCallbackMessage(event.data)) return;
              let theirs: string | null;
              try {
                theirs = new URL(event.data.url).searchParams.get('state');
              } catch {
                return;
              }
              if (theirs === state) settle(undefined, event.data.url);
            };
            const onAbort = () => settle(new AbortError(undefined, signal?.reason));
            signal?.addEventListener('abort', onAbort, { once: true });
          }),
        async close() {},
      };
    },
  };
}

/**
 * On the popup's redirect-URI page: when this page is an authorization callback, hands its URL to the
 * opener's `popupInteraction` and closes the window; returns whether it did. The code is redeemed by the
 * opener, which holds the request's verifier.
 */
export function sendPopupCallback(options: { readonly url?: string | URL; readonly channel?: string } = {}): boolean {
  const url = String(options.url ?? page().location.href);
  if (!isAuthorizationCallback(url)) return false;
  const channel = new BroadcastChannel(options.channel ?? 'mcpc-oauth');
  channel.postMessage({ type: 'mcpc-oauth-callback', url } satisfies CallbackMessage);
  channel.close();
  if (options.url === undefined) page().close();
  return true;
}
