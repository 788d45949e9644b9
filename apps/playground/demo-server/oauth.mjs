// oauth.mjs: the demo server's OAuth-protected endpoint (/mcp-protected), used with `server.mjs http --oauth`.
//
// The authorization server is the repository's oidc-provider fixture (tooling/fixtures/oauth/
// authorization-server.mjs), started as a child on a Node LTS ≥ 22 (oidc-provider refuses Node 20) through
// that folder's spawn helper. This module is the resource server around the demo's /mcp handler:
// - RFC 9728 protected resource metadata at /.well-known/oauth-protected-resource/mcp-protected (path-aware)
//   and at the root well-known location;
// - 401 with `WWW-Authenticate: Bearer resource_metadata="…"` (plus error="invalid_token" when a token was
//   sent) for a request without a valid token;
// - JWT access tokens checked against the issuer's JWKS (issuer, audience = the resource URL, typ at+jwt,
//   expiry); DPoP-bound tokens (cnf.jkt) need a DPoP proof for this request by the bound key.
import { createHash } from 'node:crypto';
import { startOAuthFixture } from '../../../tooling/fixtures/oauth/spawn.mjs';
import { importDep } from '../../../tooling/fixtures/oauth/_deps.mjs';
import { jwksFor } from '../../../tooling/fixtures/oauth/_jwks.mjs';

const jose = await importDep('jose');
const PATH = '/mcp-protected';
const SCOPES = ['mcp', 'files:read', 'files:write', 'admin'];
const MAX_JTI = 10_000;
// A pre-registered confidential client for machine checks (client credentials, selfcheck.mjs); people log in
// through the authorization code flow with Dynamic Client Registration instead.
export const DEMO_CLIENT = {
  client_id: 'playground-demo',
  client_secret: 'playground-demo-secret',
  grant_types: ['client_credentials'],
  response_types: [],
  redirect_uris: [],
  token_endpoint_auth_method: 'client_secret_basic',
  scope: 'mcp',
};

let as;
let origin;
const seenJti = new Set();

export async function start() {
  // `cimdPages`: a page on 127.0.0.1 can sign in with a Client ID Metadata Document (the browser example's test).
  const config = { scopes: SCOPES, clients: [DEMO_CLIENT], cimdPages: true };
  as = await startOAuthFixture('authorization-server.mjs', ['--config', JSON.stringify(config)], {
    node: 'lts',
    timeoutMs: 120_000,
  });
  as.process.stderr.on('data', (d) => process.stderr.write(d));
}
export const issuer = () => as.url;
export const setOrigin = (value) => {
  origin = value;
};
export const stop = () => as?.stop();

const resource = () => `${origin}${PATH}`;
const prmUrl = () => `${origin}/.well-known/oauth-protected-resource${PATH}`;
const metadata = () => ({
  resource: resource(),
  authorization_servers: [as.url],
  scopes_supported: SCOPES,
  bearer_methods_supported: ['header'],
  resource_name: 'mcpc playground demo (protected)',
  dpop_signing_alg_values_supported: ['ES256', 'ES384', 'EdDSA', 'PS256', 'RS256'],
});

function challenge(extra = {}) {
  const params = { resource_metadata: prmUrl(), scope: 'mcp', ...extra };
  return `Bearer ${Object.entries(params)
    .map(([k, v]) => `${k}="${String(v).replace(/["\\]/g, '\\$&')}"`)
    .join(', ')}`;
}
const refuse = (header, error, status = 401) =>
  Response.json({ error }, { status, headers: { 'www-authenticate': header } });

async function authenticate(request) {
  const auth = request.headers.get('authorization');
  if (!auth) return refuse(challenge(), 'unauthorized');
  const space = auth.indexOf(' ');
  const scheme = space === -1 ? auth : auth.slice(0, space);
  const token = space === -1 ? '' : auth.slice(space + 1).trim();
  let claims;
  try {
    ({ payload: claims } = await jose.jwtVerify(token, await jwksFor(as.url), {
      issuer: as.url,
      audience: resource(),
      typ: 'at+jwt',
    }));
  } catch {
    return refuse(
      challenge({ error: 'invalid_token', error_description: 'the access token is not valid here' }),
      'invalid_token',
    );
  }
  const jkt = claims.cnf?.jkt;
  if (jkt === undefined) {
    if (scheme.toLowerCase() !== 'bearer') return refuse(challenge({ error: 'invalid_token' }), 'invalid_token');
    return undefined;
  }
  try {
    if (scheme !== 'DPoP') throw new Error('a DPoP-bound token must use the DPoP scheme');
    const proof = request.headers.get('dpop');
    if (!proof) throw new Error('no DPoP proof');
    const { payload, protectedHeader } = await jose.jwtVerify(proof, jose.EmbeddedJWK, {
      typ: 'dpop+jwt',
      maxTokenAge: '60s',
      clockTolerance: 5,
    });
    if (payload.htm !== request.method) throw new Error('htm');
    if (payload.htu !== resource()) throw new Error('htu');
    if (payload.ath !== createHash('sha256').update(token).digest('base64url')) throw new Error('ath');
    if ((await jose.calculateJwkThumbprint(protectedHeader.jwk)) !== jkt) throw new Error('key');
    if (typeof payload.jti !== 'string' || seenJti.has(payload.jti)) throw new Error('jti');
    if (seenJti.size >= MAX_JTI) seenJti.clear();
    seenJti.add(payload.jti);
  } catch {
    return refuse(
      'DPoP error="invalid_dpop_proof", error_description="the DPoP proof is not valid", algs="ES256 ES384 EdDSA PS256 RS256"',
      'invalid_dpop_proof',
    );
  }
  return undefined;
}

/**
 * Serves the OAuth paths; undefined for any other path.
 * @param {Request} request
 * @param {URL} url
 * @param {(request: Request) => Promise<Response>} mcp the demo's /mcp handler
 */
export async function handle(request, url, mcp) {
  if (
    request.method === 'GET' &&
    (url.pathname === `/.well-known/oauth-protected-resource${PATH}` ||
      url.pathname === '/.well-known/oauth-protected-resource')
  )
    return Response.json(metadata(), { headers: { 'cache-control': 'no-store' } });
  if (url.pathname !== PATH) return undefined;
  const refused = await authenticate(request);
  return refused ?? mcp(request);
}
