// Pins the runtime names of each public entry: a new export fails here until the list (an API decision) is updated.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const surface = JSON.parse(readFileSync(new URL('./api-surface.json', import.meta.url), 'utf8')) as Record<
  string,
  string[]
>;

describe('the public surface', () => {
  it('lists exactly the names each entry exports, sorted', async () => {
    const entries: Record<string, object> = {
      '@mcpc/client': await import('@mcpc/client'),
      '@mcpc/client/convert': await import('@mcpc/client/convert'),
      '@mcpc/client/constants': await import('@mcpc/client/constants'),
    };
    expect(Object.keys(surface).sort()).toEqual(Object.keys(entries).sort());
    for (const [entry, module] of Object.entries(entries)) {
      const pinned = surface[entry] ?? [];
      expect(pinned, `${entry}: test/api-surface.json keeps its names sorted`).toEqual([...pinned].sort());
      expect(Object.keys(module).sort(), `${entry}: exports changed without an API decision`).toEqual(pinned);
    }
  });

  it('keeps the converters and the low-level constants off the root', async () => {
    const root = await import('@mcpc/client');
    for (const name of [
      'toOpenAITools',
      'toAiSdkTools',
      'mapToolNames',
      'ToolConversionError',
      'PROTOCOL_VERSIONS',
      'MAX_PENDING_PROGRESS',
    ]) {
      expect(root, name).not.toHaveProperty(name);
    }
  });
});
