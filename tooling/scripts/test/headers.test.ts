// Every source file starts with a one-line comment saying what it owns (after a shebang, if any).
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

// The folders a newcomer reads: each package's and app's sources and tests, the scripts, the fixtures.
const WORKSPACES = ['packages', 'apps'];
const PARTS = ['src', 'test'];
const FOLDERS = ['tooling/scripts', 'tooling/fixtures'];
const SOURCE = /\.(?:ts|mts|mjs|js)$/;
// Installed and built files are not ours to head.
const SKIPPED = new Set(['node_modules', 'dist']);
// Comments addressed to a tool, not to a reader.
const DIRECTIVE = /^\/[/*]\s*(?:@ts-|eslint-|prettier-ignore|global\s)/;

/** The source files under `dir`, recursively; a missing folder (a package without tests) has none. */
function sources(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function covered(): string[] {
  const dirs = WORKSPACES.flatMap((top) =>
    readdirSync(join(root, top), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => PARTS.map((part) => join(root, top, entry.name, part))),
  );
  return [...dirs, ...FOLDERS.map((folder) => join(root, folder))].flatMap(sources);
}

/**
 * Whether a file opens with a header: its first line (the second after a `#!` line) is a `//` comment
 * with text, or opens a `/*` or `/**` block with text on that same line. A bare `/**` opening a doc
 * comment of the first declaration says what that declaration is, not what the file owns; a directive
 * (`// @ts-check`, `// eslint-disable …`) says nothing about the file at all.
 */
function hasHeader(text: string): boolean {
  const lines = text.split('\n', 2);
  const first = (lines[0]?.startsWith('#!') ? lines[1] : lines[0]) ?? '';
  if (DIRECTIVE.test(first)) return false;
  return /^\/\/\s*\S/.test(first) || /^\/\*\*?(?!\*)\s*\S/.test(first);
}

describe('one-line headers', () => {
  it('recognizes a header, after a shebang too, and nothing else', () => {
    expect(hasHeader('// The engine.\nimport x from "y";')).toBe(true);
    expect(hasHeader('#!/usr/bin/env node\n// A fixture server.\n')).toBe(true);
    expect(hasHeader('/* A block header. */\n')).toBe(true);
    expect(hasHeader('/** A doc header. */\n')).toBe(true);
    expect(hasHeader('import x from "y";\n')).toBe(false);
    expect(hasHeader('#!/usr/bin/env node\nimport x from "y";\n')).toBe(false);
    expect(hasHeader('/**\n * The first declaration.\n */\n')).toBe(false);
    expect(hasHeader('//\nexport {};\n')).toBe(false);
    expect(hasHeader('\n// late\n')).toBe(false);
    expect(hasHeader('// @ts-check\n// A fixture.\n')).toBe(false);
    expect(hasHeader('/* eslint-disable no-console */\n')).toBe(false);
  });

  it('finds the sources of every package, app, script and fixture', () => {
    const files = covered().map((file) => relative(root, file).split('\\').join('/'));
    expect(files).toContain('packages/jsonrpc/src/engine.ts');
    expect(files).toContain('apps/custom-transport/test/tcp-transport.test.ts');
    expect(files).toContain('tooling/scripts/check-architecture.mjs');
    expect(files.some((file) => file.startsWith('tooling/fixtures/'))).toBe(true);
    expect(files.some((file) => file.includes('/node_modules/'))).toBe(false);
  });

  it('opens every source file', () => {
    const missing = covered()
      .filter((file) => !hasHeader(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file).split('\\').join('/'));
    expect(missing).toEqual([]);
  });
});
