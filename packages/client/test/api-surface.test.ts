// What the client's root leaves to its subpaths (each entry's names are pinned from test/api-surface.json).
import { describe, expect, it } from 'vitest';

describe('the public surface', () => {
  // Each entry's names are pinned by tooling/scripts/test/api-surface.test.ts, from test/api-surface.json.
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
