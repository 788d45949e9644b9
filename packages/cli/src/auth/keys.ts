// Client credentials for the machine grants, from flags or the environment, and private_key_jwt key files.
//
// The environment's are MCPC_CLIENT_ID / MCPC_CLIENT_SECRET / MCPC_PRIVATE_KEY_FILE; a key file is PEM or JWK.
import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ExitCode } from '../exit-codes.js';
import { CliError, UsageError } from '../errors.js';

/** Credentials for client_credentials: an id with a secret or a key file. */
export interface MachineCredentials {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly privateKeyFile?: string;
}

/** The machine credentials in the environment, when they are complete (an id with a secret or a key file). */
export function envCredentials(env: NodeJS.ProcessEnv): MachineCredentials | undefined {
  const clientId = env.MCPC_CLIENT_ID;
  if (!clientId) return undefined;
  if (env.MCPC_PRIVATE_KEY_FILE) return { clientId, privateKeyFile: env.MCPC_PRIVATE_KEY_FILE };
  if (env.MCPC_CLIENT_SECRET) return { clientId, clientSecret: env.MCPC_CLIENT_SECRET };
  return undefined;
}

/** A private key for private_key_jwt: PKCS#8 PEM, with the JWS algorithm its type implies and its key id. */
export interface LoadedKey {
  readonly privateKey: string;
  readonly privateKeyAlg: string;
  readonly keyId?: string;
}

const CURVES: Record<string, string> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** Reads a key file: a PEM private key (PKCS#8, PKCS#1 or SEC1) or a private JWK (its `alg` and `kid` are used). */
export async function loadPrivateKey(file: string, env: NodeJS.ProcessEnv = {}): Promise<LoadedKey> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the private key file ${file}: ${(error as Error).message}`);
  }
  let jwk: (JsonWebKey & { alg?: string; kid?: string }) | undefined;
  if (text.trimStart().startsWith('{')) {
    try {
      jwk = JSON.parse(text) as JsonWebKey & { alg?: string; kid?: string };
    } catch {
      throw new UsageError(`${file} is neither a PEM private key nor a JSON Web Key`);
    }
  }
  let key;
  try {
    key = jwk === undefined ? createPrivateKey(text) : createPrivateKey({ key: jwk, format: 'jwk' });
  } catch (error) {
    throw new CliError(`${file} holds no usable private key (${(error as Error).message})`, ExitCode.Usage);
  }
  const type = key.asymmetricKeyType;
  const implied =
    type === 'ec'
      ? CURVES[key.asymmetricKeyDetails?.namedCurve ?? '']
      : type === 'rsa'
        ? 'RS256'
        : type === 'rsa-pss'
          ? 'PS256'
          : type === 'ed25519'
            ? 'EdDSA'
            : undefined;
  const alg = jwk?.alg ?? env.MCPC_PRIVATE_KEY_ALG ?? implied;
  if (alg === undefined) throw new UsageError(`${file}: a ${type ?? 'unknown'} key has no JWS algorithm mcpc knows`);
  const keyId = jwk?.kid ?? env.MCPC_KEY_ID;
  return {
    privateKey: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
    privateKeyAlg: alg,
    ...(keyId ? { keyId } : {}),
  };
}
