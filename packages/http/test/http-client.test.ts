// Choosing the HTTP client: what counts as undici (Bun answers `import('undici')` with a shim of its own).
import { describe, expect, it } from 'vitest';
import { isUndici } from '../src/clients-node.js';

describe('isUndici', () => {
  it("tells undici from a module that only answers to its name (Bun's shim has no Agent#dispatch)", async () => {
    expect(isUndici(await import('undici'))).toBe(true);
    expect(isUndici({ Agent: class {}, fetch: () => undefined })).toBe(false);
    expect(isUndici(null)).toBe(false);
    expect(isUndici({})).toBe(false);
  });
});
