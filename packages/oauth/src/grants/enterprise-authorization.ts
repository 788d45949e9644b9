// Enterprise-Managed Authorization: an ID-JAG from the enterprise IdP (RFC 8693) as the jwt-bearer assertion.
import * as oauth from 'oauth4webapi';
import { chooseAuthMethod, clientAuthentication, type ClientSecrets } from './client-auth.js';
import { InvalidResponseError, OAuthConfigError } from '../errors.js';
import { customFetchFor, insecureAllowed, type FetchFunction, type HttpSettings } from '../http.js';
import {
  discoverAuthorizationServer,
  endpoint,
  type AuthorizationServerMetadata,
} from '../discovery/server-metadata.js';
import { mapError, type AssertionContext, type JwtBearerAssertion } from './token-request.js';
import { isLocalStack } from '../discovery/url-policy.js';

/** RFC 8693 token exchange. */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** An Identity Assertion JWT Authorization Grant: what the IdP issues and the MCP server's authorization server takes. */
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/** The enterprise identity provider: its issuer, and how this client authenticates to it. */
export interface EnterpriseIdentityProvider extends ClientSecrets {
  readonly issuer: string;
  /** Its token endpoint; discovered from `issuer` (RFC 8414, then OpenID) when left out. */
  readonly tokenEndpoint?: string;
}

export interface EnterpriseManagedAuthorizationOptions {
  readonly idp: EnterpriseIdentityProvider;
  /**
   * The user's ID token from that IdP — what single sign-on gave the host. A function is called for
   * every exchange, so it can return a fresh one. It is a secret: never logged.
   */
  readonly idToken: string | ((signal?: AbortSignal) => string | Promise<string>);
  /** The fetch requests to the IdP go through (default: the global one). */
  readonly fetch?: FetchFunction;
  /** Milliseconds for one request to the IdP (30 000). */
  readonly requestTimeoutMs?: number;
}

/**
 * Enterprise-Managed Authorization (the MCP extension `io.modelcontextprotocol/enterprise-managed-authorization`,
 * SEP-990): the user's ID token is exchanged at the enterprise IdP (RFC 8693) for an ID-JAG naming the
 * MCP server's authorization server (`audience`) and the MCP server (`resource`), which that server then
 * takes as a JWT bearer grant. Pass the result as the provider's `assertion`, with `grantType: 'jwt-bearer'`
 * and the client's credentials at the authorization server as `clientInfo`.
 *
 * The IdP's URLs are held to the same rules as an authorization server's: HTTPS, no literal private or
 * loopback addresses, except a loopback IdP for a local stack.
 */
export function enterpriseManagedAuthorization(options: EnterpriseManagedAuthorizationOptions): JwtBearerAssertion {
  const { idp } = options;
  if (typeof idp?.issuer !== 'string' || idp.issuer === '')
    throw new OAuthConfigError('enterpriseManagedAuthorization needs the IdP issuer (idp.issuer)');
  if (typeof idp.clientId !== 'string' || idp.clientId === '')
    throw new OAuthConfigError('enterpriseManagedAuthorization needs the client id at the IdP (idp.clientId)');
  if (typeof options.idToken !== 'string' && typeof options.idToken !== 'function')
    throw new OAuthConfigError('enterpriseManagedAuthorization needs the ID token (idToken)');
  let discovered: Promise<AuthorizationServerMetadata> | undefined;

  const metadata = (settings: HttpSettings, signal: AbortSignal | undefined): Promise<AuthorizationServerMetadata> => {
    if (idp.tokenEndpoint !== undefined)
      return Promise.resolve({ issuer: idp.issuer, token_endpoint: idp.tokenEndpoint });
    discovered ??= discoverAuthorizationServer(settings, idp.issuer, signal).catch((error: unknown) => {
      discovered = undefined; // a failed discovery is tried again next time
      throw error;
    });
    return discovered;
  };

  return async (context: AssertionContext): Promise<string> => {
    const settings: HttpSettings = {
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      policy: { localStack: isLocalStack(context.serverUrl) },
      trustedOrigin: context.serverUrl.origin,
      timeoutMs: options.requestTimeoutMs ?? 30_000,
      maxBodyBytes: 1024 * 1024,
    };
    const as = await metadata(settings, context.signal);
    const token = endpoint(settings, as, 'token_endpoint');
    const method = chooseAuthMethod(as, idp);
    const client: oauth.Client = { client_id: idp.clientId, token_endpoint_auth_method: method };
    const subjectToken = typeof options.idToken === 'string' ? options.idToken : await options.idToken(context.signal);
    if (typeof subjectToken !== 'string' || subjectToken === '')
      throw new OAuthConfigError('the idToken source returned no token');
    const parameters: Record<string, string> = {
      requested_token_type: ID_JAG_TOKEN_TYPE,
      audience: context.issuer,
      resource: context.resource,
      subject_token: subjectToken,
      subject_token_type: ID_TOKEN_TYPE,
      ...(context.scope === undefined ? {} : { scope: context.scope }),
    };
    let body: oauth.TokenEndpointResponse;
    try {
      const response = await oauth.genericTokenEndpointRequest(
        as,
        client,
        await clientAuthentication(method, idp),
        TOKEN_EXCHANGE_GRANT,
        parameters,
        {
          [oauth.customFetch]: customFetchFor(settings, 'token exchange', context.signal),
          [oauth.allowInsecureRequests]: insecureAllowed(settings, token.href),
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        },
      );
      // RFC 8693 §2.2.1: an issued token that is not an access token comes with token_type N_A.
      body = await oauth.processGenericTokenEndpointResponse(as, client, response, {
        recognizedTokenTypes: { n_a: () => {} },
      });
    } catch (cause) {
      throw mapError('token-exchange', as, cause);
    }
    if (body.issued_token_type !== ID_JAG_TOKEN_TYPE) {
      throw new InvalidResponseError(
        `the IdP ${as.issuer} issued ${typeof body.issued_token_type === 'string' ? JSON.stringify(body.issued_token_type.slice(0, 80)) : 'no issued_token_type'}, not an ID-JAG`,
      );
    }
    return body.access_token;
  };
}
