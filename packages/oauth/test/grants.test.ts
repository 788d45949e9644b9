// Machine grants: the JWT bearer grant and Enterprise-Managed Authorization (ID-JAG).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import {
  InvalidResponseError,
  OAuthConfigError,
  OAuthProvider,
  TokenRequestError,
  enterpriseManagedAuthorization,
  type AssertionContext,
  type OAuthProviderOptions,
} from '../src/index.js';
import {
  callTool,
  cleanup,
  connect,
  control,
  recordingLogger,
  startResourceServer,
  startScriptedAs,
  stats,
  stopAll,
  type Fixture,
} from './helpers.js';

// The JWT bearer grant (RFC 7523) for workload identity federation, and Enterprise-Managed Authorization
// (RFC 8693 token exchange at an enterprise IdP for an ID-JAG, then that ID-JAG as the grant), against
// two scripted servers — one the IdP, one the MCP server's authorization server — and the protected
// resource server.

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const WORKLOAD_ISSUER = 'https://workload.example';
const SSO_ISSUER = 'https://sso.example';

interface SasStats {
  metadataHits: string[];
  tokens: { params: Record<string, string>; basicAuth: { id: string; secret: string; raw: string } | null }[];
}

let idp: Fixture;
let as: Fixture;
let rs: Fixture;
type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let workloadKey: PrivateKey;
let ssoKey: PrivateKey;
let asConfig: object;
let idpConfig: object;

beforeAll(async () => {
  const workload = await generateKeyPair('ES256', { extractable: true });
  const sso = await generateKeyPair('ES256', { extractable: true });
  workloadKey = workload.privateKey;
  ssoKey = sso.privateKey;
  idpConfig = {
    tokenExchange: {
      subjectIssuers: { [SSO_ISSUER]: { ...(await exportJWK(sso.publicKey)), alg: 'ES256' } },
      clientIdAtAudience: 'ema-client',
    },
  };
  idp = await startScriptedAs(idpConfig);
  asConfig = {
    clients: { 'ema-client': { secret: 'ema secret:1' } },
    jwtBearer: {
      issuers: { [idp.url]: 'jwks', [WORKLOAD_ISSUER]: { ...(await exportJWK(workload.publicKey)), alg: 'ES256' } },
    },
  };
  as = await startScriptedAs(asConfig);
  rs = await startResourceServer({ authorizationServers: [as.url] });
});
afterEach(async () => {
  await cleanup();
  for (const f of [idp, as, rs])
    await fetch(new URL('/_reset', f.url), { method: 'POST' }).then((r) => r.arrayBuffer());
});
afterAll(stopAll);

const workloadJwt = (audience: string) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(WORKLOAD_ISSUER)
    .setSubject('ci-job-7')
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(crypto.randomUUID())
    .sign(workloadKey);
const idToken = () =>
  new SignJWT({ email: 'ada@example.com' })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(SSO_ISSUER)
    .setSubject('ada')
    .setAudience('idp-client')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(ssoKey);

const provider = (options: Partial<OAuthProviderOptions>) =>
  new OAuthProvider({
    serverUrl: rs.url,
    scope: 'mcp',
    logger: recordingLogger(),
    grantType: 'jwt-bearer',
    ...options,
  });

describe('the JWT bearer grant (workload identity)', () => {
  it('presents the workload JWT as the grant, with resource and scope, as a public client', async () => {
    const asked: AssertionContext[] = [];
    const p = provider({
      clientInfo: { issuer: as.url, clientId: 'workload-1' },
      assertion: (context) => {
        asked.push(context);
        return workloadJwt(context.issuer);
      },
    });
    expect(await callTool(await connect(rs.url, p), 'echo', { message: 'wif' })).toBe('Echo: wif');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      issuer: as.url,
      tokenEndpoint: `${new URL(as.url).origin}/token`,
      resource: rs.url,
      scope: 'mcp',
    });
    const [grant] = (await stats<SasStats>(as)).tokens;
    expect(grant?.params).toMatchObject({
      grant_type: JWT_BEARER,
      client_id: 'workload-1',
      resource: rs.url,
      scope: 'mcp',
    });
    expect(grant?.params.assertion?.split('.')).toHaveLength(3);
    expect(grant?.basicAuth).toBeNull();
  });

  it('surfaces a refused grant once: no retry, no other grant type', async () => {
    await control(as, { jwtBearer: { ...(asConfig as { jwtBearer: object }).jwtBearer, error: 'invalid_grant' } });
    const p = provider({
      clientInfo: { issuer: as.url, clientId: 'workload-1' },
      assertion: (c) => workloadJwt(c.issuer),
    });
    const error = await connect(rs.url, p).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as TokenRequestError).error).toBe('invalid_grant');
    expect((await stats<SasStats>(as)).tokens.map((t) => t.params.grant_type)).toEqual([JWT_BEARER]);
  });

  it('is refused at construction without credentials naming the server, or without an assertion', () => {
    expect(() => provider({ assertion: 'x.y.z' })).toThrow(OAuthConfigError);
    expect(() => provider({ clientInfo: { issuer: 'https://as.example', clientId: 'w' } })).toThrow(OAuthConfigError);
  });
});

describe('Enterprise-Managed Authorization', () => {
  const ema = (options: { idToken?: () => Promise<string> } = {}) =>
    provider({
      clientInfo: { issuer: as.url, clientId: 'ema-client', clientSecret: 'ema secret:1' },
      assertion: enterpriseManagedAuthorization({
        idp: { issuer: idp.url, clientId: 'idp-client' },
        idToken: options.idToken ?? idToken,
      }),
    });

  it('exchanges the ID token at the IdP for an ID-JAG, and presents that to the authorization server', async () => {
    expect(await callTool(await connect(rs.url, ema()), 'echo', { message: 'ema' })).toBe('Echo: ema');
    const idpStats = await stats<SasStats>(idp);
    // The IdP's token endpoint was discovered from its issuer.
    expect(idpStats.metadataHits[0]).toBe('/.well-known/oauth-authorization-server');
    expect(idpStats.tokens).toHaveLength(1);
    expect(idpStats.tokens[0]?.params).toMatchObject({
      grant_type: TOKEN_EXCHANGE,
      client_id: 'idp-client',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience: as.url,
      resource: rs.url,
      scope: 'mcp',
    });
    const [grant] = (await stats<SasStats>(as)).tokens;
    expect(grant?.params).toMatchObject({ grant_type: JWT_BEARER, resource: rs.url, scope: 'mcp' });
    // client_secret_basic, form-encoded (RFC 6749 §2.3.1): the space and the colon survive the trip, and
    // the hyphen is sent as it is, for servers that compare without decoding.
    expect(grant?.basicAuth).toEqual({ id: 'ema-client', secret: 'ema secret:1', raw: 'ema-client:ema+secret%3A1' });
  });

  it('refuses what the IdP issues when it is not an ID-JAG, before the authorization server sees it', async () => {
    await control(idp, {
      tokenExchange: {
        ...(idpConfig as { tokenExchange: object }).tokenExchange,
        issuedTokenType: 'urn:ietf:params:oauth:token-type:access_token',
      },
    });
    const error = await connect(rs.url, ema()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((await stats<SasStats>(as)).tokens).toHaveLength(0);
  });

  it('reports the IdP refusing the ID token as a token exchange error', async () => {
    const forged = async () =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer('https://elsewhere.example')
        .setSubject('mallory')
        .setExpirationTime('5m')
        .sign(workloadKey);
    const error = await connect(rs.url, ema({ idToken: forged })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(error).toMatchObject({ grant: 'token-exchange', error: 'invalid_grant' });
    expect((await stats<SasStats>(as)).tokens).toHaveLength(0);
  });

  it('needs the IdP issuer and client id', () => {
    expect(() => enterpriseManagedAuthorization({ idp: { issuer: '', clientId: 'x' }, idToken: 't' })).toThrow(
      OAuthConfigError,
    );
    expect(() =>
      enterpriseManagedAuthorization({ idp: { issuer: 'https://idp.example', clientId: '' }, idToken: 't' }),
    ).toThrow(OAuthConfigError);
  });
});
