// The transport's config factory: `sse()` makes the kernel's ServerConfig, naming its deprecated feature.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '@mcpc/jsonrpc';
import { SseTransport, sse } from '@mcpc/transport-sse-legacy';

describe('sse()', () => {
  it('names the deprecated feature, so the client gives the notice, and has no era to choose', async () => {
    const config = sse({ url: 'http://user:secret@127.0.0.1:1/sse', name: 's', protocol: 'modern' });
    expect(config).toMatchObject({
      kind: 'sse',
      label: 'http://127.0.0.1:1/sse',
      name: 's',
      deprecated: 'sse-transport',
    });
    expect(config).not.toHaveProperty('protocol');
    await expect(config.open({ name: 's', logger: silentLogger })).resolves.toBeInstanceOf(SseTransport);
  });
});
