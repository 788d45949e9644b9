import { describe, expectTypeOf, it } from 'vitest';
import type { HttpAuth } from '@mcpc/transport-streamable-http';
import { OAuthProvider } from '../src/index.js';

describe('the transport seam', () => {
  it('OAuthProvider is an HttpAuth, structurally (neither package imports the other at run time)', () => {
    expectTypeOf<OAuthProvider>().toMatchTypeOf<HttpAuth>();
    const provider = new OAuthProvider({ serverUrl: 'http://127.0.0.1:1/mcp' });
    const auth: HttpAuth = provider;
    void auth;
  });
});
