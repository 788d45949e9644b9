// Hostile authorization servers (scripted): discovery, the authorization request and response, tokens.
import { describe, expect, it } from 'vitest';
import {
  AuthorizationResponseError,
  AuthorizationServerChangedError,
  BrowserOAuth,
  InsecureUrlError,
  IssuerMismatchError,
  MemoryStorage,
  PkceNotSupportedError,
  UnsupportedTokenTypeError,
  storageKey,
  type StoredValue,
} from '../src/index.js';
import { browser, callTool, connect, control, recordingLogger, stats } from './helpers.js';
import { REDIRECT, headless, rs, sas, sas2, useScriptedStack, type RsStats, type SasStats } from './scripted-stack.js';

// A token request held this long at the authorization server is "in flight" while the test switches servers: the
// switch (two requests and a discovery) starts once the request has arrived, and must end before it is answered.
const TOKEN_DELAY_MS = 3_000;
const tokenRequestsSoFar = async (): Promise<number> => (await stats<SasStats>(sas)).tokens.length;
async function tokenRequestArrived(before: number): Promise<void> {
  await expect.poll(tokenRequestsSoFar, { interval: 20 }).toBeGreaterThan(before);
}

useScriptedStack();

describe('discovery', () => {
  it('does not use metadata whose issuer differs from the one it was fetched for', async () => {
    await control(sas, { issuerOverride: 'https://honest.example' });
    const error = await headless()
      .authorize()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IssuerMismatchError);
    expect((error as IssuerMismatchError).where).toBe('metadata');
    expect((await stats<SasStats>(sas)).authorizations).toHaveLength(0);
  });

  it('does not accept an issuer that differs only by normalization (a trailing slash)', async () => {
    await control(sas, { issuerOverride: `${sas.url}/` });
    await expect(headless().authorize()).rejects.toBeInstanceOf(IssuerMismatchError);
  });

  it.each([
    ['a private address', 'https://10.1.2.3/.well-known/oauth-protected-resource'],
    ['a link-local address', 'https://169.254.169.254/latest/meta-data'],
    ['an IPv6 unique-local address', 'https://[fd00::1]/.well-known/oauth-protected-resource'],
    ['plain HTTP off loopback', 'http://mcp.example/.well-known/oauth-protected-resource'],
  ])('fails closed on a resource_metadata naming %s', async (_what, url) => {
    await control(rs, { resourceMetadataOverride: url });
    const error = await connect(rs.url, headless()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsecureUrlError);
    expect((error as InsecureUrlError).purpose).toBe('resource_metadata');
    // Refused, not fallen back from: the well-known URLs were never asked.
    expect((await stats<RsStats>(rs)).wellKnown).toHaveLength(0);
  });

  it('refuses an authorization server on a private address named by the resource', async () => {
    await control(rs, { authorizationServers: ['https://192.168.1.10'] });
    const error = await connect(rs.url, headless()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsecureUrlError);
    expect((error as InsecureUrlError).purpose).toBe('authorization server');
  });

  it('tries the path-aware well-known URL, then the root, when the challenge names no resource_metadata', async () => {
    await control(rs, { prm: 'well-known-root' });
    await callTool(await connect(rs.url, headless()), 'echo', { message: 'x' });
    expect((await stats<RsStats>(rs)).wellKnown.slice(0, 2)).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]);
  });

  it.each([
    ['oauth', ['/.well-known/oauth-authorization-server/tenant1']],
    ['oidc-insert', ['/.well-known/oauth-authorization-server/tenant1', '/.well-known/openid-configuration/tenant1']],
    [
      'oidc-append',
      [
        '/.well-known/oauth-authorization-server/tenant1',
        '/.well-known/openid-configuration/tenant1',
        '/tenant1/.well-known/openid-configuration',
      ],
    ],
  ])('finds the metadata of an issuer with a path in MCP order (%s)', async (metadataAt, hits) => {
    await control(sas, { issuerPath: '/tenant1', metadataAt });
    const origin = new URL(sas.url).origin;
    await control(rs, { authorizationServers: [`${origin}/tenant1`] });
    await callTool(await connect(rs.url, headless()), 'echo', { message: 'tenant' });
    expect((await stats<SasStats>(sas)).metadataHits.slice(0, hits.length)).toEqual(hits);
  });
});

describe('authorization request', () => {
  it('refuses a server that does not advertise PKCE with S256', async () => {
    for (const methods of [null, ['plain']]) {
      await control(sas, { metadata: { code_challenge_methods_supported: methods } });
      await expect(headless().authorize()).rejects.toBeInstanceOf(PkceNotSupportedError);
    }
    expect((await stats<SasStats>(sas)).authorizations).toHaveLength(0);
  });

  it('keeps the endpoint query, and sends every parameter once', async () => {
    const origin = new URL(sas.url).origin;
    await control(sas, {
      metadata: {
        authorization_endpoint: `${origin}/authorize?tenant=acme&scope=openid&state=forged&client_id=other&code_challenge=bad&locale=fr`,
      },
    });
    await headless().authorize();
    const pairs = (await stats<SasStats>(sas)).authorizations[0] ?? [];
    const names = pairs.map(([n]) => n);
    expect(new Set(names).size).toBe(names.length);
    const q = new Map(pairs);
    expect(q.get('tenant')).toBe('acme');
    expect(q.get('locale')).toBe('fr');
    expect(q.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'mcp']));
    expect(q.get('state')).not.toBe('forged');
    expect(q.get('client_id')).not.toBe('other');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('resource')).toBe(rs.url);
  });

  it('sends resource on the token request too', async () => {
    await headless().authorize();
    expect((await stats<SasStats>(sas)).tokens[0]?.params.resource).toBe(rs.url);
  });
});

describe('the authorization response', () => {
  it.each(['iss', 'state', 'code'])('refuses a callback that repeats %s (BrowserOAuth)', async (repeat) => {
    await control(sas, { callback: { repeat } });
    const provider = headless({ interaction: new BrowserOAuth({ openUrl: browser(), timeoutMs: 5_000 }) });
    const error = await provider.authorize().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationResponseError);
    expect((error as AuthorizationResponseError).problem).toBe('repeated-parameter');
    expect((await stats<SasStats>(sas)).tokens).toHaveLength(0);
  });

  it('refuses a repeated parameter handed to completeAuthorization', async () => {
    const provider = headless();
    const { state } = await provider.startAuthorization();
    const error = await provider
      .completeAuthorization(`${REDIRECT}?code=a&state=${state}&code=b`)
      .catch((e: unknown) => e);
    expect((error as AuthorizationResponseError).problem).toBe('repeated-parameter');
  });

  it('refuses an iss naming another issuer before the code is redeemed, and does not show its error', async () => {
    await control(sas, {
      callback: { iss: 'https://evil.example', error: 'access_denied', errorDescription: 'SECRET-DETAIL' },
    });
    const error = await headless()
      .authorize()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IssuerMismatchError);
    expect(String((error as Error).message)).not.toContain('SECRET-DETAIL');
    expect(String((error as Error).message)).not.toContain('access_denied');
    await control(sas, { callback: { iss: `${sas.url}/` } }); // no normalization either
    await expect(headless().authorize()).rejects.toBeInstanceOf(IssuerMismatchError);
    expect((await stats<SasStats>(sas)).tokens).toHaveLength(0);
  });

  it('refuses a missing iss when the server advertises it, and proceeds when it does not', async () => {
    await control(sas, { callback: { iss: 'omit' } });
    await expect(headless().authorize()).rejects.toBeInstanceOf(IssuerMismatchError);
    await control(sas, { metadata: { authorization_response_iss_parameter_supported: null } });
    await expect(headless().authorize()).resolves.toMatchObject({ tokenType: 'Bearer' });
  });

  it("keeps one record per request: a late exchange never deletes another flow's, and a replay finds nothing", async () => {
    const storage = new MemoryStorage();
    const a = headless({ storage });
    const b = headless({ storage });
    const flowA = await a.startAuthorization();
    const flowB = await b.startAuthorization();
    const visit = async (url: URL) => new URL((await fetch(url, { redirect: 'manual' })).headers.get('location') ?? '');
    const callbackA = await visit(flowA.authorizationUrl);
    const callbackB = await visit(flowB.authorizationUrl);
    await a.completeAuthorization(callbackA);
    expect(storage.get(storageKey.pending(flowB.state))).toMatchObject({
      state: flowB.state,
      issuer: sas.url,
      redirectUri: REDIRECT,
    });
    await expect(b.completeAuthorization(callbackB)).resolves.toMatchObject({ issuer: sas.url });
    const replay = await a.completeAuthorization(callbackA).catch((e: unknown) => e);
    expect((replay as AuthorizationResponseError).problem).toBe('unknown-state');
  });

  it('BrowserOAuth times out cleanly and frees its port', async () => {
    let redirectUri = '';
    const inner = new BrowserOAuth({ openUrl: () => {}, timeoutMs: 300 });
    const provider = headless({
      interaction: {
        prepare: async (o) => {
          const p = await inner.prepare(o);
          redirectUri = p.redirectUri;
          return p;
        },
      },
    });
    const started = Date.now();
    const error = await provider.authorize().catch((e: unknown) => e);
    expect((error as Error).name).toBe('AuthorizationTimeoutError');
    expect(Date.now() - started).toBeLessThan(5_000);
    const redirect = (await stats<SasStats>(sas)).authorizations.length;
    expect(redirect).toBe(0); // the URL was never visited
    await expect(fetch(redirectUri)).rejects.toThrow(); // the listener is gone
  });
});

describe('tokens', () => {
  it.each([
    ['no token_type', null],
    ['token_type mac', 'mac'],
    ['a DPoP token when DPoP is off', 'DPoP'],
  ])('refuses a token response with %s', async (_what, tokenType) => {
    await control(sas, { token: { tokenType } });
    const storage = new MemoryStorage();
    const error = await headless({ storage })
      .authorize()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedTokenTypeError);
    expect(storage.get(storageKey.tokens(rs.url, sas.url))).toBeUndefined();
  });

  it('never presents a stored token of a type it does not understand, nor one for another origin', async () => {
    const storage = new MemoryStorage();
    const provider = headless({ storage });
    await provider.authorize();
    const key = storageKey.tokens(rs.url, sas.url);
    const good = storage.get(key) as Record<string, StoredValue>;
    const ctx = { method: 'POST' as const, url: new URL(rs.url) };
    expect((await provider.headers(ctx)).authorization).toMatch(/^Bearer /);
    expect(await provider.headers({ method: 'POST', url: new URL('http://127.0.0.2:1/mcp') })).toEqual({});
    storage.set(key, { ...good, tokenType: 'mac' });
    expect(await provider.headers(ctx)).toEqual({});
    expect(storage.get(key)).toBeUndefined();
    storage.set(key, { ...good, tokenType: 'DPoP', dpopJkt: 'x' }); // DPoP is off here
    expect(await provider.headers(ctx)).toEqual({});
  });

  it('does not replace a token the server refuses as soon as it was issued (no authorization loop)', async () => {
    await control(rs, { refuseTokens: true });
    const logger = recordingLogger();
    const provider = headless({ logger });
    // The first request gets a token, which is refused at once.
    await expect(connect(rs.url, provider)).rejects.toThrow();
    expect((await stats<SasStats>(sas)).authorizations).toHaveLength(1);
    // The next request is refused without another refresh or authorization.
    await expect(connect(rs.url, provider)).rejects.toThrow();
    const s = await stats<SasStats>(sas);
    expect(s.authorizations).toHaveLength(1);
    expect(s.tokens.map((t) => t.params.grant_type)).toEqual(['authorization_code']);
    expect(logger.lines.some((l) => l.includes('refused the token'))).toBe(true);
    // authorize() starts over, and once the server takes tokens again the provider carries on.
    await control(rs, { refuseTokens: false });
    await provider.authorize();
    expect(await callTool(await connect(rs.url, provider), 'echo', { message: 'again' })).toBe('Echo: again');
  });

  it('discards a code exchange whose authorization server changed while it was in flight', async () => {
    await control(sas, { token: { delayMs: TOKEN_DELAY_MS } });
    const storage = new MemoryStorage();
    const provider = headless({ storage });
    const sent = await tokenRequestsSoFar();
    const flow = provider.authorize();
    await tokenRequestArrived(sent);
    await control(rs, { authorizationServers: [sas2.url] });
    await provider.discover(); // the resource now names sas2
    const error = await flow.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationServerChangedError);
    expect(storage.get(storageKey.tokens(rs.url, sas.url))).toBeUndefined();
  });

  it('discards a refresh whose authorization server changed while it was in flight', async () => {
    const storage = new MemoryStorage();
    const provider = headless({ storage });
    await provider.authorize();
    const key = storageKey.tokens(rs.url, sas.url);
    const before = storage.get(key) as Record<string, StoredValue>;
    storage.set(key, { ...before, expiresAt: Date.now() - 1000 });
    await control(sas, { token: { delayMs: TOKEN_DELAY_MS } });
    const sent = await tokenRequestsSoFar();
    const headers = provider.headers({ method: 'POST', url: new URL(rs.url) });
    await tokenRequestArrived(sent);
    await control(rs, { authorizationServers: [sas2.url] });
    await provider.discover();
    expect(await headers).toEqual({});
    expect((storage.get(key) as { accessToken: string }).accessToken).toBe(before.accessToken);
    expect((await stats<SasStats>(sas)).tokens.map((t) => t.params.grant_type)).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
  });

  it('refreshes with the credentials in the slot the host writes to', async () => {
    const storage = new MemoryStorage();
    const provider = headless({ storage });
    await provider.setClientInfo(sas.url, { clientId: 'conf-1', clientSecret: 's1' });
    await provider.authorize();
    // The host rotates the secret: at the server and in the slot.
    await control(sas, { clients: { 'conf-1': { secret: 's2' } } });
    await provider.setClientInfo(sas.url, { clientId: 'conf-1', clientSecret: 's2' });
    const key = storageKey.tokens(rs.url, sas.url);
    storage.set(key, { ...(storage.get(key) as object), expiresAt: Date.now() - 1000 });
    expect((await provider.headers({ method: 'POST', url: new URL(rs.url) })).authorization).toMatch(/^Bearer /);
    const last = (await stats<SasStats>(sas)).tokens.at(-1);
    expect(last?.params.grant_type).toBe('refresh_token');
    expect(last?.basicAuth).toMatchObject({ id: 'conf-1', secret: 's2' });
  });
});
