// Pins the runtime names of each public entry of the packages that keep a test/api-surface.json.
//
// Those are the client, the kernel and @mcpc/http. A new export fails here until that list, an API decision, is
// updated.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { exportedNames } from '../api-names.mjs';

const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));
const pinned = readdirSync(packages).filter((p) => existsSync(join(packages, p, 'test', 'api-surface.json')));

describe('the public surface', () => {
  it('is pinned for the client, the kernel and @mcpc/http at least', () => {
    expect(pinned).toEqual(expect.arrayContaining(['client', 'http', 'jsonrpc']));
  });

  it.each(pinned)('@mcpc/%s: each entry exports exactly the names its list pins, sorted', async (dir) => {
    const manifest = JSON.parse(readFileSync(join(packages, dir, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, unknown>;
    };
    const surface = JSON.parse(readFileSync(join(packages, dir, 'test', 'api-surface.json'), 'utf8')) as Record<
      string,
      string[]
    >;
    const entries = Object.keys(manifest.exports)
      .filter((e) => e !== './package.json')
      .map((e) => (e === '.' ? manifest.name : `${manifest.name}/${e.slice(2)}`));
    expect(Object.keys(surface).sort()).toEqual(entries.sort());
    for (const entry of entries) {
      const names = surface[entry] ?? [];
      expect(names, `${entry}: test/api-surface.json keeps its names sorted`).toEqual([...names].sort());
      const module = (await import(entry)) as object;
      expect(Object.keys(module).sort(), `${entry}: exports changed without an API decision`).toEqual(names);
    }
  });

  it('keeps the client root at 110 names or fewer, types included (the rest is at /types, /convert, /constants)', () => {
    const entries = (exportedNames as (dir: string) => { entry: string; values: string[]; types: string[] }[])(
      join(packages, 'client'),
    );
    const root = entries.find((e) => e.entry === '@mcpc/client');
    expect(root?.values.length).toBeGreaterThan(0);
    expect((root?.values.length ?? 0) + (root?.types.length ?? 0)).toBeLessThanOrEqual(110);
  });
});
