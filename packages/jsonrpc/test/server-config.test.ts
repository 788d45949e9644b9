// The server-config contract: configs built and checked once, for every transport's factory.
import { describe, expect, it } from 'vitest';
import { checkEraOptions, serverConfig, transportPart, urlLabel, type Transport } from '@mcpc/jsonrpc';

const open = async (): Promise<Transport> => {
  throw new Error('not opened here');
};

describe('serverConfig', () => {
  it('carries the config-level options, and only those given', () => {
    expect(serverConfig({ kind: 'k', label: 'l', open }, {})).toEqual({ kind: 'k', label: 'l', open });
    expect(
      serverConfig(
        { kind: 'k', label: 'l', open, deprecated: 'sse-transport' },
        { name: 'n', requestTimeout: 5, protocol: 'legacy', discoverTimeout: 7 },
      ),
    ).toEqual({
      kind: 'k',
      label: 'l',
      open,
      deprecated: 'sse-transport',
      name: 'n',
      requestTimeout: 5,
      protocol: 'legacy',
      discoverTimeout: 7,
    });
  });

  it('checks the era options, or leaves them out for a transport without eras', () => {
    const bad = { protocol: 'future' } as unknown as { protocol: 'auto' };
    expect(() => serverConfig({ kind: 'k', label: 'l', open }, bad)).toThrow(TypeError);
    expect(() => checkEraOptions(undefined, 0)).toThrow(/discoverTimeout must be a positive number/);
    expect(serverConfig({ kind: 'k', label: 'l', open }, bad, false)).not.toHaveProperty('protocol');
  });

  it('hands the transport everything but the config-level options', () => {
    const options = { name: 'n', requestTimeout: 1, protocol: 'auto', discoverTimeout: 2, url: 'u', listen: false };
    expect(transportPart(options as typeof options & { protocol: 'auto' })).toEqual({ url: 'u', listen: false });
  });

  it('labels a URL without its credentials, query or fragment', () => {
    expect(urlLabel(new URL('https://user:secret@example.com/mcp?token=t#f'))).toBe('https://example.com/mcp');
    expect(urlLabel(new URL('http://127.0.0.1:8080/'))).toBe('http://127.0.0.1:8080');
  });
});
