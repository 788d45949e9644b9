// Token endpoint client authentication: choosing the method, and the secrets or key each one needs.
import * as oauth from 'oauth4webapi';
import { importJWK, importPKCS8, type JWK } from 'jose';
import { ClientRegistrationError, OAuthConfigError } from '../errors.js';

type CryptoKey = oauth.CryptoKey;
import type { AuthorizationServerMetadata } from '../discovery/server-metadata.js';

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** A private key for `private_key_jwt`: a WebCrypto key, a private JWK, or a PKCS#8 PEM. */
export type ClientPrivateKey = CryptoKey | JWK | string;

/** What a client authenticates to the token endpoint with. */
export interface ClientSecrets {
  readonly clientId: string;
  readonly clientSecret?: string | undefined;
  readonly privateKey?: ClientPrivateKey | undefined;
  /** The JWS algorithm for a JWK or PEM `privateKey` that names none (default: the JWK's `alg`, else RS256). */
  readonly privateKeyAlg?: string | undefined;
  /** The `kid` header of the client assertion. */
  readonly keyId?: string | undefined;
  /** Use this method; default: chosen from what the server supports and what the client holds. */
  readonly tokenEndpointAuthMethod?: string | undefined;
}

const KNOWN = new Set<string>(['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt']);

/**
 * The token endpoint authentication method: the client's own when it names one (and the server lists
 * it, when the server lists any), else the best the server supports for what the client holds —
 * `private_key_jwt` for a key, `client_secret_basic` (RFC 8414's default) or `client_secret_post` for a
 * secret, `none` for a public client.
 */
export function chooseAuthMethod(as: AuthorizationServerMetadata, client: ClientSecrets): TokenEndpointAuthMethod {
  const listed = Array.isArray(as.token_endpoint_auth_methods_supported)
    ? as.token_endpoint_auth_methods_supported
    : undefined;
  const supported = listed ?? ['client_secret_basic'];
  const own = client.tokenEndpointAuthMethod;
  if (own !== undefined) {
    if (!KNOWN.has(own))
      throw new ClientRegistrationError(
        `the token endpoint auth method ${JSON.stringify(own)} is not supported by this client`,
      );
    if (listed !== undefined && own !== 'none' && !listed.includes(own)) {
      throw new ClientRegistrationError(
        `the authorization server ${as.issuer} does not support ${own} (it lists ${listed.join(', ')})`,
      );
    }
    return own as TokenEndpointAuthMethod;
  }
  if (client.privateKey !== undefined) {
    if (supported.includes('private_key_jwt')) return 'private_key_jwt';
    throw new ClientRegistrationError(`the authorization server ${as.issuer} does not support private_key_jwt`);
  }
  if (client.clientSecret !== undefined) {
    if (supported.includes('client_secret_basic')) return 'client_secret_basic';
    if (supported.includes('client_secret_post')) return 'client_secret_post';
    throw new ClientRegistrationError(
      `the authorization server ${as.issuer} supports neither client_secret_basic nor client_secret_post`,
    );
  }
  return 'none';
}

async function importPrivateKey(key: ClientPrivateKey, alg: string | undefined): Promise<CryptoKey> {
  if (typeof key === 'string') return importPKCS8(key, alg ?? 'RS256');
  if (typeof (key as CryptoKey).type === 'string' && typeof (key as CryptoKey).algorithm === 'object')
    return key as CryptoKey;
  const jwk = key as JWK;
  const imported = await importJWK(jwk, jwk.alg ?? alg ?? 'RS256');
  if (imported instanceof Uint8Array) throw new OAuthConfigError('privateKey must be an asymmetric private key');
  return imported;
}

/** `application/x-www-form-urlencoded` for one value (RFC 6749 Appendix B): `-`, `.`, `_`, `*` and alphanumerics as they are. */
const formEncode = (value: string): string => new URLSearchParams([['', value]]).toString().slice(1);

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): the id and secret form-encoded, then Basic. oauth4webapi's
 * own also escapes `-`, `.`, `_` and `~`, which the form encoding leaves alone — and authorization
 * servers that compare the decoded Basic credentials without form-decoding them (common) then refuse a
 * client id like `my-client`. Encoding as the form serializer does sends such ids unchanged, and is
 * what a decoding server expects too.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    // Form-encoded text is ASCII, so btoa takes it as is.
    headers.set('authorization', `Basic ${btoa(`${formEncode(client.client_id)}:${formEncode(secret)}`)}`);
  };
}

/** oauth4webapi's client authentication for the chosen method. */
export async function clientAuthentication(
  method: TokenEndpointAuthMethod,
  client: ClientSecrets,
): Promise<oauth.ClientAuth> {
  switch (method) {
    case 'none':
      return oauth.None();
    case 'client_secret_basic':
    case 'client_secret_post':
      if (client.clientSecret === undefined)
        throw new ClientRegistrationError(`${method} needs a client secret, and the client has none`);
      return method === 'client_secret_basic'
        ? clientSecretBasic(client.clientSecret)
        : oauth.ClientSecretPost(client.clientSecret);
    case 'private_key_jwt': {
      if (client.privateKey === undefined)
        throw new ClientRegistrationError('private_key_jwt needs a private key, and the client has none');
      const key = await importPrivateKey(client.privateKey, client.privateKeyAlg);
      return oauth.PrivateKeyJwt(client.keyId === undefined ? key : { key, kid: client.keyId });
    }
  }
}
