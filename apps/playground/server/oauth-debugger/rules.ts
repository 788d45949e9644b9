// The OAuth debugger's steps in order, with their titles and the spec rule each one shows.

/** The flow, in order (`index` = position + 1); `iss-check` runs when the redirect reaches `GET /oauth/callback`. */
export const STEPS = [
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
] as const;

/** A step's name, as the page receives it in `OAuthStep.name`. */
export type StepName = (typeof STEPS)[number][0];
/** Position of 'iss-check': the step the redirect resumes. */
export const ISS_CHECK = 6;

const SPEC = 'MCP 2026-07-28 Authorization';
/** The rule each step checks, quoted from the spec it follows. */
export const RULES: Readonly<Record<StepName, string>> = {
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
