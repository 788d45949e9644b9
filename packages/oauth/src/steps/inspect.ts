// Reading what a flow produced, for display: a JWT's header and claims, and where DPoP is offered.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { Discovered } from '../discovery/binding.js';

/** The header and claims of a compact JWS (an access token, a DPoP proof), or undefined when it is not one. The signature is not checked. */
export function describeJwt(
  jwt: string,
):
  | { readonly header: Readonly<Record<string, unknown>>; readonly payload: Readonly<Record<string, unknown>> }
  | undefined {
  try {
    return { header: decodeProtectedHeader(jwt), payload: decodeJwt(jwt) };
  } catch {
    return undefined;
  }
}

/** Where DPoP (RFC 9449) is offered, as discovery found it. */
export interface DPoPSupport {
  /** The proof algorithms the authorization server lists (`dpop_signing_alg_values_supported`). */
  readonly authorizationServer: readonly string[];
  /** The resource advertises DPoP (RFC 9728 `dpop_signing_alg_values_supported` or `dpop_bound_access_tokens_required`). */
  readonly resource: boolean;
  /** The resource requires DPoP-bound tokens. */
  readonly required: boolean;
  /** Both sides offer it, with ES256 (the algorithm of a generated key). */
  readonly offered: boolean;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** What the resource's and the authorization server's metadata say about DPoP. */
export function dpopSupport(d: Discovered): DPoPSupport {
  const authorizationServer = strings(d.as.dpop_signing_alg_values_supported);
  const doc = d.prm.document ?? {};
  const required = doc.dpop_bound_access_tokens_required === true;
  const resource = required || Array.isArray(doc.dpop_signing_alg_values_supported);
  return { authorizationServer, resource, required, offered: resource && authorizationServer.includes('ES256') };
}
