// Signing in to an OAuth-protected MCP server from the page, by redirect or in a popup, then connecting to it.
//
// - Client registration: a Client ID Metadata Document when its https URL is given (the authorization
//   server fetches it, so no CORS is needed for it), else Dynamic Client Registration from the page (the
//   authorization server must answer CORS on its registration endpoint).
// - The redirect URI is this page: the redirect flow finishes here when the page loads again, and in a popup
//   this page hands the callback to its opener and closes.
// - Storage: IndexedDB. The authorization request (state, PKCE verifier) waits there across the redirect;
//   tokens stay there across reloads, their refresh tokens in memory only; the DPoP key pair stays there
//   too, its private key non-extractable, so a stored token remains usable after a reload.

// @ts-check
/* global document, window, location */
import { Client, streamableHttp } from '@mcpc/client';
import {
  completeRedirectAuthorization,
  IndexedDBStorage,
  OAuthProvider,
  popupInteraction,
  redirectToAuthorization,
  sendPopupCallback,
} from '@mcpc/oauth';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const input = () => /** @type {HTMLInputElement} */ ($('protected-url'));
const clientIdInput = () => /** @type {HTMLInputElement} */ ($('client-id-url'));
/** Keeps what the form says across the redirect: the server, and the client id document if any. */
const remember = () => {
  localStorage.setItem('mcpc-example-protected-url', input().value);
  localStorage.setItem('mcpc-example-client-id-url', clientIdInput().value);
};
const storage = new IndexedDBStorage({ databaseName: 'mcpc-browser-example' });
const redirectUri = `${location.origin}${location.pathname}`;

/**
 * The provider for one protected server; `interaction` only for the popup flow.
 * @param {string} serverUrl @param {import('@mcpc/oauth').OAuthProviderOptions['interaction']} [interaction]
 */
async function provider(serverUrl, interaction) {
  // A Client ID Metadata Document when one is given (what MCP 2026-07-28 prefers), else Dynamic Client
  // Registration under this name.
  const clientIdMetadataUrl = localStorage.getItem('mcpc-example-client-id-url') || undefined;
  return new OAuthProvider({
    serverUrl,
    storage,
    redirectUri,
    scope: 'mcp',
    clientName: 'mcpc browser example',
    ...(clientIdMetadataUrl ? { clientIdMetadataUrl } : {}),
    dpop: { keyPair: await storage.dpopKeyPair() },
    ...(interaction ? { interaction } : {}),
  });
}

/** @param {import('@mcpc/oauth').AuthorizationResult} result */
const signedIn = (result) => {
  $('auth-status').textContent =
    `Signed in (${result.tokenType}, scope ${result.scope}${result.refreshable ? ', refreshable' : ''}).`;
};
const failed = (/** @type {unknown} */ error) => {
  const e = /** @type {Error & { code?: string }} */ (error);
  $('auth-status').textContent = `Sign-in failed: ${e.name} ${e.code ?? ''}: ${e.message}`;
};

// In the popup: hand the callback to the opener, which redeems the code, and close.
const inPopup = window.opener !== null && sendPopupCallback();

if (!inPopup) {
  const saved = localStorage.getItem('mcpc-example-protected-url');
  if (saved !== null) input().value = saved;
  clientIdInput().value = localStorage.getItem('mcpc-example-client-id-url') ?? '';
  // Back from a redirect: redeem the code (the provider checks state, issuer and verifier).
  if (saved !== null) completeRedirectAuthorization(await provider(saved)).then((r) => r && signedIn(r), failed);

  $('sign-in-redirect').addEventListener('click', async () => {
    remember();
    await redirectToAuthorization(await provider(input().value)).catch(failed);
  });

  $('sign-in-popup').addEventListener('click', async () => {
    // Opened here, in the click, before anything is awaited: a popup opened later is blocked.
    const popup = window.open('about:blank', 'mcpc-oauth', 'popup,width=520,height=680');
    remember();
    try {
      const oauth = await provider(input().value, popupInteraction(popup ? { popup } : {}));
      signedIn(await oauth.authorize());
    } catch (error) {
      failed(error);
    }
  });

  $('connect-protected').addEventListener('click', async () => {
    const client = new Client({
      servers: [streamableHttp({ name: 'protected', url: input().value, auth: await provider(input().value) })],
    });
    try {
      await client.connect();
      $('protected-status').textContent = `Connected with a token: ${(await client.listTools()).length} tools.`;
    } catch (error) {
      const e = /** @type {Error & { code?: string }} */ (error);
      $('protected-status').textContent = `Could not connect: ${e.name} ${e.code ?? ''}`;
    } finally {
      await client.close();
    }
  });
}
