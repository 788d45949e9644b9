// The modules of @mcpc/http: no import cycle, a header on each, none over 400 lines.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The package's modules stay small and acyclic: the HTTP clients once imported their types from the
// module that lazily imports them (http-client.ts ↔ node-client.ts / undici-client.ts).

const src = new URL('../src/', import.meta.url);
const files = readdirSync(src).filter((f) => f.endsWith('.ts'));
const text = (file: string): string => readFileSync(new URL(file, src), 'utf8');

/** Each module's relative imports (static, type-only and dynamic alike). */
const imports = new Map(
  files.map((f) => [f, [...text(f).matchAll(/(?:from|import\()\s*'\.\/([\w-]+)\.js'/g)].map((m) => `${m[1]}.ts`)]),
);

function cycles(): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]): void => {
    const at = path.indexOf(file);
    if (at !== -1) return void found.push([...path.slice(at), file].join(' → '));
    if (done.has(file)) return;
    for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of files) visit(file, []);
  return found;
}

describe('the modules of @mcpc/http', () => {
  it('import one another without a cycle', () => {
    expect(cycles()).toEqual([]);
  });

  it('each start with a one-line header and stay under 400 lines', () => {
    for (const file of files) {
      expect(text(file).startsWith('// '), file).toBe(true);
      expect(text(file).split('\n').length, file).toBeLessThan(400);
    }
  });
});
