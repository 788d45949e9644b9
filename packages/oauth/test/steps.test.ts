// @mcpc/oauth/steps against oidc-provider and a protected MCP server: each step, its exchanges, and a whole flow.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OAuthErrorCode, authorizationServerMetadataUrls, wellKnownResourceMetadataUrls } from '../src/index.js';
import {
  OAuthStepError,
  OAuthSteps,
  describeJwt,
  dpopSupport,
  redactSecret,
  type Discovered,
  type Exchange,
  type OAuthStepsOptions,
} from '../src/steps.js';
import {
  browser,
  control,
  startAuthorizationServer,
  startResourceServer,
  stats,
  stopAll,
  type Fixture,
} from './helpers.js';

// Every step runs the provider's own code over real HTTP; what a step reports is checked against what the
// servers saw (their /_stats), and no record shows a token, a code, a verifier or a secret whole.

const REDIRECT = 'http://127.0.0.1/callback';
const CIMD = 'https://conformance-test.local/client-metadata.json';

interface AsStats {
  grants: { grantType: string; resource: string | null; dpop: boolean; clientId: string }[];
  authorizations: { clientId: string; codeChallengeMethod: string | null; resource: string | null }[];
  registrations: number;
}

let as: Fixture;
let rs: Fixture;
beforeAll(async () => {
  as = await startAuthorizationServer({
    clients: [
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
  await fetch(new URL('/_reset', rs.url), { method: 'POST' }).then((r) => r.arrayBuffer());
  await control(rs, { authorizationServers: [as.url] });
});
afterAll(stopAll);

const steps = (options: Partial<OAuthStepsOptions> = {}) =>
  new OAuthSteps({ serverUrl: rs.url, redirectUri: REDIRECT, scope: 'mcp', clientName: 'steps test', ...options });

/** Challenge, resource metadata and authorization server metadata, as a flow starts. */
async function discover(flow: OAuthSteps): Promise<Discovered> {
  const challenge = await flow.challenge();
  const found = await flow.resourceMetadata({ resourceMetadataUrl: challenge.value.resourceMetadata });
  return (await flow.authorizationServer({ resource: found.value })).value;
}

/** Everything a record shows, as one text: what must not hold a secret whole. */
const shown = (exchanges: readonly Exchange[]) => JSON.stringify(exchanges);

/** The authorization URL visited as a browser would, up to the redirect back: the callback URL. */
async function authorize(url: URL): Promise<URL> {
  const visited: URL[] = [];
  await browser(visited, REDIRECT)(url);
  const last = visited.at(-1);
  if (last === undefined || !last.href.startsWith(REDIRECT)) throw new Error('the browser did not get back');
  return last;
}

describe('@mcpc/oauth/steps', () => {
  it('runs the whole authorization code flow, recording every exchange with its secrets redacted', async () => {
    const flow = steps();
    const challenge = await flow.challenge();
    expect(challenge.value.status).toBe(401);
    expect(challenge.value.challenge?.scheme).toBe('bearer');
    expect(challenge.exchanges.map((x) => [x.request.method, x.request.url, x.response?.status])).toEqual([
      ['GET', rs.url, 401],
    ]);
    expect(challenge.exchanges[0]?.response?.headers['www-authenticate']).toContain('resource_metadata=');

    const found = await flow.resourceMetadata({ resourceMetadataUrl: challenge.value.resourceMetadata });
    expect(found.value.legacy).toBe(false);
    expect(found.value.prm.authorizationServers).toEqual([as.url]);
    expect(found.exchanges.map((x) => x.request.url)).toEqual([challenge.value.resourceMetadata]);
    expect(JSON.parse(found.exchanges[0]?.response?.body ?? '')).toMatchObject({ resource: found.value.prm.resource });

    const server = await flow.authorizationServer({ resource: found.value });
    expect(server.value.issuer).toBe(as.url);
    // The spec's order, up to the first document found.
    const order = authorizationServerMetadataUrls(as.url);
    const tried = server.exchanges.map((x) => x.request.url);
    expect(tried).toEqual(order.slice(0, tried.length));
    expect(server.exchanges.at(-1)?.response?.status).toBe(200);

    const registered = await flow.registerClient({ discovered: server.value });
    expect(registered.value.source).toBe('dynamic-registration');
    expect(registered.exchanges).toHaveLength(1);
    const registration = registered.exchanges[0];
    expect(registration?.request.method).toBe('POST');
    expect(registration?.request.url).toBe(server.value.as.registration_endpoint);
    expect(JSON.parse(registration?.request.body ?? '')).toMatchObject({
      redirect_uris: [REDIRECT],
      application_type: 'native',
      client_name: 'steps test',
    });
    expect(registration?.response?.status).toBe(201);

    const pkce = await flow.pkce({ discovered: server.value });
    expect(pkce.value.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pkce.exchanges).toEqual([]);

    const request = await flow.authorizationUrl({
      discovered: server.value,
      clientId: registered.value.client.clientId,
      pkce: pkce.value,
      scope: challenge.value.challenge?.params.scope,
    });
    const q = request.value.authorizationUrl.searchParams;
    expect(q.get('code_challenge')).toBe(pkce.value.codeChallenge);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('resource')).toBe(found.value.prm.resource);
    expect(q.get('state')).toBe(request.value.state);
    expect(request.value.scope?.split(' ')).toContain('mcp');

    const checked = await flow.callback({ callback: await authorize(request.value.authorizationUrl) });
    expect(checked.value.record.issuer).toBe(as.url);
    expect(checked.value.parameters.iss).toBe(as.url);
    const code = checked.value.params.get('code') ?? '';
    expect(checked.value.parameters.code).toBe(redactSecret(code));

    const token = await flow.exchangeCode({ checked: checked.value });
    expect(token.value.tokenType).toBe('Bearer');
    expect(token.value.refreshToken).toBeDefined();
    const tokenRequest = token.exchanges[0];
    expect(tokenRequest?.request.url).toBe(server.value.as.token_endpoint);
    expect(tokenRequest?.request.body).toContain(`code=${redactSecret(code)}`);
    expect(tokenRequest?.request.body).toContain('code_verifier=');
    expect(tokenRequest?.response?.status).toBe(200);
    expect(describeJwt(token.value.accessToken)?.payload.aud).toBe(found.value.prm.resource);

    const call = await flow.resourceRequest({
      tokens: token.value,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
      }),
    });
    expect(call.value.status).toBe(200);
    expect(call.value.body).toContain('"result"');
    expect(call.exchanges[0]?.request.headers.authorization).toBe(`Bearer ${redactSecret(token.value.accessToken)}`);

    const refreshed = await flow.refresh({ tokens: token.value });
    expect(refreshed.value.accessToken).not.toBe(token.value.accessToken);
    expect(refreshed.exchanges[0]?.request.body).toContain('grant_type=refresh_token');

    const everything = shown([...registered.exchanges, ...token.exchanges, ...call.exchanges, ...refreshed.exchanges]);
    for (const secret of [
      code,
      pkce.value.codeVerifier,
      token.value.accessToken,
      token.value.refreshToken ?? '',
      refreshed.value.accessToken,
      refreshed.value.refreshToken ?? '',
    ])
      expect(everything).not.toContain(secret);
    // What the authorization server saw is what the steps said they sent.
    const s = await stats<AsStats>(as);
    expect(s.authorizations.at(-1)).toMatchObject({
      clientId: registered.value.client.clientId,
      codeChallengeMethod: 'S256',
      resource: found.value.prm.resource,
    });
    expect(s.grants.slice(-2).map((g) => [g.grantType, g.resource])).toEqual([
      ['authorization_code', found.value.prm.resource],
      ['refresh_token', found.value.prm.resource],
    ]);
  }, 60_000);

  it('gets DPoP-bound tokens once DPoP is turned on, and presents them with a proof', async () => {
    const flow = steps({ clientInfo: { issuer: as.url, clientId: 'app-pre' } });
    const d = await discover(flow);
    expect(dpopSupport(d).authorizationServer).toContain('ES256');
    const { jkt } = await flow.useDPoP();
    const client = (await flow.registerClient({ discovered: d })).value;
    expect(client.source).toBe('preregistered');
    const pkce = (await flow.pkce({ discovered: d })).value;
    const request = (await flow.authorizationUrl({ discovered: d, clientId: client.client.clientId, pkce })).value;
    const checked = (await flow.callback({ callback: await authorize(request.authorizationUrl) })).value;
    const token = await flow.exchangeCode({ checked });
    expect(token.value.tokenType).toBe('DPoP');
    expect(token.value.dpopJkt).toBe(jkt);
    const proof = describeJwt(token.exchanges[0]?.request.headers.dpop ?? '');
    expect(proof?.header.typ).toBe('dpop+jwt');
    expect(proof?.payload.htu).toBe(d.as.token_endpoint);
    await expect(flow.useDPoP()).rejects.toMatchObject({ code: OAuthErrorCode.Config });
    const call = await flow.resourceRequest({
      tokens: token.value,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(call.value.status).toBe(200);
    expect(call.exchanges[0]?.request.headers.authorization).toMatch(/^DPoP /);
    expect(describeJwt(call.exchanges[0]?.request.headers.dpop ?? '')?.payload.ath).toBeDefined();
    const own = await flow.dpopProof({ method: 'GET', accessToken: token.value.accessToken });
    expect(describeJwt(own.value)?.payload).toMatchObject({ htm: 'GET', htu: rs.url });
  }, 60_000);

  it('falls back to the well-known URLs in order, and records each one tried', async () => {
    await control(rs, { prm: 'well-known-root' });
    const flow = steps();
    const found = await flow.resourceMetadata();
    const urls = wellKnownResourceMetadataUrls(new URL(rs.url));
    expect(found.exchanges.map((x) => [x.request.url, x.response?.status])).toEqual([
      [urls[0], 404],
      [urls[1], 200],
    ]);
  });

  it('uses a Client ID Metadata Document where the server supports one, without a request', async () => {
    const flow = steps({ clientIdMetadataUrl: CIMD });
    const d = await discover(flow);
    const registered = await flow.registerClient({ discovered: d });
    expect(registered.value).toEqual({
      client: { clientId: CIMD, tokenEndpointAuthMethod: 'none' },
      source: 'metadata-document',
    });
    expect(registered.exchanges).toEqual([]);
  });

  it('fails a step with the library error as cause, and the exchanges made up to the failure', async () => {
    const flow = steps();
    const missing = new URL('/.well-known/nothing-here', rs.url).href;
    const error = await flow.resourceMetadata({ resourceMetadataUrl: missing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthStepError);
    const e = error as OAuthStepError;
    expect(e.code).toBe(OAuthErrorCode.Step);
    expect(e.reason).toBe(OAuthErrorCode.Discovery);
    expect(e.step).toBe('resource-metadata');
    expect(e.exchanges.map((x) => [x.request.url, x.response?.status])).toEqual([[missing, 404]]);
  });

  it('refuses a callback whose iss is not the recorded issuer, and one whose state is unknown', async () => {
    const flow = steps({ clientInfo: { issuer: as.url, clientId: 'app-pre' } });
    const d = await discover(flow);
    const pkce = (await flow.pkce({ discovered: d })).value;
    const request = (await flow.authorizationUrl({ discovered: d, clientId: 'app-pre', pkce })).value;
    const callback = await authorize(request.authorizationUrl);
    const forged = new URL(callback);
    forged.searchParams.set('iss', `${as.url}/`);
    await expect(flow.callback({ callback: forged })).rejects.toMatchObject({
      step: 'callback',
      reason: OAuthErrorCode.IssuerMismatch,
    });
    // The request's record was spent by the refused response: the real one now names no request.
    await expect(flow.callback({ callback })).rejects.toMatchObject({ reason: OAuthErrorCode.AuthorizationResponse });
  }, 60_000);

  it('refuses PKCE at a server that does not advertise S256', async () => {
    const flow = steps();
    const d = await discover(flow);
    const withoutS256 = { ...d, as: { ...d.as, code_challenge_methods_supported: ['plain'] } };
    await expect(flow.pkce({ discovered: withoutS256 })).rejects.toMatchObject({
      reason: OAuthErrorCode.PkceUnsupported,
    });
  });

  it('keeps at most maxRecordedBody bytes of a body, while the library reads all of it', async () => {
    const flow = steps({ maxRecordedBody: 64 });
    const challenge = await flow.challenge();
    const found = await flow.resourceMetadata({ resourceMetadataUrl: challenge.value.resourceMetadata });
    const server = await flow.authorizationServer({ resource: found.value });
    const metadata = server.exchanges.at(-1)?.response;
    expect(metadata?.body.length).toBe(64);
    expect(metadata?.bodyTruncated).toBe(true);
    expect(server.value.as.token_endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('runs one step at a time', async () => {
    const flow = steps();
    const first = flow.challenge();
    await expect(flow.challenge()).rejects.toMatchObject({ reason: OAuthErrorCode.Config });
    expect((await first).value.status).toBe(401);
  });
});
