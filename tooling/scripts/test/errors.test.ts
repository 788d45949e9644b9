// Every error class every built package exports, checked for its code, brand, `instanceof` and `cause`.
//
// One code names one class, a brand in its package's scope, `instanceof` across two copies of the package, `cause`
// kept; and no code is spelled outside codes.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// These read the packages' dist/: the test command (tooling/scripts/test.mjs) builds every package
// before vitest runs; run `npx -y pnpm@10.34.8 build` first when running this file alone.
const root = fileURLToPath(new URL('../../..', import.meta.url));
const readManifest = (
  file: string,
): { name: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> } =>
  JSON.parse(readFileSync(file, 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };

interface ErrorClass {
  /** The entry that exports it (`@mcpc/http`, `@mcpc/client/convert`). */
  readonly entry: string;
  readonly name: string;
  /** The key of its `Symbol.for` brand (`@mcpc/http.HttpError`), when it has one of its own. */
  readonly brand: string | undefined;
  /** The `code` of an instance made with sample arguments. */
  readonly code: string | undefined;
  readonly constructs: boolean;
  readonly mentionsCause: boolean;
  readonly keepsCause: boolean;
  /** False when the entry re-exports a class of another package (both copies then share it). */
  readonly distinctCopy: boolean;
  /** `instanceof` both ways between an instance of each copy of the package. */
  readonly crossCopy: boolean | undefined;
  /** The same number for the same class, wherever it is exported from. */
  readonly id: number;
}
interface CodeSet {
  readonly entry: string;
  readonly name: string;
  readonly values: readonly string[];
  readonly frozen: boolean;
  readonly id: number;
}
interface Taxonomy {
  readonly packages: readonly string[];
  readonly classes: readonly ErrorClass[];
  readonly codeSets: readonly CodeSet[];
}

/** The package an entry belongs to: `@mcpc/client/convert` → `@mcpc/client`. */
const packageOf = (entry: string): string => entry.split('/').slice(0, 2).join('/');

let taxonomy: Taxonomy;
/** Each class once, as its own package exports it. */
let classes: ErrorClass[];
/** Each code object once. */
let codeSets: CodeSet[];

beforeAll(() => {
  // In a process of its own: Node loads the dist files as a user's install would (vitest would resolve
  // the packages' imports of each other to their sources).
  const run = spawnSync(process.execPath, [join(root, 'tooling/scripts/error-taxonomy.mjs')], {
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(run.status, run.stderr).toBe(0);
  taxonomy = JSON.parse(run.stdout) as Taxonomy;
  const owner = new Map<number, ErrorClass>();
  for (const c of taxonomy.classes) {
    const current = owner.get(c.id);
    if (current === undefined || packageOf(c.entry) === c.brand?.split('.')[0]) owner.set(c.id, c);
  }
  classes = [...owner.values()];
  // A code object re-exported by the packages built on its declarer (the HTTP transports re-export
  // @mcpc/http's, the client the kernel's) counts once, as the declarer's: the one the others depend on.
  const dependsOn = (from: string, to: string): boolean => {
    const dir = readdirSync(join(root, 'packages')).find((d) => {
      const file = join(root, 'packages', d, 'package.json');
      return statSync(file, { throwIfNoEntry: false }) !== undefined && readManifest(file).name === from;
    });
    if (dir === undefined) return false;
    const manifest = readManifest(join(root, 'packages', dir, 'package.json'));
    return to in { ...manifest.dependencies, ...manifest.peerDependencies };
  };
  const byId = new Map<number, CodeSet[]>();
  for (const set of taxonomy.codeSets) byId.set(set.id, [...(byId.get(set.id) ?? []), set]);
  codeSets = [...byId.values()].map((sets) => {
    const owners = sets.filter((a) =>
      sets.every((b) => packageOf(b.entry) === packageOf(a.entry) || dependsOn(packageOf(b.entry), packageOf(a.entry))),
    );
    return owners[0] ?? sets[0]!;
  });
});

describe('the error classes of the built packages', () => {
  it('finds the error classes of every package', () => {
    expect(classes.length).toBeGreaterThan(60);
    const withErrors = new Set(classes.map((c) => c.brand?.split('.')[0]));
    for (const name of taxonomy.packages) expect(withErrors, `${name} exports error classes`).toContain(name);
  });

  it('brands each class in the scope of the package that declares it, under its exported name', () => {
    const offenders = taxonomy.classes
      .filter((c) => {
        if (c.brand === undefined) return true;
        const [pkg, name] = c.brand.split('.');
        // Declared by a workspace package, and exported by it too (a re-export names the same class).
        const declared = taxonomy.classes.some((d) => d.id === c.id && packageOf(d.entry) === pkg);
        return name !== c.name || !taxonomy.packages.includes(pkg ?? '') || !declared;
      })
      .map((c) => `${c.entry} ${c.name}: ${c.brand ?? 'no brand'}`);
    expect(offenders).toEqual([]);
  });

  it('constructs every class and reads a code from it', () => {
    expect(classes.filter((c) => !c.constructs || c.code === undefined).map((c) => c.name)).toEqual([]);
  });

  it('gives each code to one class only, across the repository', () => {
    const byCode = new Map<string, string[]>();
    for (const c of classes) byCode.set(c.code ?? '', [...(byCode.get(c.code ?? '') ?? []), c.brand ?? c.name]);
    expect([...byCode].filter(([, names]) => names.length > 1)).toEqual([]);
  });

  it('declares every code once, in a frozen code object some package exports', () => {
    const all = codeSets.flatMap((s) => s.values);
    expect(all.filter((code, i) => all.indexOf(code) !== i)).toEqual([]);
    expect(codeSets.filter((s) => !s.frozen).map((s) => `${s.entry} ${s.name}`)).toEqual([]);
    const declared = new Set(all);
    expect(classes.filter((c) => !declared.has(c.code ?? '')).map((c) => `${c.name}: ${c.code}`)).toEqual([]);
    // Each package with codes of its own exports them from its root.
    const exporting = new Set(codeSets.map((s) => packageOf(s.entry)));
    expect(taxonomy.packages.filter((p) => !exporting.has(p))).toEqual([]);
  });

  it('keeps instanceof across two copies of each package, both ways', () => {
    const own = classes.filter((c) => c.distinctCopy);
    expect(own.length).toBe(classes.length);
    expect(own.filter((c) => c.crossCopy !== true).map((c) => c.name)).toEqual([]);
  });

  it('keeps the cause it is given, where its constructor takes one', () => {
    expect(classes.filter((c) => c.mentionsCause && !c.keepsCause).map((c) => c.name)).toEqual([]);
  });
});

const files = (dir: string, suffix = '.ts'): string[] =>
  readdirSync(dir).flatMap((f) =>
    statSync(join(dir, f)).isDirectory() ? files(join(dir, f), suffix) : f.endsWith(suffix) ? [join(dir, f)] : [],
  );

describe('the public types', () => {
  it('declare no brand: it is set in a static block, out of every emitted .d.ts', () => {
    const packages = join(root, 'packages');
    const offenders = readdirSync(packages)
      .map((name) => join(packages, name, 'dist'))
      .filter((dist) => statSync(dist, { throwIfNoEntry: false })?.isDirectory() === true)
      .flatMap((dist) => files(dist, '.d.ts'))
      .filter((f) => /\bstatic\b[^;\n]*\bbrand\b|\[BRANDS?\]/.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(packages.length + 1));
    expect(offenders).toEqual([]);
  });
});

describe('code strings in the sources', () => {
  it('are spelled only in each package’s src/codes.ts; everything else uses the constants', () => {
    const packages = join(root, 'packages');
    const offenders = readdirSync(packages)
      .map((name) => join(packages, name, 'src'))
      .filter((src) => statSync(src, { throwIfNoEntry: false })?.isDirectory() === true)
      .flatMap((src) => files(src))
      .filter((f) => !f.endsWith(join('src', 'codes.ts')))
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/'MCPC_[A-Z_]+'/g)].map((m) => `${f.slice(packages.length + 1)}: ${m[0]}`),
      );
    expect(offenders).toEqual([]);
  });
});
