// The authorization code flow one step at a time, printing every HTTP exchange each step made.
import { fileURLToPath } from 'node:url';
import { BrowserOAuth } from '@mcpc/oauth';
import { OAuthSteps, OAuthStepError } from '@mcpc/oauth/steps';

/** One line per exchange: `  GET https://… → 200`. @param {readonly import('@mcpc/oauth/steps').Exchange[]} exchanges */
const show = (exchanges) => {
  for (const x of exchanges) console.log(`  ${x.request.method} ${x.request.url} → ${x.response?.status ?? x.error}`);
};

/**
 * `openUrl` visits the authorization URL; left out, the system browser opens it.
 * @param {string} serverUrl
 * @param {{ openUrl?: (url: URL, signal: AbortSignal) => void | Promise<void> }} [options]
 */
export async function walkOAuthSteps(serverUrl, { openUrl } = {}) {
  const flow = new OAuthSteps({ serverUrl, redirectUri: 'http://127.0.0.1/callback', scope: 'mcp' });
  // The redirect back reaches a loopback listener of BrowserOAuth's, on a port it picks.
  const browser = await new BrowserOAuth(openUrl === undefined ? {} : { openUrl }).prepare({
    redirectUri: 'http://127.0.0.1/callback',
  });
  try {
    const challenge = await flow.challenge();
    console.log(`challenge: HTTP ${challenge.value.status}`);
    show(challenge.exchanges);
    const resource = await flow.resourceMetadata({ resourceMetadataUrl: challenge.value.resourceMetadata });
    console.log(`resource metadata: ${resource.value.prm.resource}`);
    show(resource.exchanges);
    const server = await flow.authorizationServer({ resource: resource.value });
    console.log(`authorization server: ${server.value.issuer}`);
    show(server.exchanges);
    const discovered = server.value;
    const client = await flow.registerClient({ discovered });
    console.log(`client: ${client.value.source}`);
    show(client.exchanges);
    const pkce = await flow.pkce({ discovered });
    const request = await flow.authorizationUrl({
      discovered,
      clientId: client.value.client.clientId,
      pkce: pkce.value,
      redirectUri: browser.redirectUri,
    });
    console.log(`authorization: scope ${request.value.scope}`);
    const { authorizationUrl, state } = request.value;
    const callback = await flow.callback({ callback: await browser.complete(authorizationUrl, { state }) });
    console.log(`callback: iss ${callback.value.parameters.iss}, code ${callback.value.parameters.code}`);
    const token = await flow.exchangeCode({ checked: callback.value });
    console.log(`token: ${token.value.tokenType}, refreshable: ${token.value.refreshToken !== undefined}`);
    show(token.exchanges);
    const refreshed = await flow.refresh({ tokens: token.value });
    console.log(`refresh: a new access token: ${refreshed.value.accessToken !== token.value.accessToken}`);
    show(refreshed.exchanges);
  } catch (error) {
    // A failed step says which, why (the library's own error, its code), and what it sent up to then.
    if (!(error instanceof OAuthStepError)) throw error;
    console.log(`${error.step} failed (${error.reason}): ${error.message}`);
    show(error.exchanges);
  } finally {
    await browser.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await walkOAuthSteps(process.argv[2] ?? 'http://127.0.0.1:3001/mcp');
}
