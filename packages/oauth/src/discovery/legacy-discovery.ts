// MCP 2025-03-26 servers without resource metadata: the origin as authorization server, and its default endpoints.
import type { ProtectedResourceMetadata } from './resource-metadata.js';
import type { AuthorizationServerMetadata } from './server-metadata.js';

/**
 * MCP 2025-03-26 had no protected resource metadata: the MCP server's origin (its URL with the path
 * discarded) is its authorization server, whose RFC 8414 metadata is at that origin — and when there is
 * none, the default endpoints `/authorize`, `/token` and `/register` are. Used only when every RFC 9728
 * well-known URL answered 404 and no challenge named a `resource_metadata`; every URL it yields is on the
 * origin the host configured, so nothing goes anywhere the host did not point at.
 */
export function legacyResource(serverUrl: URL, resource: string): ProtectedResourceMetadata {
  return { resource, authorizationServers: [serverUrl.origin], scopesSupported: undefined, url: '' };
}

/**
 * The metadata of a 2025-03-26 authorization server that publishes none: its default endpoints. PKCE
 * S256 is assumed, as 2025-03-26 required PKCE of every client and OAuth 2.1 makes S256 mandatory for
 * servers; the issuer is the origin itself.
 */
export function defaultEndpoints(origin: string): AuthorizationServerMetadata {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  };
}
