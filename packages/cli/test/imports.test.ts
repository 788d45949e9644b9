// The CLI's module graph, read off src/ with a regex: no import cycle (static, dynamic or type-only), no upward arrow.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    return statSync(path).isDirectory() ? sources(path) : f.endsWith('.ts') ? [path] : [];
  });

/** `from '…'` (import, export, import type), bare `import '…'` and `import('…')`: the relative ones. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)'(\.{1,2}\/[^']+)'/gm;

/** Each module (a path under src/, `commands/shell.ts`) and the modules it imports. */
function importGraph(root = SRC): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(root)) {
    const code = readFileSync(file, 'utf8');
    const targets = [...code.matchAll(SPECIFIER)].map((m) =>
      relative(root, resolve(dirname(file), m[1]!)).replace(/\.js$/, '.ts'),
    );
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

/** The cycles of a graph (each once, from its first module in path order). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]): void => {
    const at = path.indexOf(node);
    if (at !== -1) return void cycles.push([...path.slice(at), node]);
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) visit(node, []);
  return cycles;
}

/**
 * The layers, top first: a module may import its own layer and those below it, never one above.
 * The entries; the dispatcher and the command table; the commands; everything the commands use.
 */
const LAYERS: readonly ((path: string) => boolean)[] = [
  (p) => ['bin.ts', 'index.ts', 'main.ts'].includes(p),
  (p) => ['dispatch.ts', 'resolve.ts', 'registry.ts', 'help.ts'].includes(p),
  (p) => p.startsWith('commands/'),
  () => true,
];
const layerOf = (path: string): number => LAYERS.findIndex((inLayer) => inLayer(path));

describe('the CLI module graph', () => {
  const graph = importGraph();

  it('is read from the sources (every relative import names a file that exists)', () => {
    expect(graph.size).toBeGreaterThan(60);
    expect(graph.get('registry.ts')).toContain('commands/shell.ts');
    const missing = [...graph].flatMap(([from, targets]) =>
      targets.filter((t) => !graph.has(t)).map((t) => `${from} → ${t}`),
    );
    expect(missing).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const cyclic = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cyclesOf(cyclic)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('has no import cycle, static, dynamic or type-only', () => {
    expect(cyclesOf(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('has no upward arrow: no module imports one of a layer above its own', () => {
    const upward = [...graph].flatMap(([from, targets]) =>
      targets.filter((t) => layerOf(t) < layerOf(from)).map((t) => `${from} → ${t}`),
    );
    expect(upward).toEqual([]);
  });
});
