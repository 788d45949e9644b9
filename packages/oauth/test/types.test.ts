// The transport seam: OAuthProvider implements the kernel's auth hook, which every HTTP transport takes.
import { describe, expectTypeOf, it } from 'vitest';
import type { AuthProvider } from '@mcpc/jsonrpc';
import type { HttpAuth, StreamableHttpTransportOptions } from '@mcpc/transport-streamable-http';
import type { SseTransportOptions } from '@mcpc/transport-sse-legacy';
import { OAuthProvider } from '../src/index.js';

describe('the transport seam', () => {
  it('OAuthProvider is an AuthProvider (neither package imports the other at run time)', () => {
    expectTypeOf<OAuthProvider>().toMatchTypeOf<AuthProvider>();
    const provider = new OAuthProvider({ serverUrl: 'http://127.0.0.1:1/mcp' });
    const auth: AuthProvider = provider;
    void auth;
  });

  it('is the one auth type: both transports take it, and the deprecated HttpAuth is the same type', () => {
    expectTypeOf<HttpAuth>().toEqualTypeOf<AuthProvider>();
    expectTypeOf<NonNullable<StreamableHttpTransportOptions['auth']>>().toEqualTypeOf<AuthProvider>();
    expectTypeOf<NonNullable<SseTransportOptions['auth']>>().toEqualTypeOf<AuthProvider>();
  });
});
