// How the conformance client authorizes in the auth/* scenarios: an @mcpc/oauth provider configured as a host would.
//
// It is configured from what the scenario's context hands out (client credentials, keys, tokens). Every protocol step —
// discovery, registration, PKCE, issuer checks, token requests, DPoP, step-up — is the library's; this file only
// chooses options.
import { OAuthProvider, enterpriseManagedAuthorization, headlessInteraction } from '@mcpc/oauth';

/** The client id the suite expects where its authorization server supports Client ID Metadata Documents. */
export const CLIENT_ID_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Never listened on: the suite's authorization server approves at once, and the redirect is read from `Location`. */
export const REDIRECT_URI = 'http://localhost:3000/callback';

/**
 * The suite hands out machine-to-machine credentials without naming the authorization server they are
 * for, and @mcpc/oauth sends credentials only to the issuer they name. So the harness asks the resource
 * which server it uses first — a real host configures the issuer its credentials came from.
 */
async function issuerOf(serverUrl, logger) {
  const { issuer } = await new OAuthProvider({ serverUrl, logger }).discover();
  return issuer;
}

/**
 * The `auth` for one scenario, or `undefined` outside auth/*. DPoP is on throughout (a host that opts
 * in): servers that do not bind tokens issue Bearer ones, which are used as such.
 */
export async function authFor(scenario, serverUrl, context, logger) {
  if (!scenario.startsWith('auth/')) return undefined;
  const common = { serverUrl, logger, dpop: true };
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return new OAuthProvider({
        ...common,
        grantType: 'client_credentials',
        clientInfo: {
          issuer: await issuerOf(serverUrl, logger),
          clientId: context.client_id,
          clientSecret: context.client_secret,
        },
      });
    case 'auth/client-credentials-jwt':
      return new OAuthProvider({
        ...common,
        grantType: 'client_credentials',
        clientInfo: {
          issuer: await issuerOf(serverUrl, logger),
          clientId: context.client_id,
          privateKey: context.private_key_pem,
          privateKeyAlg: context.signing_algorithm,
        },
      });
    case 'auth/wif-jwt-bearer':
      // Workload identity federation: the platform's JWT is the grant; the workload is a public client.
      return new OAuthProvider({
        ...common,
        grantType: 'jwt-bearer',
        assertion: context.valid_jwt,
        clientInfo: { issuer: await issuerOf(serverUrl, logger), clientId: context.client_id },
      });
    case 'auth/enterprise-managed-authorization':
      // The user's ID token from the enterprise IdP (single sign-on) is exchanged there for an ID-JAG,
      // which the MCP server's authorization server takes as a JWT bearer grant.
      return new OAuthProvider({
        ...common,
        grantType: 'jwt-bearer',
        assertion: enterpriseManagedAuthorization({
          idp: {
            issuer: context.idp_issuer,
            tokenEndpoint: context.idp_token_endpoint,
            clientId: context.idp_client_id,
          },
          idToken: context.idp_id_token,
        }),
        clientInfo: {
          issuer: await issuerOf(serverUrl, logger),
          clientId: context.client_id,
          clientSecret: context.client_secret,
        },
      });
    default:
      return new OAuthProvider({
        ...common,
        redirectUri: REDIRECT_URI,
        clientIdMetadataUrl: CLIENT_ID_METADATA_URL,
        interaction: headlessInteraction(),
        stepUp: 'reauthorize',
        // auth/pre-registration: credentials issued out of band, naming their authorization server.
        ...(typeof context.client_id === 'string' && typeof context.issuer === 'string'
          ? { clientInfo: { issuer: context.issuer, clientId: context.client_id, clientSecret: context.client_secret } }
          : {}),
      });
  }
}
