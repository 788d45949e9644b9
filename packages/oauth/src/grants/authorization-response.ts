// The redirect back: its parameters, the RFC 9207 issuer check, and the callback validation.
import * as oauth from 'oauth4webapi';
import { escapeForLog } from '@mcpc/jsonrpc';
import { AuthorizationDeniedError, AuthorizationResponseError, IssuerMismatchError } from '../errors.js';
import type { AuthorizationServerMetadata } from '../discovery/server-metadata.js';

/**
 * The parameters of a redirect back from the authorization server: a callback URL (its query), a bare
 * query string, or parsed parameters. A parameter that appears more than once is refused (RFC 6749
 * §3.1: "MUST NOT be included more than once") rather than read as its first or last value.
 */
export function callbackParameters(input: string | URL | URLSearchParams): URLSearchParams {
  let params: URLSearchParams;
  if (input instanceof URLSearchParams) params = input;
  else if (input instanceof URL) params = input.searchParams;
  else if (/^[a-z][a-z0-9+.-]*:/i.test(input)) params = new URL(input).searchParams;
  else params = new URLSearchParams(input.startsWith('?') ? input.slice(1) : input);
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) {
      throw new AuthorizationResponseError(
        'repeated-parameter',
        `the authorization response repeats the parameter ${JSON.stringify(escapeForLog(name, 40))}; refused`,
      );
    }
    seen.add(name);
  }
  return params;
}

/**
 * RFC 9207 as MCP applies it: a present `iss` must equal the recorded issuer, by plain string
 * comparison (no case folding, port elision, trailing slash or percent-decoding normalization); an
 * absent one is refused when the server advertises `authorization_response_iss_parameter_supported`.
 * Runs before `error` is looked at: a response from the wrong issuer is neither acted on nor shown.
 */
export function checkResponseIssuer(
  params: URLSearchParams,
  recordedIssuer: string,
  as: AuthorizationServerMetadata,
): void {
  const iss = params.get('iss');
  if (iss !== null) {
    if (iss !== recordedIssuer)
      throw new IssuerMismatchError(
        'authorization-response',
        recordedIssuer,
        `names the issuer ${JSON.stringify(escapeForLog(iss))}`,
      );
    return;
  }
  if (as.authorization_response_iss_parameter_supported === true) {
    throw new IssuerMismatchError(
      'authorization-response',
      recordedIssuer,
      'has no iss, and the authorization server advertises authorization_response_iss_parameter_supported',
    );
  }
}

/**
 * After the issuer check: an `error` response becomes {@link AuthorizationDeniedError}; a success must
 * carry a code, and oauth4webapi validates it (state, no implicit/hybrid parameters, JARM refused).
 */
export function validateCallback(
  params: URLSearchParams,
  as: AuthorizationServerMetadata,
  clientId: string,
  state: string,
): URLSearchParams {
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw new AuthorizationDeniedError(
      escapeForLog(error, 100),
      description === null ? undefined : escapeForLog(description),
    );
  }
  if (params.get('code') === null)
    throw new AuthorizationResponseError('missing-code', 'the authorization response carries no code');
  try {
    return oauth.validateAuthResponse(as, { client_id: clientId }, params, state);
  } catch (cause) {
    throw new AuthorizationResponseError(
      'invalid',
      `the authorization response is not valid: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}
