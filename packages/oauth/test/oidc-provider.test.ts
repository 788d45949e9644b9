// OAuthProvider against a real OIDC provider: PKCE, client credentials, DPoP, step-up, server binding, headless use.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import { deprecationsNoted, forgetDeprecations, setDeprecationNotices } from '@mcpc/jsonrpc';
import {
  AuthorizationRequiredError,
  BrowserOAuth,
  FileStorage,
  InsufficientScopeError,
  MemoryStorage,
  OAuthProvider,
  storageKey,
  type OAuthProviderOptions,
} from '../src/index.js';
import {
  browser,
  callTool,
  cleanup,
  connect,
  control,
  recordingLogger,
  startAuthorizationServer,
  startResourceServer,
  stats,
  stopAll,
  type Fixture,
} from './helpers.js';

// End to end against a real authorization server (panva's oidc-provider, its own process on a Node.js
// LTS it supports) and a protected MCP server, through StreamableHttpTransport + JsonRpcEngine.

interface AsStats {
  grants: {
    grantType: string;
    resource: string | null;
    scope: string | null;
    dpop: boolean;
    tokenType: string | null;
    clientId: string;
    clientAuthMethod: string;
  }[];
  grantErrors: { grantType: string | null; error: string }[];
  authorizations: {
    clientId: string;
    scope: string | null;
    resource: string | null;
    codeChallengeMethod: string | null;
    redirectUri: string;
  }[];
  registrations: number;
  cimdFetches: number;
}
interface RsStats {
  requests: {
    method: string;
    status: number;
    scheme?: string;
    issuer?: string;
    jkt?: string;
    proofChecked?: boolean;
    error?: string;
    rpc?: string;
  }[];
  wellKnown: string[];
  nonceChallenges: number;
}

const REDIRECT = 'http://127.0.0.1/callback';
const CIMD = 'https://conformance-test.local/client-metadata.json';

let as: Fixture;
let rs: Fixture;
let dir: string;
let jwtKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpc-oauth-'));
  const pair = await generateKeyPair('ES256', { extractable: true });
  jwtKey = pair.privateKey;
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'm2m-jwt-key', alg: 'ES256', use: 'sig' };
  const m2m = { grant_types: ['client_credentials'], response_types: [], redirect_uris: [] };
  as = await startAuthorizationServer({
    clients: [
      {
        client_id: 'm2m-basic',
        client_secret: 'basic-secret',
        token_endpoint_auth_method: 'client_secret_basic',
        ...m2m,
      },
      { client_id: 'm2m-post', client_secret: 'post-secret', token_endpoint_auth_method: 'client_secret_post', ...m2m },
      {
        client_id: 'm2m-jwt',
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'ES256',
        jwks: { keys: [publicJwk] },
        ...m2m,
      },
      {
        client_id: 'app-pre',
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    cimd: {
      [CIMD]: {
        client_id: CIMD,
        client_name: 'mcpc conformance client',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      },
    },
  });
  rs = await startResourceServer({ authorizationServers: [as.url] });
});
afterEach(async () => {
  await cleanup();
  await fetch(new URL('/_reset', rs.url), { method: 'POST' }).then((r) => r.arrayBuffer());
  await control(rs, { authorizationServers: [as.url] });
});
afterAll(async () => {
  await stopAll();
  await rm(dir, { recursive: true, force: true });
});

function interactive(options: Partial<OAuthProviderOptions> & { visited?: URL[] } = {}) {
  const { visited, ...rest } = options;
  const logger = recordingLogger();
  const provider = new OAuthProvider({
    serverUrl: rs.url,
    redirectUri: REDIRECT,
    scope: 'mcp',
    interaction: new BrowserOAuth({ openUrl: browser(visited ?? []), timeoutMs: 15_000 }),
    logger,
    ...rest,
  });
  return { provider, logger };
}

describe('authorization code with PKCE through BrowserOAuth', () => {
  it('registers dynamically (deprecated: one notice), authorizes with S256 and resource, and calls a tool', async () => {
    forgetDeprecations('dynamic-client-registration');
    const before = await stats<AsStats>(as);
    const { provider, logger } = interactive();
    const engine = await connect(rs.url, provider);
    expect(await callTool(engine, 'echo', { message: 'hi' })).toBe('Echo: hi');

    const after = await stats<AsStats>(as);
    expect(after.registrations).toBe(before.registrations + 1);
    const auth = after.authorizations.at(-1);
    expect(auth?.codeChallengeMethod).toBe('S256');
    expect(auth?.resource).toBe(rs.url);
    // BrowserOAuth listened on an ephemeral port: the redirect URI carries it.
    expect(auth?.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const grant = after.grants.at(-1);
    expect(grant).toMatchObject({ grantType: 'authorization_code', resource: rs.url, dpop: false });
    const rsStats = await stats<RsStats>(rs);
    expect(
      rsStats.requests.filter((r) => r.status === 200).every((r) => r.scheme === 'Bearer' && r.issuer === as.url),
    ).toBe(true);
    expect(logger.lines.filter((l) => l.includes('deprecated: dynamic-client-registration'))).toHaveLength(1);

    // A second registration in this process gives no second notice.
    const second = interactive({ storage: new MemoryStorage() });
    await callTool(await connect(rs.url, second.provider), 'echo', { message: 'again' });
    expect(second.logger.lines.filter((l) => l.includes('deprecated'))).toHaveLength(0);
    expect((await stats<AsStats>(as)).registrations).toBe(before.registrations + 2);
  });

  it('notes the registration in the kernel registry @mcpc/client shares, whose switch silences it', async () => {
    forgetDeprecations('dynamic-client-registration');
    setDeprecationNotices(false);
    try {
      const quiet = interactive({ storage: new MemoryStorage() });
      await callTool(await connect(rs.url, quiet.provider), 'echo', { message: 'quiet' });
      expect(quiet.logger.lines.filter((l) => l.includes('deprecated'))).toHaveLength(0);
      expect(deprecationsNoted().has('dynamic-client-registration')).toBe(false);
    } finally {
      setDeprecationNotices(true);
    }
    const loud = interactive({ storage: new MemoryStorage() });
    await callTool(await connect(rs.url, loud.provider), 'echo', { message: 'loud' });
    expect(loud.logger.lines.filter((l) => l.includes('deprecated: dynamic-client-registration'))).toHaveLength(1);
    expect(deprecationsNoted().has('dynamic-client-registration')).toBe(true);
    expect(Object.getOwnPropertySymbols(globalThis).map(String)).not.toContain('Symbol(@mcpc/client.deprecations)');
  });

  it('uses pre-registered credentials that name the issuer, without registering', async () => {
    const before = await stats<AsStats>(as);
    const { provider } = interactive({ clientInfo: { issuer: as.url, clientId: 'app-pre' } });
    expect(await callTool(await connect(rs.url, provider), 'echo', { message: 'pre' })).toBe('Echo: pre');
    const after = await stats<AsStats>(as);
    expect(after.registrations).toBe(before.registrations);
    expect(after.authorizations.at(-1)?.clientId).toBe('app-pre');
  });

  it('uses the Client ID Metadata Document URL as the client id where the server supports it', async () => {
    const before = await stats<AsStats>(as);
    const { provider } = interactive({ clientIdMetadataUrl: CIMD });
    expect(await callTool(await connect(rs.url, provider), 'echo', { message: 'cimd' })).toBe('Echo: cimd');
    const after = await stats<AsStats>(as);
    expect(after.registrations).toBe(before.registrations);
    expect(after.cimdFetches).toBeGreaterThan(before.cimdFetches);
    expect(after.authorizations.at(-1)?.clientId).toBe(CIMD);
    expect(after.grants.at(-1)?.clientId).toBe(CIMD);
  });

  it('refreshes an access token the resource server calls expired, and carries on', async () => {
    // Short, but long enough that the handshake, on a loaded machine, ends before the first token expires (its
    // expiry is in whole seconds, so it can come up to a second early): a refresh there would be one too many.
    const ttlSeconds = 4;
    const pastExpiry = () => new Promise((r) => setTimeout(r, ttlSeconds * 1_000 + 600));
    const shortAs = await startAuthorizationServer({ accessTokenTtl: ttlSeconds });
    await control(rs, { authorizationServers: [shortAs.url] });
    const storage = new MemoryStorage();
    const { provider } = interactive({ storage, refreshMarginMs: 0 });
    const engine = await connect(rs.url, provider);
    const first = await provider.tokens();
    expect(first?.refreshToken).toBeDefined();
    await pastExpiry();
    // Claim it is still good, so it is presented: the resource server's 401 drives the refresh.
    const key = storageKey.tokens(rs.url, shortAs.url);
    storage.set(key, { ...(storage.get(key) as object), expiresAt: Date.now() + 3_600_000 });
    expect(await callTool(engine, 'echo', { message: 'later' })).toBe('Echo: later');
    const refreshed = await provider.tokens();
    expect(refreshed?.accessToken).not.toBe(first?.accessToken);
    expect(refreshed?.refreshToken).not.toBe(first?.refreshToken); // rotated
    const s = await stats<AsStats>(shortAs);
    expect(s.grants.map((g) => g.grantType)).toEqual(['authorization_code', 'refresh_token']);
    expect(s.grants[1]?.resource).toBe(rs.url);
    const rsStats = await stats<RsStats>(rs);
    expect(rsStats.requests.some((r) => r.status === 401 && r.error?.includes('exp'))).toBe(true);

    // And without help: past expiry the provider refreshes before presenting.
    await pastExpiry();
    expect(await callTool(engine, 'echo', { message: 'proactive' })).toBe('Echo: proactive');
    expect((await stats<AsStats>(shortAs)).grants.map((g) => g.grantType)).toEqual([
      'authorization_code',
      'refresh_token',
      'refresh_token',
    ]);
    await shortAs.stop();
  });
});

describe('client credentials', () => {
  it.each([
    ['client_secret_basic', { clientId: 'm2m-basic', clientSecret: 'basic-secret' }],
    [
      'client_secret_post',
      { clientId: 'm2m-post', clientSecret: 'post-secret', tokenEndpointAuthMethod: 'client_secret_post' },
    ],
    ['private_key_jwt', { clientId: 'm2m-jwt', keyId: 'm2m-jwt-key' }],
  ] as const)('authenticates with %s and calls a tool', async (method, info) => {
    const provider = new OAuthProvider({
      serverUrl: rs.url,
      grantType: 'client_credentials',
      scope: 'mcp',
      clientInfo: { issuer: as.url, ...info, ...(method === 'private_key_jwt' ? { privateKey: jwtKey } : {}) },
      logger: recordingLogger(),
    });
    const engine = await connect(rs.url, provider);
    const who = JSON.parse(await callTool(engine, 'whoami')) as { client_id: string; scope: string };
    expect(who.client_id).toBe(info.clientId);
    expect(who.scope).toContain('mcp');
    expect((await stats<AsStats>(as)).grants.at(-1)).toMatchObject({
      grantType: 'client_credentials',
      clientAuthMethod: method,
      resource: rs.url,
    });
  });
});

describe('DPoP (RFC 9449)', () => {
  it('binds the token at the token endpoint, proves every MCP request, and answers nonces on both', async () => {
    const dpopAs = await startAuthorizationServer({ dpopNonce: true });
    const dpopRs = await startResourceServer({ authorizationServers: [dpopAs.url], dpopNonce: true });
    const provider = new OAuthProvider({
      serverUrl: dpopRs.url,
      redirectUri: REDIRECT,
      scope: 'mcp',
      dpop: true,
      interaction: new BrowserOAuth({ openUrl: browser() }),
      logger: recordingLogger(),
    });
    const engine = await connect(dpopRs.url, provider);
    expect(await callTool(engine, 'echo', { message: 'bound' })).toBe('Echo: bound');
    const tokens = await provider.tokens();
    expect(tokens?.tokenType).toBe('DPoP');
    const who = JSON.parse(await callTool(engine, 'whoami')) as { jkt: string };
    expect(who.jkt).toBe(tokens?.dpopJkt);

    // The resource server expires its nonce without saying so: the stale proof is refused with
    // use_dpop_nonce and a fresh DPoP-Nonce, and the one retry carries it.
    await control(dpopRs, { rotateNonce: true });
    expect(await callTool(engine, 'echo', { message: 'fresh nonce' })).toBe('Echo: fresh nonce');

    const a = await stats<AsStats>(dpopAs);
    expect(a.grantErrors.some((e) => e.error === 'use_dpop_nonce')).toBe(true); // the token endpoint's nonce, answered
    expect(a.grants.at(-1)).toMatchObject({ grantType: 'authorization_code', dpop: true, tokenType: 'DPoP' });
    const r = await stats<RsStats>(dpopRs);
    expect(r.nonceChallenges).toBeGreaterThan(0); // the resource server's nonce, answered
    const ok = r.requests.filter((x) => x.status === 200);
    expect(ok.length).toBeGreaterThan(2);
    expect(ok.every((x) => x.scheme === 'DPoP' && x.proofChecked === true && x.jkt === tokens?.dpopJkt)).toBe(true);

    await dpopAs.stop();
    await dpopRs.stop();
  });
});

describe('scope step-up', () => {
  it('raises InsufficientScopeError, re-authorizes with the union, and the union survives a restart', async () => {
    const file = join(dir, 'step-up.json');
    const visited: URL[] = [];
    const { provider } = interactive({ storage: new FileStorage(file), scope: 'files:read', visited });
    const engine = await connect(rs.url, provider);
    const error = await callTool(engine, 'write_file').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect((error as InsufficientScopeError).scope).toBe('files:write');
    expect((error as InsufficientScopeError).errorDescription).toBe('write_file needs files:write');

    visited.length = 0;
    await provider.authorize();
    const asked = visited[0]?.searchParams.get('scope')?.split(' ') ?? [];
    expect(asked).toEqual(expect.arrayContaining(['files:read', 'files:write']));
    expect(await callTool(engine, 'write_file')).toBe('written');

    // A new process (a new provider on the same file) that meets another challenge keeps both.
    await control(rs, { toolScopes: { write_file: 'files:write', whoami: 'admin' } });
    const restartedVisits: URL[] = [];
    const restarted = interactive({
      storage: new FileStorage(file),
      scope: 'files:read',
      visited: restartedVisits,
      stepUp: 'reauthorize',
    }).provider;
    const engine2 = await connect(rs.url, restarted);
    expect(JSON.parse(await callTool(engine2, 'whoami'))).toMatchObject({ iss: as.url });
    expect(restartedVisits[0]?.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['files:read', 'files:write', 'admin']),
    );
    expect(await callTool(engine2, 'write_file')).toBe('written');
  });
});

describe('authorization server binding', () => {
  it('retires a token refused for another server, keeps a token set aside, and picks it up again', async () => {
    const as2 = await startAuthorizationServer();
    const storage = new MemoryStorage();
    const visits: URL[] = [];
    const { provider } = interactive({ storage, visited: visits });
    const engine = await connect(rs.url, provider);
    const token1 = (await provider.tokens())?.accessToken;
    expect(token1).toBeDefined();

    // The resource moves to as2: the token from as is refused, retired, and as2 authorizes.
    await control(rs, { authorizationServers: [as2.url] });
    expect(await callTool(engine, 'echo', { message: 'moved' })).toBe('Echo: moved');
    expect(storage.get(storageKey.tokens(rs.url, as.url))).toBeUndefined();
    const token2 = (await provider.tokens())?.accessToken;
    expect((await provider.tokens())?.issuer).toBe(as2.url);
    const after = (await stats<RsStats>(rs)).requests;
    // as's token was presented once more (the refused request) and never after.
    const lastAs = after.map((r) => r.issuer).lastIndexOf(as.url);
    expect(after.slice(lastAs + 1).every((r) => r.issuer !== as.url)).toBe(true);

    // Back to as, by discovery (no refusal): as2's token is set aside, not deleted.
    await control(rs, { authorizationServers: [as.url] });
    await provider.authorize();
    expect((await provider.tokens())?.issuer).toBe(as.url);
    expect((storage.get(storageKey.tokens(rs.url, as2.url)) as { accessToken: string }).accessToken).toBe(token2);

    // To as2 again: as's token is refused (retired) and as2's is picked up without a new authorization.
    const authorizations = visits.length;
    await control(rs, { authorizationServers: [as2.url] });
    expect(await callTool(engine, 'echo', { message: 'back' })).toBe('Echo: back');
    expect(visits.length).toBe(authorizations);
    expect((await provider.tokens())?.accessToken).toBe(token2);
    expect(storage.get(storageKey.tokens(rs.url, as.url))).toBeUndefined();
    await as2.stop();
  });
});

describe('non-interactive use', () => {
  it('fails fast without a stored token, and uses the tokens an earlier interactive run stored', async () => {
    const file = join(dir, 'ci.json');
    const ci = new OAuthProvider({
      serverUrl: rs.url,
      redirectUri: REDIRECT,
      storage: new FileStorage(file),
      logger: recordingLogger(),
    });
    const started = Date.now();
    const error = await connect(rs.url, ci).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationRequiredError);
    expect(Date.now() - started).toBeLessThan(5_000);

    const { provider } = interactive({ storage: new FileStorage(file) });
    await callTool(await connect(rs.url, provider), 'echo', { message: 'seed' });

    const later = new OAuthProvider({
      serverUrl: rs.url,
      redirectUri: REDIRECT,
      storage: new FileStorage(file),
      logger: recordingLogger(),
    });
    expect(await callTool(await connect(rs.url, later), 'echo', { message: 'ci' })).toBe('Echo: ci');
  });
});
