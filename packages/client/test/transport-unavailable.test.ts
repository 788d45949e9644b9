// A missing transport package reaches the caller of connect() as a TransportUnavailableError itself.
import { describe, expect, it, vi } from 'vitest';
import { Client, ClientErrorCode, TransportUnavailableError, connect, stdio } from '@mcpc/client';

// As when @mcpc/transport-stdio is not installed: its import fails.
vi.mock('@mcpc/transport-stdio', () => {
  throw new Error("Cannot find package '@mcpc/transport-stdio'");
});

describe('a transport package that is not installed', () => {
  it('rejects connect() with a TransportUnavailableError naming the package', async () => {
    const error: unknown = await connect(['node', '-e', '0']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportUnavailableError);
    expect(error).toMatchObject({
      code: ClientErrorCode.TransportUnavailable,
      packageName: '@mcpc/transport-stdio',
    });
  });

  it('rejects Client.connect() with the same error', async () => {
    const client = new Client({ servers: [stdio({ name: 'local', command: 'node' })] });
    try {
      await expect(client.connect()).rejects.toBeInstanceOf(TransportUnavailableError);
    } finally {
      await client.close();
    }
  });
});
