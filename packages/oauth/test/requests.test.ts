// What the provider sends: well-known URLs, resource identifiers, the authorization URL.
import { describe, expect, it } from 'vitest';
import { authorizationServerMetadataUrls, wellKnownResourceMetadataUrls } from '../src/index.js';
import { buildAuthorizationUrl } from '../src/grants/authorization-request.js';
import { callbackParameters } from '../src/grants/authorization-response.js';
import { resourceMatches } from '../src/discovery/resource-metadata.js';
import { scopeUnion } from '../src/scopes.js';

describe('well-known URLs', () => {
  it('protected resource metadata: path-aware, then root', () => {
    expect(wellKnownResourceMetadataUrls(new URL('https://example.com/public/mcp'))).toEqual([
      'https://example.com/.well-known/oauth-protected-resource/public/mcp',
      'https://example.com/.well-known/oauth-protected-resource',
    ]);
    expect(wellKnownResourceMetadataUrls(new URL('https://example.com/'))).toEqual([
      'https://example.com/.well-known/oauth-protected-resource',
    ]);
  });
  it('authorization server metadata in the MCP order', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com/tenant1')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(authorizationServerMetadataUrls('https://auth.example.com')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
    expect(authorizationServerMetadataUrls('https://auth.example.com/tenant1/')[0]).toBe(
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
    );
  });
});

describe('resource identifiers', () => {
  it('match the server URL or a prefix of it on a segment boundary, on the same origin', () => {
    const server = new URL('https://mcp.example.com/v1/mcp');
    expect(resourceMatches('https://mcp.example.com/v1/mcp', server)).toBe(true);
    expect(resourceMatches('https://mcp.example.com', server)).toBe(true);
    expect(resourceMatches('https://MCP.example.com/v1', server)).toBe(true);
    expect(resourceMatches('https://mcp.example.com/v', server)).toBe(false);
    expect(resourceMatches('https://other.example.com/v1/mcp', server)).toBe(false);
    expect(resourceMatches('http://mcp.example.com/v1/mcp', server)).toBe(false);
  });
});

describe('authorization URL', () => {
  const request = {
    clientId: 'c',
    redirectUri: 'http://127.0.0.1/cb',
    scope: 'mcp files:read',
    state: 's',
    codeChallenge: 'cc',
    resource: 'https://mcp.example.com',
  };
  it('keeps the endpoint query and sends each parameter once', () => {
    const url = buildAuthorizationUrl(
      new URL(
        'https://as.example/authorize?tenant=t&scope=openid&state=x&client_id=y&code_challenge=z&code_challenge_method=plain',
      ),
      request,
    );
    const names = [...url.searchParams.keys()];
    expect(new Set(names).size).toBe(names.length);
    expect(url.searchParams.get('tenant')).toBe('t');
    expect(url.searchParams.get('scope')).toBe('openid mcp files:read');
    expect(url.searchParams.get('state')).toBe('s');
    expect(url.searchParams.get('client_id')).toBe('c');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe('https://mcp.example.com');
  });
  it('omits scope when there is none to send', () => {
    expect(
      buildAuthorizationUrl(new URL('https://as.example/authorize'), { ...request, scope: undefined }).searchParams.has(
        'scope',
      ),
    ).toBe(false);
  });
});

describe('callback parameters', () => {
  it('refuses any parameter given twice', () => {
    expect(() => callbackParameters('http://127.0.0.1/cb?code=a&state=s&iss=x&iss=x')).toThrow(
      /repeats the parameter "iss"/,
    );
    expect(() => callbackParameters('?code=a&foo=1&foo=2')).toThrow(/repeats/);
    expect(callbackParameters('code=a&state=s').get('code')).toBe('a');
  });
});

describe('scopes', () => {
  it('unions in first-seen order and drops what is not a scope token', () => {
    expect(scopeUnion('a b', ['b c'], undefined, 'a "bad" d')).toEqual(['a', 'b', 'c', 'd']);
  });
});
