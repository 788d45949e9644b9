// src/metaschemas.ts is exactly what scripts/generate-metaschemas.mjs makes from the published meta-schemas.
//
// So the data and its generator cannot drift apart.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types, shared with the command line.
import { OUTPUT, generate } from '../scripts/generate-metaschemas.mjs';
import { META_SCHEMAS } from '../src/metaschemas.js';

describe('the meta-schema generator', () => {
  it('regenerating produces exactly the checked-in src/metaschemas.ts', async () => {
    const generated = (await generate()) as string;
    expect(generated).toBe(readFileSync(OUTPUT as string, 'utf8'));
  });

  it('covers the three dialects: draft-07, 2019-09 with its six vocabularies, 2020-12 with its seven', () => {
    const ids = META_SCHEMAS.map((schema) => (schema as { $id: string }).$id);
    expect(ids).toHaveLength(16);
    expect(ids).toContain('http://json-schema.org/draft-07/schema#');
    expect(ids).toContain('https://json-schema.org/draft/2019-09/schema');
    expect(ids).toContain('https://json-schema.org/draft/2020-12/schema');
  });
});
