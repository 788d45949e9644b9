// @ts-check
// Signs in to a protected MCP server through the system browser (the authorization code flow with PKCE,
// redirected back to a loopback listener), calls a tool, and refreshes the token. Build the packages
// first (npx -y pnpm@10.34.8 build), then:
//
//   node examples/browser-login.mjs http://127.0.0.1:3001/mcp
//
// test/readme.test.ts runs this file against oidc-provider and a protected MCP server (whose tools
// include `echo`), visiting the authorization URL through `openUrl` instead of a browser.
import { fileURLToPath } from 'node:url';
import { Client, streamableHttp, textOf } from '@mcpc/client';
import { BrowserOAuth, OAuthProvider } from '@mcpc/oauth';

/**
 * `openUrl` visits the authorization URL; left out, the system browser opens it.
 * @param {string} serverUrl
 * @param {{ openUrl?: (url: URL, signal: AbortSignal) => void | Promise<void> }} [options]
 */
export async function signInAndCall(serverUrl, { openUrl } = {}) {
  const auth = new OAuthProvider({
    serverUrl,
    redirectUri: 'http://127.0.0.1/callback', // no port: BrowserOAuth listens on a free one
    scope: 'mcp',
    interaction: new BrowserOAuth(openUrl === undefined ? {} : { openUrl }),
  });
  const client = new Client({
    servers: [streamableHttp({ name: 'protected', url: serverUrl, auth })],
    clientInfo: { name: 'oauth-example', version: '1.0.0' },
  });
  try {
    // The server answers 401: discovery, the browser, the code exchange — then the request again.
    await client.connect();
    console.log(textOf(await client.callTool('echo', { message: 'signed in' })));

    // Tokens are refreshed on their own before they expire; refresh() does it now.
    const { expiresAt, refreshable } = await auth.refresh();
    console.log(`refreshed: valid until ${expiresAt?.toISOString()}, refreshable: ${refreshable}`);
    console.log(textOf(await client.callTool('echo', { message: 'still signed in' })));
  } finally {
    await client.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await signInAndCall(process.argv[2] ?? 'http://127.0.0.1:3001/mcp');
