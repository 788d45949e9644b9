// The transport's config factory: `stdio()` makes the kernel's ServerConfig from the transport's own options.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '@mcpc/jsonrpc';
import { StdioTransport, stdio } from '@mcpc/transport-stdio';

describe('stdio()', () => {
  it('labels the config by its command line and keeps the config-level options out of the transport', async () => {
    const config = stdio({ command: 'node', args: ['server.js'], name: 's', requestTimeout: 5, protocol: 'legacy' });
    expect(config).toMatchObject({ kind: 'stdio', label: 'node server.js', name: 's', requestTimeout: 5 });
    expect(config.protocol).toBe('legacy');
    const transport = await config.open({ name: 's', logger: silentLogger });
    expect(transport).toBeInstanceOf(StdioTransport);
  });

  it('checks what it is given as the config is made, not when it is opened', () => {
    expect(() => stdio({ command: '' })).toThrow(TypeError);
    expect(() => stdio({ command: 'node', discoverTimeout: -1 })).toThrow(TypeError);
  });
});
