// The page's rule: it imports no package that needs Node. Its sources (web/, contract/) import Preact and types only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appDir } from '../harness.js';

/** Packages the page may load at run time: Preact only (MCP goes through the playground's server). */
const PAGE_PACKAGES = new Set(['preact', 'preact/hooks', 'preact/jsx-runtime']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

/** Each `import … from 'x'` / `export … from 'x'` / `import 'x'` of a file, and whether it is type-only. */
function importsOf(text: string): { specifier: string; typeOnly: boolean }[] {
  const re = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  return [...text.matchAll(re)].map((m) => ({ specifier: m[3]!, typeOnly: m[2] !== undefined }));
}

describe('the page and contract/', () => {
  const files = [...sources(join(appDir, 'web')), ...sources(join(appDir, 'contract'))];

  it('reads import statements as the check needs', () => {
    expect(importsOf("import type { A } from '@mcpc/client';\nimport { h } from 'preact';")).toEqual([
      { specifier: '@mcpc/client', typeOnly: true },
      { specifier: 'preact', typeOnly: false },
    ]);
  });

  it('import at run time only Preact and their own modules (a package like @mcpc/client: types only)', () => {
    const offending = files.flatMap((file) =>
      importsOf(readFileSync(file, 'utf8'))
        .filter((i) => !i.typeOnly && !i.specifier.startsWith('.') && !PAGE_PACKAGES.has(i.specifier))
        .map((i) => `${relative(appDir, file)}: ${i.specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('contract/ is types only: it exports no value', () => {
    for (const file of sources(join(appDir, 'contract'))) {
      const text = readFileSync(file, 'utf8');
      expect(text, relative(appDir, file)).not.toMatch(/^export\s+(const|let|function|class|enum)\b/m);
      expect(importsOf(text).every((i) => i.typeOnly)).toBe(true);
    }
  });

  it('the built page bundles nothing but its own sources and Preact', () => {
    const stats = join(appDir, 'dist', 'web', 'stats.json');
    if (!existsSync(stats)) throw new Error(`${stats} is missing: build the playground first`);
    const inputs = Object.keys((JSON.parse(readFileSync(stats, 'utf8')) as { inputs: object }).inputs);
    expect(inputs.filter((i) => !i.startsWith('web/') && !i.startsWith('preact/'))).toEqual([]);
  });
});
