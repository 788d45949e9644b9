// The OAuth debugger: walks the MCP authorization flow one step at a time, showing every HTTP exchange and the spec rule it checks.
// @ts-check
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign as cryptoSign } from 'node:crypto';
import {
  authorizationServerMetadataUrls,
  checkPeerUrl,
  classifyHost,
  parseWwwAuthenticate,
  wellKnownResourceMetadataUrls,
} from '@mcpc/oauth';

// The flow, in order (`index` = position + 1). Steps run on `continue`; `iss-check` runs when the redirect
// reaches `GET /oauth/callback` (or on the `continue` that waits for it).
const STEPS = /** @type {const} */ ([
  ['challenge', 'Unauthenticated MCP request → 401 + WWW-Authenticate'],
  ['resource-metadata', 'Protected resource metadata (RFC 9728)'],
  ['authorization-server-metadata', 'Authorization server metadata (RFC 8414 / OpenID discovery)'],
  ['registration', 'Client registration (pre-registered / CIMD / DCR)'],
  ['pkce', 'PKCE (S256)'],
  ['authorization', 'Authorization request (opens in a new tab)'],
  ['iss-check', 'Authorization response: state and iss (RFC 9207)'],
  ['token', 'Token request (code + verifier + resource)'],
  ['authenticated-call', 'MCP request with the access token'],
  ['refresh', 'Refresh (refresh_token grant)'],
]);
const ISS_CHECK = 6; // position of 'iss-check'

const SPEC = 'MCP 2026-07-28 Authorization';
/** @type {Record<string, string>} */
const RULES = {
  challenge: `${SPEC} › Authorization Server Discovery › Protected Resource Metadata Discovery Requirements: "MCP clients MUST be able to parse WWW-Authenticate headers and respond appropriately to HTTP 401 Unauthorized responses from the MCP server"; servers MUST advertise their metadata through the resource_metadata parameter of the challenge or the well-known URIs.`,
  'resource-metadata': `${SPEC} › Authorization Server Discovery: clients "MUST use the resource metadata URL from the parsed WWW-Authenticate headers when present; otherwise, they MUST fall back to constructing and requesting the well-known URIs" (path-aware, then root), and the document "MUST include the authorization_servers field containing at least one authorization server" (RFC 9728 §3.3: its "resource" must be the resource the metadata was requested for).`,
  'authorization-server-metadata': `${SPEC} › Authorization Server Metadata Discovery: clients "MUST try endpoints in the following priority order" (RFC 8414, then OpenID Connect discovery; path insertion before appending), and the "issuer" in the document "MUST be identical to the issuer identifier used to construct the well-known URL. If they differ, the client MUST NOT use the metadata."`,
  registration: `${SPEC} › Client Registration: clients "MUST obtain a client ID" before authorizing, in the priority order pre-registered → Client ID Metadata Document (when client_id_metadata_document_supported) → Dynamic Client Registration (deprecated; when registration_endpoint) → ask the user; DCR "MUST specify an appropriate application_type".`,
  pkce: `${SPEC} › Security Considerations › Authorization Code Protection: "MCP clients MUST implement PKCE … and MUST verify PKCE support before proceeding" — if code_challenge_methods_supported is absent the client "MUST refuse to proceed"; clients "MUST use the S256 code challenge method".`,
  authorization: `${SPEC} › Resource Parameter Implementation: the resource parameter "MUST be included in both authorization requests and token requests" and "MUST identify the MCP server"; › Authorization Response Validation: the client "MUST record the issuer value from the selected authorization server's validated metadata" with the PKCE verifier and state before redirecting.`,
  'iss-check': `${SPEC} › Authorization Response Validation (RFC 9207 §2.4): before the code goes to any token endpoint, a present "iss" MUST equal the recorded issuer by simple string comparison (no normalization); an absent "iss" MUST be rejected when the server advertises authorization_response_iss_parameter_supported; on mismatch the client MUST NOT act on or display error, error_description or error_uri.`,
  token: `${SPEC} › Resource Parameter Implementation: "resource" MUST be included in token requests; OAuth 2.1 §4.1.3: the code is exchanged with its code_verifier; the token_type must be one the client uses (Bearer, or DPoP for a DPoP-bound token, RFC 9449 §5).`,
  'authenticated-call': `${SPEC} › Access Token Usage: clients "MUST use the Authorization request header field" (Authorization: Bearer <token>, or DPoP <token> with a DPoP proof, RFC 9449 §7) in every request, and "Access tokens MUST NOT be included in the URI query string"; servers MUST accept only tokens issued for them (audience).`,
  refresh: `${SPEC} › Refresh Tokens: clients "MUST NOT assume refresh tokens will be issued" and MUST keep them confidential; › Security Considerations: "For public clients, authorization servers MUST rotate refresh tokens"; the refresh request carries "resource" too (RFC 8707 §2.2).`,
};

const FETCH_TIMEOUT_MS = 15_000;
const CALLBACK_TIMEOUT_MS = 5 * 60_000;
const BODY_CAP = 16 * 1024; // characters of a body the page sees
const READ_CAP = 1024 * 1024; // bytes read from any response
const MAX_RUNS = 20;
const RUN_TTL_MS = 60 * 60_000;
const MCP_ACCEPT = 'application/json, text/event-stream';
const initialize = (/** @type {number} */ id) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'mcpc-playground-oauth-debugger', version: '0.0.0' },
  },
});

/**
 * One HTTP exchange as the page sees it (tokens, codes and secrets redacted to their first and last 4 characters).
 * @typedef {{ request: { method: string, url: string, headers: Record<string, string>, body?: string },
 *   response?: { status: number, headers: Record<string, string>, body: string }, error?: string, durationMs: number }} Exchange
 * One step of a run, emitted as `oauth-step` `{ runId, step }`. `exchanges` (when a step made more than one request)
 * lists them all, `exchange` is the last; `info` holds what was parsed or decoded; `final` marks the run's end
 * (the last step, or a failure); `waiting` marks the authorization step (the run waits for the redirect).
 * @typedef {{ index: number, name: string, title: string, ok: boolean, detail: string, rule?: string,
 *   exchange?: Exchange, exchanges?: Exchange[], info?: Record<string, unknown>, final?: boolean, waiting?: boolean }} OAuthStep
 * @typedef {{ url: string, scope?: string, clientId?: string, clientSecret?: string, dpop?: 'auto' | 'on' | 'off' | boolean }} OAuthRunBody
 * @typedef {object} OAuthDebugger
 * @property {(body: unknown) => Promise<string>} start begins a run (no step runs yet); resolves with its id
 * @property {(runId: string) => Promise<void>} continue runs the next step (the `iss` check waits for the redirect, at most 5 minutes)
 * @property {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void} callback
 *   answers GET /oauth/callback (no token: `state` must match a run) and resumes that run
 */
/**
 * @typedef {{ status: number, headers: Headers, text: string, json: any, record: Exchange }} Sent
 * @typedef {{ publicJwk: Record<string, string>, privateKey: import('node:crypto').KeyObject, jkt: string,
 *   nonces: Map<string, string> }} DPoPKey
 * @typedef {{ params: URLSearchParams, raw: string, repeated: string[] }} CallbackData
 * @typedef {{ accessToken: string, tokenType: string, refreshToken?: string, scope?: string, expiresIn?: number }} Tokens
 * @typedef {{
 *   id: string, createdAt: number, serverUrl: URL, localStack: boolean, redirectUri: string,
 *   scopeOption?: string, clientIdOption?: string, clientSecretOption?: string, dpopOption: 'auto' | 'on' | 'off',
 *   next: number, done: boolean, queue: Promise<void>, secrets: Set<string>,
 *   challenge?: { scheme: string, params: Record<string, string> }, prm?: Record<string, any>, resource?: string,
 *   issuer?: string, as?: Record<string, any>, dpop?: DPoPKey,
 *   client?: { clientId: string, clientSecret?: string, authMethod: string, how: string },
 *   scope?: string, scopeSource?: string, verifier?: string, state?: string,
 *   callback?: CallbackData, onCallback?: ((d: CallbackData) => void) | undefined, code?: string, tokens?: Tokens,
 * }} Run
 */

/** First and last 4 characters: what the page sees of a token, code or secret. */
export function redact(/** @type {string} */ value) {
  if (value.length <= 12) return '…';
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

const b64url = (/** @type {Buffer | string} */ b) => Buffer.from(b).toString('base64url');
const sha256 = (/** @type {string} */ s) => createHash('sha256').update(s, 'ascii').digest();

/** Header and payload of a compact JWS, for display (the signature is not checked: this is a debugger). */
function decodeJwt(/** @type {string} */ jwt) {
  const parts = jwt.split('.');
  if (parts.length !== 3) return undefined;
  try {
    return {
      header: JSON.parse(Buffer.from(parts[0] ?? '', 'base64url').toString('utf8')),
      payload: JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')),
    };
  } catch {
    return undefined;
  }
}

/** Replace every secret of the run that appears in `text` by its redacted form. */
function scrub(/** @type {Run} */ run, /** @type {string} */ text) {
  let out = text;
  for (const s of run.secrets) if (s.length > 0) out = out.split(s).join(redact(s));
  return out;
}

function keep(/** @type {Run} */ run, /** @type {unknown} */ value) {
  if (typeof value === 'string' && value.length > 0) run.secrets.add(value);
}

function headersRecord(/** @type {Headers} */ h) {
  /** @type {Record<string, string>} */
  const out = {};
  h.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

function redactHeaders(/** @type {Run} */ run, /** @type {Record<string, string>} */ headers) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === 'authorization') {
      const sp = v.indexOf(' ');
      out[k] = sp > 0 ? `${v.slice(0, sp)} ${redact(v.slice(sp + 1))}` : redact(v);
    } else out[k] = scrub(run, v);
  }
  return out;
}

const cap = (/** @type {string} */ s) =>
  s.length > BODY_CAP ? `${s.slice(0, BODY_CAP)}\n… (${s.length - BODY_CAP} more characters)` : s;

/** Read at most READ_CAP bytes of a body, and stop an open stream after `ms`. */
async function readBody(/** @type {Response} */ res, ms = FETCH_TIMEOUT_MS) {
  if (res.body === null) return '';
  const reader = res.body.getReader();
  /** @type {Uint8Array[]} */
  const chunks = [];
  let size = 0;
  const deadline = Date.now() + ms;
  const sse = /text\/event-stream/.test(res.headers.get('content-type') ?? '');
  for (let i = 0; i < 10_000; i++) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const r = await Promise.race([
      reader.read(),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve({ done: true }), left);
      }),
    ]);
    clearTimeout(timer);
    const chunk = /** @type {{ done: boolean, value?: Uint8Array }} */ (r);
    if (chunk.done || chunk.value === undefined) break;
    chunks.push(chunk.value);
    size += chunk.value.byteLength;
    if (size >= READ_CAP) break;
    // An SSE answer to one POST: stop once a JSON-RPC response has arrived.
    if (sse) {
      const text = Buffer.concat(chunks).toString('utf8');
      if (/"(result|error)"\s*:/.test(text) && /\n\n/.test(text)) break;
    }
  }
  reader.cancel().catch(() => {});
  return Buffer.concat(chunks).toString('utf8').slice(0, READ_CAP);
}

/** One HTTP exchange, recorded for the page (secrets redacted). Never follows redirects. */
async function send(
  /** @type {Run} */ run,
  /** @type {string} */ method,
  /** @type {string} */ url,
  /** @type {Record<string, string>} */ headers = {},
  /** @type {string | undefined} */ body = undefined,
) {
  const started = Date.now();
  /** @type {Exchange} */
  const record = {
    request: {
      method,
      url: scrub(run, url),
      headers: redactHeaders(run, headers),
      ...(body === undefined ? {} : { body: cap(scrub(run, body)) }),
    },
    durationMs: 0,
  };
  try {
    const res = await fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    const text = await readBody(res);
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    record.durationMs = Date.now() - started;
    record.response = { status: res.status, headers: redactHeaders(run, headersRecord(res.headers)), body: '' };
    return /** @type {Sent} */ ({ status: res.status, headers: res.headers, text, json, record });
  } catch (e) {
    record.durationMs = Date.now() - started;
    record.error = e instanceof Error ? `${e.name}: ${e.message}${e.cause ? ` (${String(e.cause)})` : ''}` : String(e);
    throw Object.assign(new Error(`${method} ${url} failed: ${record.error}`), { exchange: record });
  }
}

/** Fill in the body the page sees, once the step knows which parts are secrets. */
function seal(/** @type {Run} */ run, /** @type {Sent} */ sent) {
  if (sent.record.response) {
    sent.record.response.body = cap(scrub(run, sent.text));
    sent.record.response.headers = redactHeaders(run, headersRecord(sent.headers));
  }
  return sent.record;
}

/** The JSON-RPC response in a JSON or SSE body. */
function rpcMessage(/** @type {string} */ text) {
  try {
    return JSON.parse(text);
  } catch {
    /* maybe SSE */
  }
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') continue;
    try {
      const m = JSON.parse(data);
      if (m && typeof m === 'object' && ('result' in m || 'error' in m)) return m;
    } catch {
      /* not JSON */
    }
  }
  return undefined;
}

/* ---------- DPoP (RFC 9449), with node:crypto ---------- */

function createDPoPKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = /** @type {Record<string, string>} */ (publicKey.export({ format: 'jwk' }));
  const publicJwk = { kty: 'EC', crv: 'P-256', x: jwk.x ?? '', y: jwk.y ?? '' };
  // RFC 7638: the required members in lexicographic order, no whitespace.
  const jkt = b64url(
    createHash('sha256')
      .update(JSON.stringify({ crv: publicJwk.crv, kty: publicJwk.kty, x: publicJwk.x, y: publicJwk.y }))
      .digest(),
  );
  return /** @type {DPoPKey} */ ({ publicJwk, privateKey, jkt, nonces: new Map() });
}

/** A DPoP proof JWT (ES256) for one request; `ath` binds it to the access token it goes with. */
function dpopProof(
  /** @type {DPoPKey} */ key,
  /** @type {string} */ method,
  /** @type {string} */ url,
  /** @type {string | undefined} */ accessToken,
) {
  const u = new URL(url);
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk };
  const nonce = key.nonces.get(u.origin);
  const payload = {
    jti: randomUUID(),
    htm: method,
    htu: `${u.origin}${u.pathname}`,
    iat: Math.floor(Date.now() / 1000),
    ...(accessToken === undefined ? {} : { ath: b64url(sha256(accessToken)) }),
    ...(nonce === undefined ? {} : { nonce }),
  };
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  const sig = cryptoSign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return { jwt: `${input}.${b64url(sig)}`, header, payload };
}

function noteNonce(/** @type {DPoPKey | undefined} */ key, /** @type {string} */ url, /** @type {Headers} */ headers) {
  const n = headers.get('dpop-nonce');
  if (key && n && n.length <= 512 && /^[\x21-\x7e]+$/.test(n)) key.nonces.set(new URL(url).origin, n);
}

/* ---------- helpers of the steps ---------- */

class StepFailure extends Error {
  constructor(/** @type {string} */ message, /** @type {Partial<OAuthStep>} */ extra = {}) {
    super(message);
    /** @type {Partial<OAuthStep>} */
    this.extra = extra;
  }
}

/** @returns {never} */
function fail(/** @type {string} */ message, /** @type {Partial<OAuthStep>} */ extra = {}) {
  throw new StepFailure(message, extra);
}

/** A URL the peer named must pass @mcpc/oauth's peer-URL policy (HTTPS; loopback only for a loopback server). */
function peerUrl(/** @type {Run} */ run, /** @type {unknown} */ value, /** @type {string} */ purpose) {
  try {
    return checkPeerUrl(value, purpose, { localStack: run.localStack });
  } catch (e) {
    return fail(
      `${e instanceof Error ? e.message : String(e)} — ${SPEC} › Security Considerations › Communication Security: "All authorization server endpoints MUST be served over HTTPS" (loopback is accepted only when the MCP server itself is on loopback).`,
    );
  }
}

/** 'identical', 'prefix' (same origin, a parent path: accepted, as @mcpc/oauth does), 'different' or 'invalid'. */
function resourceMatches(/** @type {string} */ resource, /** @type {URL} */ serverUrl) {
  let r;
  try {
    r = new URL(resource);
  } catch {
    return 'invalid';
  }
  if (resource === serverUrl.href || r.href === serverUrl.href) return 'identical';
  if (r.origin !== serverUrl.origin || r.hash !== '' || r.search !== '') return 'different';
  const base = r.pathname.replace(/\/$/, '');
  const path = serverUrl.pathname.replace(/\/$/, '');
  if (path === base) return 'identical';
  return base === '' || path.startsWith(`${base}/`) ? 'prefix' : 'different';
}

function tokenAuth(
  /** @type {Run} */ run,
  /** @type {URLSearchParams} */ form,
  /** @type {Record<string, string>} */ headers,
) {
  const c = run.client;
  if (!c) return;
  if (c.clientSecret !== undefined && c.authMethod === 'client_secret_basic') {
    // RFC 6749 §2.3.1: form-encode both before Basic.
    const enc = (/** @type {string} */ s) => new URLSearchParams({ s }).toString().slice(2);
    headers.authorization = `Basic ${Buffer.from(`${enc(c.clientId)}:${enc(c.clientSecret)}`).toString('base64')}`;
  } else {
    form.set('client_id', c.clientId);
    if (c.clientSecret !== undefined) form.set('client_secret', c.clientSecret);
  }
}

/** POST to the token endpoint (with a DPoP proof when on; one retry on use_dpop_nonce). `seal` after reading. */
async function tokenRequest(/** @type {Run} */ run, /** @type {URLSearchParams} */ form) {
  const endpoint = peerUrl(run, run.as?.token_endpoint, 'token_endpoint').href;
  /** @type {Sent[]} */
  const sents = [];
  /** @type {unknown[]} */
  const proofs = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    /** @type {Record<string, string>} */
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    tokenAuth(run, form, headers);
    if (run.dpop) {
      const p = dpopProof(run.dpop, 'POST', endpoint, undefined);
      headers.dpop = p.jwt;
      proofs.push({ header: p.header, payload: p.payload });
    }
    const sent = await send(run, 'POST', endpoint, headers, form.toString());
    noteNonce(run.dpop, endpoint, sent.headers);
    sents.push(sent);
    if (!(run.dpop && sent.status === 400 && sent.json?.error === 'use_dpop_nonce' && sent.headers.get('dpop-nonce')))
      break;
  }
  const sent = /** @type {Sent} */ (sents.at(-1));
  return { sent, proofs, seal: () => sents.map((s) => seal(run, s)) };
}

/**
 * A token request read as tokens: what was sent (and the DPoP proofs) is attached to a failure as to a
 * success, so a failed step shows its exchanges too.
 */
async function requestTokens(/** @type {Run} */ run, /** @type {URLSearchParams} */ form, /** @type {string} */ what) {
  const { sent, proofs, seal: sealAll } = await tokenRequest(run, form);
  try {
    return { tokens: readTokens(run, sent, what), exchanges: sealAll(), proofs };
  } catch (e) {
    if (e instanceof StepFailure)
      e.extra = { ...e.extra, exchanges: sealAll(), ...(proofs.length ? { info: { dpopProofs: proofs } } : {}) };
    throw e;
  }
}

/** Check a token response; its tokens become secrets of the run (redacted wherever they appear). */
function readTokens(/** @type {Run} */ run, /** @type {Sent} */ sent, /** @type {string} */ what) {
  const body = sent.json;
  if (body && typeof body === 'object') {
    keep(run, body.access_token);
    keep(run, body.refresh_token);
    keep(run, body.id_token);
  }
  if (sent.status !== 200) {
    const err =
      body && typeof body.error === 'string'
        ? `${body.error}${body.error_description ? `: ${body.error_description}` : ''}`
        : sent.text.slice(0, 200);
    return fail(`the ${what} was refused with HTTP ${sent.status} (${err}).`);
  }
  if (!body || typeof body !== 'object' || typeof body.access_token !== 'string' || body.access_token === '')
    return fail(`the ${what} answered 200 without an access_token (RFC 6749 §5.1 requires one).`);
  const tokenType = typeof body.token_type === 'string' ? body.token_type : '';
  if (tokenType.toLowerCase() !== (run.dpop ? 'dpop' : 'bearer'))
    return fail(
      `the token_type is ${JSON.stringify(tokenType || null)}, not ${run.dpop ? 'DPoP (a DPoP proof was sent, RFC 9449 §5)' : 'Bearer'}: a client must not present a token of a type it does not use.`,
    );
  /** @type {Tokens} */
  const tokens = { accessToken: body.access_token, tokenType: run.dpop ? 'DPoP' : 'Bearer' };
  if (typeof body.refresh_token === 'string' && body.refresh_token !== '') tokens.refreshToken = body.refresh_token;
  if (typeof body.scope === 'string') tokens.scope = body.scope;
  if (typeof body.expires_in === 'number') tokens.expiresIn = body.expires_in;
  return tokens;
}

function tokenInfo(/** @type {Tokens} */ t) {
  const jwt = decodeJwt(t.accessToken);
  return {
    token_type: t.tokenType,
    access_token: redact(t.accessToken),
    ...(t.refreshToken ? { refresh_token: redact(t.refreshToken) } : {}),
    ...(t.scope !== undefined ? { scope: t.scope } : {}),
    ...(t.expiresIn !== undefined ? { expires_in: t.expiresIn } : {}),
    accessTokenJwt: jwt ?? 'opaque (not a JWT)',
  };
}

/* ---------- the steps ---------- */

/** @type {Record<string, (run: Run) => Promise<Partial<OAuthStep>>>} */
const steps = {
  async challenge(run) {
    const sent = await send(
      run,
      'POST',
      run.serverUrl.href,
      { 'content-type': 'application/json', accept: MCP_ACCEPT },
      JSON.stringify(initialize(1)),
    );
    const exchange = seal(run, sent);
    const header = sent.headers.get('www-authenticate') ?? undefined;
    const challenges = parseWwwAuthenticate(header);
    const info = { status: sent.status, 'www-authenticate': header ?? null, challenges };
    if (sent.status !== 401)
      return fail(
        sent.status >= 200 && sent.status < 300
          ? `the server answered HTTP ${sent.status} without a token: it does not require authorization at this URL, so there is no flow to debug.`
          : `expected HTTP 401 Unauthorized for a request without a token, got HTTP ${sent.status}.`,
        { exchange, info },
      );
    if (header === undefined)
      return fail('the 401 has no WWW-Authenticate header (RFC 9110 §11.6.1 requires one on a 401).', {
        exchange,
        info,
      });
    const bearer = challenges.find((c) => c.scheme === 'bearer') ?? challenges.find((c) => c.scheme === 'dpop');
    if (bearer === undefined)
      return fail(
        `the WWW-Authenticate header names no Bearer (or DPoP) challenge (schemes: ${challenges.map((c) => c.scheme).join(', ') || 'none could be parsed'}).`,
        { exchange, info },
      );
    run.challenge = { scheme: bearer.scheme, params: { ...bearer.params } };
    const rm = bearer.params.resource_metadata;
    const sc = bearer.params.scope;
    return {
      exchange,
      info,
      detail:
        `HTTP 401 with a ${bearer.scheme === 'bearer' ? 'Bearer' : 'DPoP'} challenge. ` +
        (rm ? `resource_metadata = ${rm}. ` : 'No resource_metadata parameter: the well-known URIs will be tried. ') +
        (sc ? `Challenged scope: "${sc}".` : 'No scope in the challenge.'),
    };
  },

  async 'resource-metadata'(run) {
    const rm = run.challenge?.params.resource_metadata;
    const urls = rm ? [peerUrl(run, rm, 'resource_metadata').href] : wellKnownResourceMetadataUrls(run.serverUrl);
    /** @type {Exchange[]} */
    const exchanges = [];
    /** @type {Sent | undefined} */
    let found;
    for (const url of urls) {
      const sent = await send(run, 'GET', url, { accept: 'application/json' });
      exchanges.push(seal(run, sent));
      if (sent.status === 200) {
        found = sent;
        break;
      }
      if (rm) break; // a resource_metadata the server named is not replaced by a guess
    }
    const tried = {
      source: rm ? 'the resource_metadata of the WWW-Authenticate challenge' : 'the well-known URIs, in order',
      tried: urls.slice(0, exchanges.length),
    };
    if (!found)
      return fail(
        rm
          ? `the resource_metadata URL from the challenge answered HTTP ${exchanges.at(-1)?.response?.status}; a client does not fall back to guessing when the server named its metadata.`
          : `no protected resource metadata: ${urls.map((u, i) => `${u} → HTTP ${exchanges[i]?.response?.status ?? '—'}`).join(', ')}.`,
        { exchanges, info: tried },
      );
    const doc = found.json;
    if (!doc || typeof doc !== 'object' || Array.isArray(doc))
      return fail('the protected resource metadata is not a JSON object.', { exchanges, info: tried });
    if (typeof doc.resource !== 'string')
      return fail('the protected resource metadata has no "resource" (RFC 9728 §2: REQUIRED).', {
        exchanges,
        info: { ...tried, document: doc },
      });
    const match = resourceMatches(doc.resource, run.serverUrl);
    if (match === 'different' || match === 'invalid')
      return fail(
        `the metadata is for the resource ${JSON.stringify(doc.resource)}, not for ${run.serverUrl.href}: RFC 9728 §3.3 — a client must not use metadata whose "resource" is not the resource it asked about (impersonation).`,
        { exchanges, info: { ...tried, document: doc } },
      );
    const servers = doc.authorization_servers;
    if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === 'string'))
      return fail('the metadata lists no authorization_servers: MCP requires "at least one authorization server".', {
        exchanges,
        info: { ...tried, document: doc },
      });
    const issuer = /** @type {string} */ (servers[0]);
    peerUrl(run, issuer, 'authorization server');
    run.prm = doc;
    run.resource = doc.resource;
    run.issuer = issuer;
    return {
      exchanges,
      info: { ...tried, document: doc, chosenAuthorizationServer: servers[0] },
      detail:
        `Read from ${found.record.request.url}. resource = ${doc.resource}` +
        (match === 'prefix' ? ' (a parent of the server URL on the same origin — accepted, as @mcpc/oauth does)' : '') +
        `. Authorization server${servers.length > 1 ? `s: ${servers.join(', ')}; using the first` : `: ${servers[0]}`}.` +
        (Array.isArray(doc.scopes_supported) ? ` scopes_supported: ${doc.scopes_supported.join(' ')}.` : ''),
    };
  },

  async 'authorization-server-metadata'(run) {
    const issuer = /** @type {string} */ (run.issuer);
    /** @type {string[]} */
    let urls;
    try {
      urls = authorizationServerMetadataUrls(issuer);
    } catch {
      return fail(`the authorization server ${JSON.stringify(issuer)} is not a URL.`);
    }
    if (new URL(issuer).search !== '')
      return fail(`the issuer ${issuer} has a query component (RFC 8414 §2 forbids one).`);
    /** @type {Exchange[]} */
    const exchanges = [];
    /** @type {Sent | undefined} */
    let found;
    for (const url of urls) {
      const sent = await send(run, 'GET', url, { accept: 'application/json' });
      exchanges.push(seal(run, sent));
      if (sent.status === 200) {
        found = sent;
        break;
      }
    }
    const tried = { issuer, order: urls };
    if (!found)
      return fail(
        `no authorization server metadata for ${issuer}: ${urls.map((u, i) => `${u} → HTTP ${exchanges[i]?.response?.status ?? '(not tried)'}`).join(', ')}.`,
        { exchanges, info: tried },
      );
    const as = found.json;
    if (!as || typeof as !== 'object' || Array.isArray(as))
      return fail(`the metadata at ${found.record.request.url} is not a JSON object.`, { exchanges, info: tried });
    if (as.issuer !== issuer)
      return fail(
        `the metadata fetched for the issuer ${JSON.stringify(issuer)} names the issuer ${JSON.stringify(as.issuer ?? null)}: they must be identical (plain string comparison), so this metadata MUST NOT be used (mix-up protection).`,
        { exchanges, info: { ...tried, metadata: as } },
      );
    for (const name of ['authorization_endpoint', 'token_endpoint'])
      if (typeof as[name] !== 'string')
        return fail(`the metadata has no ${name}: the authorization code flow cannot run.`, {
          exchanges,
          info: { ...tried, metadata: as },
        });
    peerUrl(run, as.authorization_endpoint, 'authorization_endpoint');
    peerUrl(run, as.token_endpoint, 'token_endpoint');
    run.as = as;

    const asDpop =
      Array.isArray(as.dpop_signing_alg_values_supported) && as.dpop_signing_alg_values_supported.includes('ES256');
    const rsDpop =
      Array.isArray(run.prm?.dpop_signing_alg_values_supported) || run.prm?.dpop_bound_access_tokens_required === true;
    if (run.dpopOption === 'on' || (run.dpopOption === 'auto' && asDpop && rsDpop)) run.dpop = createDPoPKey();
    const dpopNote =
      run.dpopOption === 'off'
        ? 'DPoP: off (chosen).'
        : run.dpop
          ? `DPoP: on — ${asDpop ? 'the authorization server accepts ES256 proofs' : 'forced, though the authorization server does not list ES256'}${rsDpop ? ' and the resource advertises DPoP' : ''}; key thumbprint (jkt) ${run.dpop.jkt}.`
          : asDpop
            ? 'DPoP: the authorization server supports it, but the resource metadata does not advertise dpop_signing_alg_values_supported (RFC 9728 §2), so Bearer tokens are used (choose DPoP "on" to force it).'
            : 'DPoP: not offered by the authorization server (no ES256 in dpop_signing_alg_values_supported): Bearer tokens.';
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
    return {
      exchanges,
      info: { ...tried, usedUrl: found.record.request.url, summary, ...(run.dpop ? { dpopJkt: run.dpop.jkt } : {}) },
      detail: `Read from ${found.record.request.url} (${exchanges.length} of ${urls.length} URLs tried, in the spec's order); its issuer is identical to ${issuer}. ${dpopNote}`,
    };
  },

  async registration(run) {
    const as = /** @type {Record<string, any>} */ (run.as);
    if (run.clientIdOption) {
      const secret = run.clientSecretOption;
      let authMethod = 'none';
      if (secret !== undefined) {
        keep(run, secret);
        const methods = Array.isArray(as.token_endpoint_auth_methods_supported)
          ? as.token_endpoint_auth_methods_supported
          : ['client_secret_basic']; // RFC 8414 §2: the default
        authMethod =
          !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
            ? 'client_secret_post'
            : 'client_secret_basic';
      }
      run.client = {
        clientId: run.clientIdOption,
        ...(secret === undefined ? {} : { clientSecret: secret }),
        authMethod,
        how: 'pre-registered',
      };
      return {
        info: {
          choice: 'pre-registered',
          client_id: run.clientIdOption,
          token_endpoint_auth_method: authMethod,
          redirect_uri: run.redirectUri,
        },
        detail: `Using the pre-registered client id ${run.clientIdOption}${secret === undefined ? ' (a public client)' : ` with its secret (${authMethod})`} — priority 1. It must be registered with the redirect URI ${run.redirectUri} at ${as.issuer}.`,
      };
    }
    const notes = ['No pre-registered client id was given (priority 1).'];
    if (as.client_id_metadata_document_supported === true)
      notes.push(
        'The server supports Client ID Metadata Documents (priority 2), but the playground runs on loopback and has no public HTTPS URL to host one at (the client_id must be an HTTPS URL the server can fetch) — skipped.',
      );
    else notes.push('client_id_metadata_document_supported is not true: no Client ID Metadata Document (priority 2).');
    if (typeof as.registration_endpoint !== 'string')
      return fail(
        `${notes.join(' ')} The server has no registration_endpoint, so Dynamic Client Registration is not possible: enter a pre-registered client id (priority 4: ask the user).`,
        { info: { choice: 'none' } },
      );
    const endpoint = peerUrl(run, as.registration_endpoint, 'registration_endpoint').href;
    const request = {
      client_name: 'mcpc playground (OAuth debugger)',
      redirect_uris: [run.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native', // a loopback redirect URI
      ...(run.scope ? { scope: run.scope } : {}),
    };
    const sent = await send(
      run,
      'POST',
      endpoint,
      { 'content-type': 'application/json', accept: 'application/json' },
      JSON.stringify(request),
    );
    const body = sent.json;
    if (body && typeof body === 'object') {
      keep(run, body.client_secret);
      keep(run, body.registration_access_token);
    }
    const exchange = seal(run, sent);
    if (sent.status !== 201 && sent.status !== 200)
      return fail(
        `${notes.join(' ')} Dynamic Client Registration was refused with HTTP ${sent.status}${body?.error ? ` (${body.error}${body.error_description ? `: ${body.error_description}` : ''})` : ''}.`,
        { exchange, info: { choice: 'dcr', request } },
      );
    if (!body || typeof body.client_id !== 'string' || body.client_id === '')
      return fail('the registration response has no client_id (RFC 7591 §3.2.1: REQUIRED).', {
        exchange,
        info: { choice: 'dcr', request },
      });
    if (Array.isArray(body.redirect_uris) && !body.redirect_uris.includes(run.redirectUri))
      return fail(
        `the server registered other redirect URIs (${body.redirect_uris.join(', ')}) than ${run.redirectUri}.`,
        { exchange, info: { choice: 'dcr', request } },
      );
    const authMethod = typeof body.token_endpoint_auth_method === 'string' ? body.token_endpoint_auth_method : 'none';
    run.client = {
      clientId: body.client_id,
      ...(typeof body.client_secret === 'string' ? { clientSecret: body.client_secret } : {}),
      authMethod,
      how: 'dcr',
    };
    return {
      exchange,
      info: { choice: 'dcr', request, client_id: body.client_id, token_endpoint_auth_method: authMethod },
      detail: `${notes.join(' ')} Registered dynamically (RFC 7591 — deprecated by MCP 2026-07-28, kept for servers without CIMD): client_id ${body.client_id}, application_type native, redirect URI ${run.redirectUri}.`,
    };
  },

  async pkce(run) {
    const as = /** @type {Record<string, any>} */ (run.as);
    const methods = as.code_challenge_methods_supported;
    if (!Array.isArray(methods))
      return fail(
        'the authorization server metadata has no code_challenge_methods_supported: PKCE support cannot be verified, so the client MUST refuse to proceed.',
        { info: { code_challenge_methods_supported: null } },
      );
    if (!methods.includes('S256'))
      return fail(
        `code_challenge_methods_supported is ${JSON.stringify(methods)}, without S256: the client must use S256, so it refuses to proceed.`,
        { info: { code_challenge_methods_supported: methods } },
      );
    run.verifier = b64url(randomBytes(32));
    // The verifier is the secret that proves the code is ours: shown, as every secret, as 4 + 4 characters
    // (here and in every exchange that carries it).
    keep(run, run.verifier);
    const challenge = b64url(sha256(run.verifier));
    return {
      info: {
        code_verifier: redact(run.verifier),
        code_challenge: challenge,
        code_challenge_method: 'S256',
        how: 'code_challenge = BASE64URL(SHA-256(ASCII(code_verifier))) — RFC 7636 §4.2',
        code_challenge_methods_supported: methods,
      },
      detail: `The server supports ${methods.join(', ')}. A fresh 43-character verifier ${redact(run.verifier)} and its S256 challenge ${challenge}.`,
    };
  },

  async authorization(run) {
    const as = /** @type {Record<string, any>} */ (run.as);
    const endpoint = peerUrl(run, as.authorization_endpoint, 'authorization_endpoint');
    run.state = b64url(randomBytes(24));
    const url = new URL(endpoint.href);
    const set = (/** @type {string} */ k, /** @type {string} */ v) => url.searchParams.set(k, v);
    set('response_type', 'code');
    set('client_id', run.client?.clientId ?? '');
    set('redirect_uri', run.redirectUri);
    if (run.scope) set('scope', run.scope);
    set('state', run.state);
    set('code_challenge', b64url(sha256(/** @type {string} */ (run.verifier))));
    set('code_challenge_method', 'S256');
    set('resource', /** @type {string} */ (run.resource));
    if (run.dpop) set('dpop_jkt', run.dpop.jkt);
    return {
      waiting: true,
      info: {
        authorizationUrl: url.href,
        parameters: Object.fromEntries(url.searchParams),
        recorded: { issuer: as.issuer, state: run.state, code_verifier: 'kept with the state (step 5)' },
        scopeSource: run.scopeSource,
        callback: run.redirectUri,
      },
      detail:
        `Open the authorization URL in a new tab and approve; the server redirects to ${run.redirectUri}, which resumes the run. ` +
        `resource = ${run.resource}; scope ${run.scope ? `"${run.scope}" (${run.scopeSource})` : `omitted (${run.scopeSource})`}; ` +
        `the expected issuer ${as.issuer} is recorded with the state and the verifier.` +
        (run.dpop ? ` dpop_jkt = ${run.dpop.jkt} binds the code to the DPoP key (RFC 9449 §10).` : ''),
    };
  },

  async 'iss-check'(run) {
    let data = run.callback;
    if (!data) {
      data = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve(undefined), CALLBACK_TIMEOUT_MS);
        run.onCallback = (d) => {
          clearTimeout(timer);
          resolve(d);
        };
      });
      run.onCallback = undefined;
    }
    if (!data)
      return fail(
        `no redirect reached ${run.redirectUri} within ${CALLBACK_TIMEOUT_MS / 60_000} minutes: open the authorization link (step 6) and approve.`,
      );
    const as = /** @type {Record<string, any>} */ (run.as);
    const p = data.params;
    keep(run, p.get('code') ?? undefined);
    /** @type {Exchange} */
    const exchange = {
      request: { method: 'GET', url: scrub(run, data.raw), headers: {} },
      response: {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '(the "you can close this tab" page)',
      },
      durationMs: 0,
    };
    const expected = { expectedIssuer: as.issuer };
    if (data.repeated.length > 0)
      return fail(
        `the authorization response repeats ${data.repeated.join(', ')}: parameters must not be included more than once (RFC 6749 §3.1), so it is rejected.`,
        { exchange, info: expected },
      );
    const iss = p.get('iss');
    const advertised = as.authorization_response_iss_parameter_supported === true;
    if (iss === null && advertised)
      return fail(
        'the authorization response has no "iss", but the server advertises authorization_response_iss_parameter_supported: true — the response MUST be rejected (RFC 9207 §2.4).',
        { exchange, info: { ...expected, authorization_response_iss_parameter_supported: true } },
      );
    if (iss !== null && iss !== as.issuer)
      return fail(
        `the "iss" of the response is ${JSON.stringify(iss)}, not the recorded issuer ${JSON.stringify(as.issuer)} (simple string comparison): a possible mix-up attack — the code goes nowhere, and any error in the response is not shown.`,
        { exchange, info: { iss, ...expected } },
      );
    const params = Object.fromEntries([...p].map(([k, v]) => [k, k === 'code' ? redact(v) : v]));
    const info = {
      params,
      ...expected,
      authorization_response_iss_parameter_supported: as.authorization_response_iss_parameter_supported ?? null,
    };
    const issNote =
      iss === null
        ? 'No "iss" in the response, and the server does not advertise it: proceeding (RFC 9207 §2.4, last row of the table).'
        : `iss = ${iss}, identical to the recorded issuer.`;
    const error = p.get('error');
    if (error !== null) {
      const description = p.get('error_description');
      const hint =
        !run.scope && (error === 'access_denied' || error === 'invalid_scope' || error === 'invalid_request')
          ? ' No scope was sent (neither the challenge nor scopes_supported named one): this server may need one — enter a scope and start again.'
          : '';
      return fail(
        `${issNote} The authorization server answered with error=${error}${description ? ` (${description})` : ''}.${hint}`,
        { exchange, info },
      );
    }
    const code = p.get('code');
    if (code === null || code === '')
      return fail(`${issNote} The response has neither a code nor an error.`, { exchange, info });
    run.code = code;
    return {
      exchange,
      info,
      detail: `state matched this run. ${issNote} Authorization code received (${redact(code)}).`,
    };
  },

  async token(run) {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: /** @type {string} */ (run.code),
      redirect_uri: run.redirectUri,
      code_verifier: /** @type {string} */ (run.verifier),
      resource: /** @type {string} */ (run.resource),
    });
    const { tokens, exchanges, proofs } = await requestTokens(run, form, 'token request');
    run.tokens = tokens;
    const jwt = decodeJwt(tokens.accessToken);
    const aud = jwt?.payload?.aud;
    const audOk = Array.isArray(aud) ? aud.includes(run.resource) : aud === run.resource;
    const audNote =
      aud === undefined
        ? ''
        : ` Its aud is ${JSON.stringify(aud)}${audOk ? ' — the resource asked for' : ` — not the resource ${run.resource}`}.`;
    return {
      exchanges,
      info: { ...tokenInfo(tokens), ...(proofs.length ? { dpopProofs: proofs } : {}) },
      detail:
        `A ${tokens.tokenType} token (${redact(tokens.accessToken)})` +
        (tokens.expiresIn !== undefined ? `, expires in ${tokens.expiresIn} s` : '') +
        (tokens.scope !== undefined ? `, scope "${tokens.scope}"` : '') +
        `; ${tokens.refreshToken ? 'a refresh token was issued' : 'no refresh token'}.${audNote}` +
        (proofs.length
          ? ` Sent with ${proofs.length} DPoP proof${proofs.length > 1 ? 's (the first drew use_dpop_nonce)' : ''}.`
          : ''),
    };
  },

  async 'authenticated-call'(run) {
    const tokens = /** @type {Tokens} */ (run.tokens);
    const url = run.serverUrl.href;
    /** @type {Exchange[]} */
    const exchanges = [];
    /** @type {unknown[]} */
    const proofs = [];
    /** @type {Sent | undefined} */
    let sent;
    for (let attempt = 0; attempt < 2; attempt++) {
      /** @type {Record<string, string>} */
      const headers = {
        'content-type': 'application/json',
        accept: MCP_ACCEPT,
        authorization: `${tokens.tokenType} ${tokens.accessToken}`,
      };
      if (run.dpop) {
        const p = dpopProof(run.dpop, 'POST', url, tokens.accessToken);
        headers.dpop = p.jwt;
        proofs.push({ header: p.header, payload: p.payload });
      }
      sent = await send(run, 'POST', url, headers, JSON.stringify(initialize(2)));
      noteNonce(run.dpop, url, sent.headers);
      exchanges.push(seal(run, sent));
      const nonceAsked =
        run.dpop &&
        sent.status === 401 &&
        sent.headers.get('dpop-nonce') &&
        parseWwwAuthenticate(sent.headers.get('www-authenticate') ?? undefined).some(
          (c) => c.params.error === 'use_dpop_nonce',
        );
      if (!nonceAsked) break;
    }
    const last = /** @type {Sent} */ (sent);
    const info = proofs.length ? { dpopProofs: proofs } : {};
    if (last.status !== 200) {
      const challenge = parseWwwAuthenticate(last.headers.get('www-authenticate') ?? undefined)[0];
      const why = challenge?.params.error
        ? ` (${challenge.params.error}${challenge.params.error_description ? `: ${challenge.params.error_description}` : ''})`
        : '';
      const meaning =
        last.status === 403
          ? ': the token lacks a scope the server wants (insufficient_scope → step-up authorization)'
          : last.status === 401
            ? ': the server does not accept this token (audience, issuer, type, or DPoP proof)'
            : '';
      return fail(`the MCP request with the token was answered HTTP ${last.status}${why}, not 200${meaning}.`, {
        exchanges,
        info: { ...info, challenge: challenge ?? null },
      });
    }
    const message = rpcMessage(last.text);
    if (!message || message.error)
      return fail(
        message?.error
          ? `HTTP 200, but initialize failed: ${message.error.code} ${message.error.message}.`
          : 'HTTP 200, but no JSON-RPC response could be read from the body.',
        { exchanges, info },
      );
    const result = message.result ?? {};
    return {
      exchanges,
      info: { ...info, serverInfo: result.serverInfo ?? null, protocolVersion: result.protocolVersion ?? null },
      detail: `HTTP 200: initialize answered by ${result.serverInfo?.name ?? 'the server'}${result.serverInfo?.version ? ` ${result.serverInfo.version}` : ''} (protocol ${result.protocolVersion ?? '?'}), with the token in the Authorization header${run.dpop ? ' and a DPoP proof (htm, htu, ath)' : ''}.`,
    };
  },

  async refresh(run) {
    const tokens = /** @type {Tokens} */ (run.tokens);
    if (!tokens.refreshToken)
      return {
        info: { skipped: true },
        detail: 'No refresh token was issued, so there is nothing to refresh (a client must not assume one will be).',
      };
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
      resource: /** @type {string} */ (run.resource),
    });
    const { tokens: fresh, exchanges, proofs } = await requestTokens(run, form, 'refresh request');
    const rotated = fresh.refreshToken !== undefined && fresh.refreshToken !== tokens.refreshToken;
    run.tokens = { ...fresh, ...(fresh.refreshToken ? {} : { refreshToken: tokens.refreshToken }) };
    return {
      exchanges,
      info: { ...tokenInfo(fresh), rotated, ...(proofs.length ? { dpopProofs: proofs } : {}) },
      detail: `A new ${fresh.tokenType} access token (${redact(fresh.accessToken)}). ${
        rotated
          ? 'The refresh token was rotated (a new one replaces the old).'
          : fresh.refreshToken
            ? 'The same refresh token came back: not rotated — for a public client the authorization server MUST rotate it.'
            : 'No new refresh token; the old one stays in use.'
      }`,
    };
  },
};

/** MCP's scope selection: the debugger's field, else the challenge's scope, else the resource's scopes_supported, else none. */
function chooseScope(/** @type {Run} */ run) {
  if (run.scopeOption) {
    run.scope = run.scopeOption;
    run.scopeSource = 'entered in the debugger';
  } else if (run.challenge?.params.scope) {
    run.scope = run.challenge.params.scope;
    run.scopeSource = 'from the WWW-Authenticate challenge (Scope Selection Strategy, priority 1)';
  } else if (Array.isArray(run.prm?.scopes_supported) && run.prm.scopes_supported.length > 0) {
    run.scope = run.prm.scopes_supported.join(' ');
    run.scopeSource = 'all of the resource metadata scopes_supported (Scope Selection Strategy, priority 2)';
  } else {
    run.scopeSource = 'neither the challenge nor scopes_supported names one, so the parameter is omitted';
  }
}

/**
 * @param {{ emit: (event: { type: 'oauth-step', runId: string, step: OAuthStep }) => void, baseUrl: string }} options
 *   `emit` sends an event to every page; `baseUrl` is the playground's own origin (`http://127.0.0.1:PORT`),
 *   so the redirect URI is `${baseUrl}/oauth/callback`.
 * @returns {OAuthDebugger}
 */
export function createOAuthDebugger({ emit, baseUrl }) {
  /** @type {Map<string, Run>} */
  const runs = new Map();
  const redirectUri = `${baseUrl.replace(/\/+$/, '')}/oauth/callback`;

  const prune = () => {
    const now = Date.now();
    for (const [id, r] of runs) if (now - r.createdAt > RUN_TTL_MS) runs.delete(id);
    while (runs.size >= MAX_RUNS) {
      const oldest = runs.keys().next().value;
      if (oldest === undefined) break;
      runs.delete(oldest);
    }
  };

  /** Run the step at `run.next` and emit it; a failure ends the run. */
  async function runStep(/** @type {Run} */ run) {
    if (run.done || run.next >= STEPS.length) return;
    const index = run.next;
    const [name, title] = /** @type {readonly [string, string]} */ (STEPS[index]);
    const rule = RULES[name];
    if (name === 'registration') chooseScope(run);
    /** @type {OAuthStep} */
    let step;
    try {
      const out = await /** @type {(r: Run) => Promise<Partial<OAuthStep>>} */ (steps[name])(run);
      step = { index: index + 1, name, title, ok: true, detail: '', ...(rule ? { rule } : {}), ...out };
      run.next = index + 1;
      if (run.next >= STEPS.length) {
        run.done = true;
        step.final = true;
      }
    } catch (e) {
      const extra = e instanceof StepFailure ? e.extra : {};
      const exchange = /** @type {{ exchange?: Exchange }} */ (e ?? {}).exchange;
      const message = e instanceof Error ? e.message : String(e);
      step = {
        index: index + 1,
        name,
        title,
        ok: false,
        detail:
          e instanceof StepFailure ? message : `${message} — the request did not complete (network error or timeout).`,
        ...(rule ? { rule } : {}),
        ...(exchange ? { exchange } : {}),
        ...extra,
        final: true,
      };
      run.done = true;
    }
    if (step.exchanges && step.exchanges.length > 0 && step.exchange === undefined) {
      const last = step.exchanges.at(-1);
      if (last) step.exchange = last;
    }
    if (step.exchanges && step.exchanges.length <= 1) delete step.exchanges;
    step.detail = scrub(run, step.detail);
    emit({ type: 'oauth-step', runId: run.id, step });
  }

  function enqueue(/** @type {Run} */ run, /** @type {() => Promise<void>} */ fn) {
    const p = run.queue.then(fn, fn);
    run.queue = p.catch(() => {});
    return p;
  }

  return {
    async start(body) {
      const bad = (/** @type {string} */ m) => Object.assign(new Error(m), { status: 400, code: 'invalid_request' });
      if (!body || typeof body !== 'object')
        throw bad('a JSON body { url, scope?, clientId?, clientSecret? } is needed');
      const b = /** @type {Record<string, unknown>} */ (body);
      const str = (/** @type {unknown} */ v, /** @type {string} */ name) => {
        if (v === undefined || v === null || v === '') return undefined;
        if (typeof v !== 'string' || v.length > 4096) throw bad(`${name} must be a string`);
        return v.trim() === '' ? undefined : v.trim();
      };
      const raw = str(b.url, 'url');
      if (!raw) throw bad('url is required: the MCP endpoint to authorize against');
      let serverUrl;
      try {
        serverUrl = new URL(raw);
      } catch {
        throw bad(`url ${JSON.stringify(raw)} is not an absolute URL`);
      }
      if (serverUrl.protocol !== 'http:' && serverUrl.protocol !== 'https:') throw bad('url must be http(s)');
      serverUrl.hash = '';
      const dpop = b.dpop === true || b.dpop === 'on' ? 'on' : b.dpop === false || b.dpop === 'off' ? 'off' : 'auto';
      const scope = str(b.scope, 'scope');
      const clientId = str(b.clientId, 'clientId');
      const clientSecret = str(b.clientSecret, 'clientSecret');
      prune();
      /** @type {Run} */
      const run = {
        id: randomUUID(),
        createdAt: Date.now(),
        serverUrl,
        localStack: classifyHost(serverUrl.hostname) === 'loopback',
        redirectUri,
        ...(scope === undefined ? {} : { scopeOption: scope }),
        ...(clientId === undefined ? {} : { clientIdOption: clientId }),
        ...(clientSecret === undefined ? {} : { clientSecretOption: clientSecret }),
        dpopOption: dpop,
        next: 0,
        done: false,
        queue: Promise.resolve(),
        secrets: new Set(clientSecret === undefined ? [] : [clientSecret]),
      };
      runs.set(run.id, run);
      return run.id;
    },

    async continue(runId) {
      const run = runs.get(runId);
      if (!run)
        throw Object.assign(new Error(`no OAuth debugger run "${runId}"`), { status: 404, code: 'unknown_run' });
      await enqueue(run, () => runStep(run));
    },

    callback(req, res) {
      const page = (/** @type {number} */ status, /** @type {string} */ text) => {
        const esc = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
        res.writeHead(status, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        });
        res.end(
          `<!doctype html><meta charset="utf-8"><title>mcpc playground — OAuth</title><body style="font:16px system-ui;margin:3em"><p>${esc}</p></body>`,
        );
      };
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const params = url.searchParams;
      const state = params.get('state');
      const run = state ? [...runs.values()].find((r) => r.state !== undefined && r.state === state) : undefined;
      if (!run)
        return page(400, 'This authorization response belongs to no OAuth debugger run (unknown or missing state).');
      if (run.callback || run.next !== ISS_CHECK || run.done)
        return page(400, 'This run has already received its authorization response.');
      /** @type {Set<string>} */
      const seen = new Set();
      /** @type {Set<string>} */
      const repeated = new Set();
      for (const [k] of params) (seen.has(k) ? repeated : seen).add(k);
      run.callback = { params, raw: `${url.pathname}${url.search}`, repeated: [...repeated] };
      page(200, 'Authorization response received — you can close this tab and return to the playground.');
      if (run.onCallback) run.onCallback(run.callback);
      else
        void enqueue(run, async () => {
          if (run.next === ISS_CHECK && !run.done) await runStep(run);
        });
    },
  };
}
