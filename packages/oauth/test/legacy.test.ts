// A 2025-03-26 server without protected resource metadata: its own authorization server, default endpoints.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DiscoveryError, MemoryStorage, OAuthProvider, headlessInteraction, storageKey } from '../src/index.js';
import {
  callTool,
  cleanup,
  connect,
  control,
  recordingLogger,
  startOAuthFixtureTracked,
  startResourceServer,
  stats,
  stopAll,
  type Fixture,
} from './helpers.js';

// MCP 2025-03-26 servers: no protected resource metadata, the server's origin as its own authorization
// server — with RFC 8414 metadata there, or only the default endpoints. Against legacy-server.mjs.

interface LegacyStats {
  paths: string[];
  authorizations: Record<string, string>[];
  tokens: Record<string, string>[];
  registrations: Record<string, unknown>[];
}

afterEach(cleanup);
afterAll(stopAll);

const headless = (serverUrl: string, storage = new MemoryStorage()) =>
  new OAuthProvider({
    serverUrl,
    redirectUri: 'http://127.0.0.1/callback',
    interaction: headlessInteraction(),
    storage,
    logger: recordingLogger(),
  });

const startLegacy = (config: object): Promise<Fixture> =>
  startOAuthFixtureTracked('legacy-server.mjs', ['--config', JSON.stringify(config)]);

describe('a 2025-03-26 server (no protected resource metadata)', () => {
  it('is its own authorization server: metadata at its origin, after both RFC 9728 URLs answered 404', async () => {
    const server = await startLegacy({ metadata: true });
    const storage = new MemoryStorage();
    expect(await callTool(await connect(server.url, headless(server.url, storage)), 'echo', { message: 'march' })).toBe(
      'Echo: march',
    );
    const s = await stats<LegacyStats>(server);
    const origin = new URL(server.url).origin;
    expect(s.paths.slice(0, 4)).toEqual([
      '/mcp',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
    ]);
    expect(s.paths).toEqual(expect.arrayContaining(['/oauth/register', '/oauth/authorize', '/oauth/token']));
    expect(s.authorizations[0]).toMatchObject({ code_challenge_method: 'S256', resource: server.url });
    expect(storage.get(storageKey.binding(server.url))).toEqual({ issuer: origin, resource: server.url, legacy: true });
  });

  it('without metadata, uses the default endpoints /authorize, /token and /register', async () => {
    const server = await startLegacy({});
    expect(await callTool(await connect(server.url, headless(server.url)), 'echo', { message: 'defaults' })).toBe(
      'Echo: defaults',
    );
    const s = await stats<LegacyStats>(server);
    expect(s.paths).toEqual(
      expect.arrayContaining(['/.well-known/oauth-authorization-server', '/register', '/authorize', '/token']),
    );
    expect(s.registrations).toHaveLength(1);
    expect(s.tokens[0]).toMatchObject({ grant_type: 'authorization_code', resource: server.url });
  });

  it('is not assumed when a challenge names a resource_metadata that is not there: that fails closed', async () => {
    const rs = await startResourceServer({ authorizationServers: ['https://as.example'] });
    await control(rs, {
      resourceMetadataOverride: `${new URL(rs.url).origin}/.well-known/oauth-protected-resource/elsewhere`,
    });
    const error = await connect(rs.url, headless(rs.url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscoveryError);
    expect((error as DiscoveryError).document).toBe('protected-resource');
  });
});
