// The OAuth debugger's steps: each runs one step of @mcpc/oauth/steps and says what it found, for the page.
import { describeJwt, dpopSupport, redactSecret, type Exchange } from '@mcpc/oauth/steps';
import { proofsOf, rpcMessage, safeJson, tokenInfo } from './inspect.js';
import type { StepName } from './rules.js';
import { fail, need, type CallbackData, type Run, type StepOutcome } from './run.js';

const MCP_ACCEPT = 'application/json, text/event-stream';
const CALLBACK_TIMEOUT_MS = 5 * 60_000;
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'mcpc-playground-oauth-debugger', version: '0.0.0' },
  },
});

/** Each step by name: it runs on the run, keeps what it found there, and answers what the page shows. */
export const steps: Readonly<Record<StepName, (run: Run) => Promise<StepOutcome>>> = {
  async challenge(run) {
    const { value: c, exchanges } = await run.flow.challenge();
    run.challenge = c;
    const info = { status: c.status, 'www-authenticate': c.wwwAuthenticate ?? null, challenges: c.challenges };
    if (c.status >= 200 && c.status < 300)
      fail(
        `the server answered HTTP ${c.status} without a token: it does not require authorization at this URL, so there is no flow to debug.`,
        { exchanges, info },
      );
    const rm = c.resourceMetadata;
    const detail =
      c.challenge === undefined
        ? `HTTP ${c.status} without a Bearer (or DPoP) challenge: @mcpc/oauth goes on to the well-known URIs.`
        : `HTTP 401 with a ${c.challenge.scheme === 'bearer' ? 'Bearer' : 'DPoP'} challenge. ` +
          (rm ? `resource_metadata = ${rm}. ` : 'No resource_metadata parameter: the well-known URIs will be tried. ') +
          (c.challenge.params.scope
            ? `Challenged scope: "${c.challenge.params.scope}".`
            : 'No scope in the challenge.');
    return { exchanges, info, detail };
  },

  async 'resource-metadata'(run) {
    const rm = run.challenge?.resourceMetadata;
    const { value, exchanges } = await run.flow.resourceMetadata({ resourceMetadataUrl: rm });
    run.found = value;
    const { prm, legacy } = value;
    const info = {
      source: rm ? 'the resource_metadata of the WWW-Authenticate challenge' : 'the well-known URIs, in order',
      tried: exchanges.map((x) => x.request.url),
      document: prm.document ?? null,
      ...(legacy ? { legacy: true } : {}),
    };
    const servers = prm.authorizationServers;
    const detail = legacy
      ? `No protected resource metadata anywhere: an MCP 2025-03-26 server, its origin ${servers[0]} its own authorization server.`
      : `Read from ${prm.url}. resource = ${prm.resource}. Authorization server${servers.length > 1 ? `s: ${servers.join(', ')}` : `: ${servers[0]}`}.` +
        (prm.scopesSupported ? ` scopes_supported: ${prm.scopesSupported.join(' ')}.` : '');
    return { exchanges, info, detail };
  },

  async 'authorization-server-metadata'(run) {
    const { value: d, exchanges } = await run.flow.authorizationServer({ resource: need(run.found) });
    run.discovered = d;
    const support = dpopSupport(d);
    if (run.dpopOption === 'auto' && support.offered) await run.flow.useDPoP();
    const key = await run.flow.dpopKey();
    const dpopNote =
      run.dpopOption === 'off'
        ? 'DPoP: off (chosen).'
        : key
          ? `DPoP: on (${run.dpopOption === 'on' ? 'chosen' : 'both the resource and its authorization server offer it'}); key thumbprint (jkt) ${key.jkt}.`
          : support.authorizationServer.length > 0
            ? 'DPoP: the authorization server supports it, but the resource metadata does not advertise it (RFC 9728 §2), so Bearer tokens are used (choose DPoP "on" to force it).'
            : 'DPoP: not offered by the authorization server: Bearer tokens.';
    const as = d.as;
    const summary = {
      issuer: as.issuer,
      authorization_endpoint: as.authorization_endpoint,
      token_endpoint: as.token_endpoint,
      registration_endpoint: as.registration_endpoint ?? null,
      code_challenge_methods_supported: as.code_challenge_methods_supported ?? null,
      authorization_response_iss_parameter_supported: as.authorization_response_iss_parameter_supported ?? null,
      client_id_metadata_document_supported: as.client_id_metadata_document_supported ?? null,
      token_endpoint_auth_methods_supported: as.token_endpoint_auth_methods_supported ?? null,
      dpop_signing_alg_values_supported: as.dpop_signing_alg_values_supported ?? null,
      scopes_supported: as.scopes_supported ?? null,
    };
    const used = exchanges.at(-1)?.request.url;
    return {
      exchanges,
      info: {
        issuer: d.issuer,
        tried: exchanges.map((x) => x.request.url),
        summary,
        dpop: { ...support, jkt: key?.jkt },
      },
      detail: `${used ? `Read from ${used} (${exchanges.length} URL${exchanges.length > 1 ? 's' : ''} tried, in the spec's order)` : 'Known already'}; its issuer is identical to ${d.issuer}. ${dpopNote}`,
    };
  },

  async registration(run) {
    const d = need(run.discovered);
    if (run.clientIdOption)
      await run.flow.setClientInfo(d.issuer, {
        clientId: run.clientIdOption,
        ...(run.clientSecretOption === undefined ? {} : { clientSecret: run.clientSecretOption }),
      });
    const { value, exchanges, log } = await run.flow.registerClient({ discovered: d });
    run.client = value;
    const { client, source } = value;
    const notes = {
      preregistered: `Using the pre-registered client id ${client.clientId}${client.clientSecret === undefined ? ' (a public client)' : ' with its secret'} — priority 1. It must be registered with the redirect URI ${run.redirectUri} at ${d.issuer}.`,
      'metadata-document': `The server supports Client ID Metadata Documents: the client id is the document's URL ${client.clientId} — priority 2.`,
      'stored-registration': `A registration made earlier for ${d.issuer} is reused: client_id ${client.clientId}.`,
      'dynamic-registration': `No pre-registered client id (priority 1), and no Client ID Metadata Document this loopback playground could host (priority 2): registered dynamically (RFC 7591 — deprecated by MCP 2026-07-28): client_id ${client.clientId}, redirect URI ${run.redirectUri}.`,
    };
    return {
      exchanges,
      info: {
        choice: source,
        client_id: client.clientId,
        token_endpoint_auth_method: client.tokenEndpointAuthMethod ?? 'chosen at the token request',
        redirect_uri: run.redirectUri,
        ...(log.length ? { log } : {}),
      },
      detail: notes[source],
    };
  },

  async pkce(run) {
    const { value } = await run.flow.pkce({ discovered: need(run.discovered) });
    run.pkce = value;
    const methods = need(run.discovered).as.code_challenge_methods_supported ?? [];
    return {
      info: {
        code_verifier: redactSecret(value.codeVerifier),
        code_challenge: value.codeChallenge,
        code_challenge_method: value.codeChallengeMethod,
        how: 'code_challenge = BASE64URL(SHA-256(ASCII(code_verifier))) — RFC 7636 §4.2',
        code_challenge_methods_supported: methods,
      },
      detail: `The server supports ${methods.join(', ')}. A fresh 43-character verifier ${redactSecret(value.codeVerifier)} and its S256 challenge ${value.codeChallenge}.`,
    };
  },

  async authorization(run) {
    const d = need(run.discovered);
    const { value } = await run.flow.authorizationUrl({
      discovered: d,
      clientId: need(run.client).client.clientId,
      pkce: need(run.pkce),
      scope: run.challenge?.challenge?.params.scope,
      redirectUri: run.redirectUri,
    });
    run.request = value;
    const url = value.authorizationUrl;
    return {
      waiting: true,
      info: {
        authorizationUrl: url.href,
        parameters: Object.fromEntries(url.searchParams),
        recorded: { issuer: value.issuer, state: value.state, code_verifier: 'kept with the state (step 5)' },
        callback: run.redirectUri,
      },
      detail:
        `Open the authorization URL in a new tab and approve; the server redirects to ${run.redirectUri}, which resumes the run. ` +
        `resource = ${url.searchParams.get('resource')}; scope ${value.scope ? `"${value.scope}"` : 'omitted (neither configured, challenged nor in scopes_supported)'}; ` +
        `the expected issuer ${value.issuer} is recorded with the state and the verifier.`,
    };
  },

  async 'iss-check'(run) {
    const data = run.callback ?? (await waitForCallback(run));
    if (!data)
      fail(
        `no redirect reached ${run.redirectUri} within ${CALLBACK_TIMEOUT_MS / 60_000} minutes: open the authorization link (step 6) and approve.`,
      );
    const shown = new URL(data.url);
    for (const [k, v] of data.params) if (k === 'code') shown.searchParams.set(k, redactSecret(v));
    const exchange: Exchange = {
      request: { method: 'GET', url: `${shown.pathname}${shown.search}`, headers: {} },
      response: {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '(the "you can close this tab" page)',
        bodyTruncated: false,
      },
      durationMs: 0,
    };
    const expected = { expectedIssuer: need(run.request).issuer };
    try {
      const { value } = await run.flow.callback({ callback: data.params });
      run.checked = value;
      const iss = value.parameters.iss;
      return {
        exchange,
        info: {
          params: value.parameters,
          ...expected,
          authorization_response_iss_parameter_supported:
            value.as.authorization_response_iss_parameter_supported ?? null,
        },
        detail: `state matched this run. ${iss === undefined ? 'No "iss" in the response, and the server does not advertise it: proceeding (RFC 9207 §2.4).' : `iss = ${iss}, identical to the recorded issuer.`} Authorization code received (${value.parameters.code}).`,
      };
    } catch (e) {
      const error = e as { reason?: string; message: string };
      const hint =
        error.reason === 'MCPC_OAUTH_AUTHORIZATION_DENIED' && !need(run.request).scope
          ? ' No scope was sent (neither the challenge nor scopes_supported named one): this server may need one — enter a scope and start again.'
          : '';
      return fail(`${error.message}.${hint}`, { exchange, info: { ...expected, reason: error.reason ?? null } });
    }
  },

  async token(run) {
    const { value: tokens, exchanges } = await run.flow.exchangeCode({ checked: need(run.checked) });
    run.tokens = tokens;
    const resource = tokens.resource;
    const aud = describeJwt(tokens.accessToken)?.payload.aud;
    const audOk = Array.isArray(aud) ? aud.includes(resource) : aud === resource;
    const proofs = proofsOf(exchanges);
    return {
      exchanges,
      info: { ...tokenInfo(tokens), ...(proofs.length ? { dpopProofs: proofs } : {}) },
      detail:
        `A ${tokens.tokenType} token (${redactSecret(tokens.accessToken)})` +
        (tokens.scope !== undefined ? `, scope "${tokens.scope}"` : '') +
        `; ${tokens.refreshToken ? 'a refresh token was issued' : 'no refresh token'}.` +
        (aud === undefined
          ? ''
          : ` Its aud is ${JSON.stringify(aud)}${audOk ? ' — the resource asked for' : ` — not the resource ${resource}`}.`) +
        (proofs.length
          ? ` Sent with ${proofs.length} DPoP proof${proofs.length > 1 ? 's (the first drew use_dpop_nonce)' : ''}.`
          : ''),
    };
  },

  async 'authenticated-call'(run) {
    const tokens = need(run.tokens);
    const { value: r, exchanges } = await run.flow.resourceRequest({
      tokens,
      headers: { 'content-type': 'application/json', accept: MCP_ACCEPT },
      body: initialize,
    });
    const proofs = proofsOf(exchanges);
    const info = proofs.length ? { dpopProofs: proofs } : {};
    if (r.status !== 200) {
      const c = r.challenge;
      const why = c?.params.error
        ? ` (${c.params.error}${c.params.error_description ? `: ${c.params.error_description}` : ''})`
        : '';
      const meaning =
        r.status === 403
          ? ': the token lacks a scope the server wants (insufficient_scope → step-up authorization)'
          : r.status === 401
            ? ': the server does not accept this token (audience, issuer, type, or DPoP proof)'
            : '';
      fail(`the MCP request with the token was answered HTTP ${r.status}${why}, not 200${meaning}.`, {
        exchanges,
        info: { ...info, challenge: c ?? null },
      });
    }
    const message = rpcMessage(r.body);
    if (!message || message.error)
      fail(
        message?.error
          ? `HTTP 200, but initialize failed: ${message.error.code} ${message.error.message}.`
          : 'HTTP 200, but no JSON-RPC response could be read from the body.',
        { exchanges, info },
      );
    const result = message.result ?? {};
    return {
      exchanges,
      info: { ...info, serverInfo: result.serverInfo ?? null, protocolVersion: result.protocolVersion ?? null },
      detail: `HTTP 200: initialize answered by ${result.serverInfo?.name ?? 'the server'}${result.serverInfo?.version ? ` ${result.serverInfo.version}` : ''} (protocol ${result.protocolVersion ?? '?'}), with the token in the Authorization header${tokens.tokenType === 'DPoP' ? ' and a DPoP proof (htm, htu, ath)' : ''}.`,
    };
  },

  async refresh(run) {
    const tokens = need(run.tokens);
    if (!tokens.refreshToken)
      return {
        info: { skipped: true },
        detail: 'No refresh token was issued, so there is nothing to refresh (a client must not assume one will be).',
      };
    const { value: fresh, exchanges } = await run.flow.refresh({ tokens });
    const issued = safeJson(exchanges.at(-1)?.response?.body).refresh_token;
    const rotated = fresh.refreshToken !== tokens.refreshToken;
    run.tokens = fresh;
    const proofs = proofsOf(exchanges);
    return {
      exchanges,
      info: { ...tokenInfo(fresh), rotated, ...(proofs.length ? { dpopProofs: proofs } : {}) },
      detail: `A new ${fresh.tokenType} access token (${redactSecret(fresh.accessToken)}). ${
        rotated
          ? 'The refresh token was rotated (a new one replaces the old).'
          : issued !== undefined
            ? 'The same refresh token came back: not rotated — for a public client the authorization server MUST rotate it.'
            : 'No new refresh token; the old one stays in use.'
      }`,
    };
  },
};

/** The redirect to /oauth/callback, or undefined after 5 minutes. */
function waitForCallback(run: Run): Promise<CallbackData | undefined> {
  return new Promise<CallbackData | undefined>((resolve) => {
    const timer = setTimeout(() => {
      run.onCallback = undefined;
      resolve(undefined);
    }, CALLBACK_TIMEOUT_MS);
    run.onCallback = (d) => {
      clearTimeout(timer);
      run.onCallback = undefined;
      resolve(d);
    };
  });
}
