// `parseWwwAuthenticate`: MCP challenges, several per header, quoting, duplicates, hostile input.
import { describe, expect, it } from 'vitest';
import { parseWwwAuthenticate } from '../src/index.js';

describe('parseWwwAuthenticate', () => {
  it('reads the MCP challenges', () => {
    expect(
      parseWwwAuthenticate(
        'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read files:write"',
      ),
    ).toEqual([
      {
        scheme: 'bearer',
        params: {
          resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
          scope: 'files:read files:write',
        },
      },
    ]);
  });
  it('reads several challenges, in one value or several', () => {
    const one = parseWwwAuthenticate(
      'Bearer error="insufficient_scope", scope="a", DPoP algs="ES256 PS256", error="use_dpop_nonce"',
    );
    expect(one.map((c) => c.scheme)).toEqual(['bearer', 'dpop']);
    expect(one[1]?.params).toEqual({ algs: 'ES256 PS256', error: 'use_dpop_nonce' });
    expect(
      parseWwwAuthenticate(['Bearer realm="x"', 'DPoP error=use_dpop_nonce']).map((c) => [c.scheme, c.params.error]),
    ).toEqual([
      ['bearer', undefined],
      ['dpop', 'use_dpop_nonce'],
    ]);
  });
  it('unescapes quoted strings, takes bare schemes and token68', () => {
    expect(parseWwwAuthenticate('Bearer error_description="say \\"hi\\", then go"')[0]?.params.error_description).toBe(
      'say "hi", then go',
    );
    expect(parseWwwAuthenticate('Bearer')).toEqual([{ scheme: 'bearer', params: {} }]);
    expect(parseWwwAuthenticate('Negotiate abc+/def==')).toEqual([
      { scheme: 'negotiate', params: {}, token68: 'abc+/def==' },
    ]);
  });
  it('drops a challenge that repeats a parameter, and keeps the rest', () => {
    expect(
      parseWwwAuthenticate(
        'Bearer resource_metadata="https://a/x", resource_metadata="https://b/y", DPoP error="e"',
      ).map((c) => c.scheme),
    ).toEqual(['dpop']);
  });
  it('is bounded and safe with hostile input', () => {
    expect(parseWwwAuthenticate(`Bearer ${'a="b", '.repeat(100_000)}`).length).toBeLessThanOrEqual(16);
    const proto = parseWwwAuthenticate('Bearer __proto__="x", constructor="y"')[0];
    expect(Object.getPrototypeOf(proto?.params ?? {})).toBeNull();
    expect(parseWwwAuthenticate('Bearer realm="unterminated')).toEqual([{ scheme: 'bearer', params: {} }]);
    expect(parseWwwAuthenticate(undefined)).toEqual([]);
  });
});
