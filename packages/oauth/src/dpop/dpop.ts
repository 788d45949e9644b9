// DPoP (RFC 9449): the key pair, its thumbprint, the proofs of requests to the MCP server, and nonces per origin.
import * as oauth from 'oauth4webapi';

type CryptoKey = oauth.CryptoKey;
type CryptoKeyPair = oauth.CryptoKeyPair;
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Challenge } from '../discovery/www-authenticate.js';
import { OAuthConfigError } from '../errors.js';

/** The JWS algorithms a DPoP key may use here. */
export type DPoPAlgorithm = 'ES256' | 'ES384' | 'EdDSA' | 'Ed25519' | 'PS256' | 'RS256';

export interface DPoPOptions {
  /**
   * The key pair proofs are signed with; its public key must be extractable. Default: an ES256 pair
   * generated for this provider, kept in memory only — so a DPoP-bound token stored on disk is usable
   * only by the process that got it, unless you pass (and keep) a pair of your own.
   */
  readonly keyPair?: CryptoKeyPair;
  /** The algorithm for a generated pair (ES256). */
  readonly alg?: DPoPAlgorithm;
}

const NONCE_ORIGINS = 64;

function algorithmOf(key: CryptoKey): DPoPAlgorithm {
  const a = key.algorithm as { name: string; namedCurve?: string; hash?: { name: string } };
  switch (a.name) {
    case 'ECDSA':
      if (a.namedCurve === 'P-256') return 'ES256';
      if (a.namedCurve === 'P-384') return 'ES384';
      break;
    case 'Ed25519':
      return 'Ed25519';
    case 'RSA-PSS':
      if (a.hash?.name === 'SHA-256') return 'PS256';
      break;
    case 'RSASSA-PKCS1-v1_5':
      if (a.hash?.name === 'SHA-256') return 'RS256';
      break;
  }
  throw new OAuthConfigError(
    `a DPoP key of type ${a.name} is not supported (use ES256, ES384, Ed25519, PS256 or RS256)`,
  );
}

/** base64url(SHA-256(token)): a proof's `ath` (RFC 9449 §4.2), with the Web Crypto every runtime has. */
export async function accessTokenHash(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * A DPoP key (RFC 9449) and the nonces servers handed out. Token requests use oauth4webapi's handle,
 * which signs the token-endpoint proofs and keeps that server's nonce; proofs for MCP requests are made
 * here with jose, since the transport asks only for headers: `htm` and `htu` from the request, `ath`
 * from the token, and the resource server's latest `DPoP-Nonce`.
 */
export class DPoPKey {
  readonly alg: DPoPAlgorithm;
  /** The JWK thumbprint (SHA-256) of the public key: what a bound token's `cnf.jkt` names. */
  readonly jkt: string;
  /** For oauth4webapi's token requests. */
  readonly handle: oauth.DPoPHandle;
  readonly #privateKey: CryptoKey;
  readonly #publicJwk: JWK;
  readonly #nonces = new Map<string, string>();

  private constructor(keyPair: CryptoKeyPair, alg: DPoPAlgorithm, publicJwk: JWK, jkt: string) {
    this.alg = alg;
    this.#privateKey = keyPair.privateKey;
    this.#publicJwk = publicJwk;
    this.jkt = jkt;
    this.handle = oauth.DPoP({}, keyPair);
  }

  static async create(options: DPoPOptions = {}): Promise<DPoPKey> {
    const keyPair = options.keyPair ?? (await generateKeyPair(options.alg ?? 'ES256', { extractable: false }));
    if (!keyPair.publicKey.extractable) throw new OAuthConfigError('the DPoP public key must be extractable');
    const alg = algorithmOf(keyPair.privateKey);
    const full = await exportJWK(keyPair.publicKey);
    // Only the public members go into a proof's header.
    const publicJwk: JWK = Object.fromEntries(
      Object.entries(full).filter(([k]) => ['kty', 'crv', 'x', 'y', 'n', 'e'].includes(k)),
    );
    const jkt = await calculateJwkThumbprint(publicJwk, 'sha256');
    return new DPoPKey(keyPair, alg, publicJwk, jkt);
  }

  /** Remember the `DPoP-Nonce` a resource server sent (per origin, a bounded number of origins). */
  noteNonce(url: URL, nonce: string): void {
    if (nonce.length === 0 || nonce.length > 512 || !/^[\x21-\x7e]+$/.test(nonce)) return;
    this.#nonces.delete(url.origin);
    if (this.#nonces.size >= NONCE_ORIGINS) {
      const oldest = this.#nonces.keys().next().value;
      if (oldest !== undefined) this.#nonces.delete(oldest);
    }
    this.#nonces.set(url.origin, nonce);
  }

  /** A proof for one request to the resource server, bound to the access token it carries. */
  async proof(method: string, url: URL, accessToken: string): Promise<string> {
    const nonce = this.#nonces.get(url.origin);
    return new SignJWT({
      htm: method,
      htu: `${url.origin}${url.pathname}`,
      ath: await accessTokenHash(accessToken),
      jti: crypto.randomUUID(),
      ...(nonce === undefined ? {} : { nonce }),
    })
      .setProtectedHeader({ alg: this.alg, typ: 'dpop+jwt', jwk: this.#publicJwk })
      .setIssuedAt()
      .sign(this.#privateKey);
  }
}

/** A resource server's 401 that asks for a proof with its nonce (RFC 9449 §9): answered with one retry. */
export function asksForNonce(challenges: readonly Challenge[]): boolean {
  return challenges.find((c) => c.scheme === 'dpop')?.params.error === 'use_dpop_nonce';
}
