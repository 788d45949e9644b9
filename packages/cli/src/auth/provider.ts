// The OAuth provider for a URL: the profile's stored login, or machine credentials from the environment.
//
// A stored login is used non-interactively: refresh only.
import type { AuthProvider } from '@mcpc/client';
import {
  AuthorizationRequiredError,
  InsufficientScopeError,
  OAuthError,
  OAuthProvider,
  type ClientInfo,
  type OAuthStorage,
} from '@mcpc/oauth';
import type { CliContext } from '../context.js';
import { cliLogger } from '../log.js';
import { safe } from '../output.js';
import { proxiedFetch } from './fetch.js';
import { envCredentials, loadPrivateKey, type MachineCredentials } from './keys.js';
import { profileName } from './paths.js';
import { aliasedStorage, canonicalUrl, Profile } from './profiles.js';

/** The redirect URI `mcpc login` registers: loopback, the port chosen when the listener starts. */
export const REDIRECT_URI = 'http://127.0.0.1/callback';

/** The issuer of the authorization server `url` uses now (RFC 9728, then RFC 8414 / OpenID). */
export async function discoverIssuer(ctx: CliContext, url: string, storage?: OAuthStorage): Promise<string> {
  const probe = new OAuthProvider({
    serverUrl: url,
    logger: cliLogger(ctx),
    ...(storage && { storage }),
    ...proxiedFetch(ctx),
  });
  return (await probe.discover({ signal: ctx.signal })).issuer;
}

/** A client_credentials provider with these credentials at `issuer`. */
export async function machineProvider(
  ctx: CliContext,
  url: string,
  issuer: string,
  credentials: MachineCredentials,
  storage: OAuthStorage,
  scope?: string,
): Promise<OAuthProvider> {
  const key =
    credentials.privateKeyFile === undefined ? undefined : await loadPrivateKey(credentials.privateKeyFile, ctx.env);
  const clientInfo: ClientInfo = {
    issuer,
    clientId: credentials.clientId,
    ...(credentials.clientSecret !== undefined && { clientSecret: credentials.clientSecret }),
    ...(key !== undefined && key),
  };
  return new OAuthProvider({
    serverUrl: url,
    grantType: 'client_credentials',
    clientInfo,
    storage,
    logger: cliLogger(ctx),
    ...(scope !== undefined && { scope }),
    ...proxiedFetch(ctx),
  });
}

/**
 * The provider as a request's auth hook that never asks a person: stored tokens and refresh only. When
 * a new authorization would be needed, the request fails with the transport's 401 (exit 4, whose hint
 * is `mcpc login <url>`).
 */
export function nonInteractive(ctx: CliContext, provider: OAuthProvider): AuthProvider {
  return {
    headers: (context) => provider.headers(context),
    responded: (response) => provider.responded(response),
    challenge: async (challenge) => {
      try {
        return await provider.challenge(challenge);
      } catch (error) {
        if (error instanceof InsufficientScopeError || !(error instanceof OAuthError)) throw error;
        if (error instanceof AuthorizationRequiredError) ctx.out.info(`oauth: ${safe(error.message, 500)}`);
        else ctx.out.warn(`oauth: ${safe(error.message, 500)}`);
        return 'fail';
      }
    },
  };
}

/** The auth hook for `url`, or undefined when there is no login for it and no machine credentials. */
export async function authFor(ctx: CliContext, url: string): Promise<AuthProvider | undefined> {
  const profile = new Profile(ctx.env, profileName(ctx));
  const login = await profile.find(url);
  const machine = envCredentials(ctx.env);
  if (login === undefined && machine === undefined) return undefined;
  const key = canonicalUrl(url);
  const storage = login === undefined ? profile.storage : aliasedStorage(profile.storage, key, login.url);
  if (machine !== undefined) {
    const issuer = login?.issuer ?? (await discoverIssuer(ctx, url, storage));
    return nonInteractive(ctx, await machineProvider(ctx, url, issuer, machine, storage));
  }
  if (login!.grant === 'client_credentials' && login!.issuer !== undefined && login!.clientId !== undefined) {
    // The secret (if any) is in the profile's storage, written by `mcpc login`; a key is read from its file.
    const credentials: MachineCredentials = {
      clientId: login!.clientId,
      ...(login!.privateKeyFile !== undefined && { privateKeyFile: login!.privateKeyFile }),
    };
    return nonInteractive(ctx, await machineProvider(ctx, url, login!.issuer, credentials, storage, login!.scope));
  }
  const provider = new OAuthProvider({
    serverUrl: url,
    redirectUri: REDIRECT_URI,
    storage,
    logger: cliLogger(ctx),
    ...(login!.scope !== undefined && { scope: login!.scope }),
    ...proxiedFetch(ctx),
  });
  return nonInteractive(ctx, provider);
}
