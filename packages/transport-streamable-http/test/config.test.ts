// `streamableHttp()` and `http()` make the kernel's ServerConfig from the transport's own options.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '@mcpc/jsonrpc';
import { StreamableHttpTransport, http, streamableHttp } from '@mcpc/transport-streamable-http';

describe('streamableHttp() and http()', () => {
  it('label the config by the URL without its credentials, and open the transport', async () => {
    const config = streamableHttp({ url: 'http://user:secret@127.0.0.1:1/mcp?token=t', listen: false, name: 's' });
    expect(config).toMatchObject({ kind: 'streamable-http', label: 'http://127.0.0.1:1/mcp', name: 's' });
    await expect(config.open({ name: 's', logger: silentLogger })).resolves.toBeInstanceOf(StreamableHttpTransport);
  });

  it('http() resolves its endpoint against the URL', () => {
    expect(http({ url: 'http://127.0.0.1:1/api/', endpoint: 'rpc' })).toMatchObject({
      kind: 'http',
      label: 'http://127.0.0.1:1/api/rpc',
    });
  });

  it('refuses a URL that is not http(s) as the config is made', () => {
    expect(() => streamableHttp({ url: 'file:///etc/passwd' })).toThrow(TypeError);
  });
});
