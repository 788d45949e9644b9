// The legacy SSE transport with an OAuthProvider: the token on the stream and on every POST, 401 recovery.
import { afterAll, describe, expect, it } from 'vitest';
import { JsonRpcEngine } from '@mcpc/jsonrpc';
import { SseTransport } from '@mcpc/transport-sse-legacy';
import { OAuthProvider, headlessInteraction } from '../src/index.js';
import { control, recordingLogger, startOAuthFixtureTracked, startScriptedAs, stats, stopAll } from './helpers.js';

// The deprecated HTTP+SSE transport takes the same `auth` as Streamable HTTP: both the GET that opens
// the stream and the POSTs to its endpoint carry the token, and a 401 on either is answered by the
// provider. Against a protected HTTP+SSE server (sse-resource-server.mjs) and the scripted
// authorization server.

interface SseStats {
  requests: { method: string; path: string; status: number; scheme: string | null }[];
}

afterAll(stopAll);

describe('@mcpc/transport-sse-legacy with an OAuthProvider', () => {
  it('authorizes on the stream GET, presents the token on every POST, and recovers from a 401 on a POST', async () => {
    const as = await startScriptedAs();
    const server = await startOAuthFixtureTracked('sse-resource-server.mjs', [
      '--config',
      JSON.stringify({ authorizationServers: [as.url] }),
    ]);
    const provider = new OAuthProvider({
      serverUrl: server.url,
      redirectUri: 'http://127.0.0.1/callback',
      scope: 'mcp',
      interaction: headlessInteraction(),
      logger: recordingLogger(),
    });
    const engine = new JsonRpcEngine(
      new SseTransport({ url: server.url, auth: provider, deprecationNotice: false, pingIntervalMs: 0, retries: 0 }),
      { requestTimeout: 20_000 },
    );
    try {
      await engine.start();
      await engine.request('initialize', {
        protocolVersion: '2024-11-05',
        capabilities: {},
        clientInfo: { name: 'mcpc-oauth-sse-test', version: '0.0.0' },
      });
      await engine.notify('notifications/initialized');
      const call = async (message: string) =>
        (
          (await engine.request('tools/call', { name: 'echo', arguments: { message } })) as {
            content: { text: string }[];
          }
        ).content[0]?.text;
      expect(await call('one')).toBe('Echo: one');

      // The server stops accepting the token: the next POST is refused, the provider gets a new one, and
      // the POST is sent again.
      await control(server, { revoke: true });
      expect(await call('two')).toBe('Echo: two');

      const { requests } = await stats<SseStats>(server);
      expect(requests[0]).toMatchObject({ method: 'GET', path: '/sse', status: 401, scheme: null });
      expect(requests[1]).toMatchObject({ method: 'GET', path: '/sse', status: 200, scheme: 'Bearer' });
      const posts = requests.filter((r) => r.method === 'POST');
      expect(posts.every((r) => r.scheme === 'Bearer')).toBe(true);
      expect(posts.map((r) => r.status)).toEqual([202, 202, 202, 401, 202]);
    } finally {
      await engine.close();
    }
  });
});
