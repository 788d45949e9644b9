#!/usr/bin/env node
// Builds the package in the current directory: type declarations with tsc, and one ESM bundle per `exports` entry.
//
// The JavaScript is bundled by esbuild, one bundle per entry point of its `exports` map; dynamic imports become chunks
// of their own, so what a package loads lazily stays lazy. Other packages — the other @mcpc ones included — stay
// imports: each package is still installed, and replaced, on its own.
//
// Why bundle: Node loads an ES module file by file (resolve, stat, read, compile), and that was most of
// a cold `import` — 89 files for the client and its two transports, 72 ms, against 29 ms as bundles.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

const cwd = process.cwd();
const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));

// Every `exports` target `./dist/x.js` comes from `src/x.ts`.
const entryPoints = Object.entries(pkg.exports ?? {})
  .filter(([subpath]) => subpath !== './package.json')
  .map(([subpath, target]) => {
    const file = typeof target === 'string' ? target : target.default;
    const match = /^\.\/dist\/(.+)\.js$/.exec(file ?? '');
    if (match === null) throw new Error(`${pkg.name}: exports["${subpath}"] must point at ./dist/<name>.js`);
    return join('src', `${match[1]}.ts`);
  });
if (entryPoints.length === 0) throw new Error(`${pkg.name}: no entry points in its exports map`);
// Each target of a subpath import (`#name`, one per condition: a platform's own module) is an entry point
// too, and the import stays an import: the runtime, or the user's bundler, picks the target.
const subpathImports = Object.keys(pkg.imports ?? {});
for (const [name, targets] of Object.entries(pkg.imports ?? {})) {
  for (const [condition, file] of Object.entries(typeof targets === 'string' ? { default: targets } : targets)) {
    if (condition === 'types') continue;
    const match = /^\.\/dist\/(.+)\.js$/.exec(file);
    if (match === null) throw new Error(`${pkg.name}: imports["${name}"] must point at ./dist/<name>.js`);
    const source = join('src', `${match[1]}.ts`);
    if (!entryPoints.includes(source)) entryPoints.push(source);
  }
}
// An executable (`bin`) is built the same way, but is no export: importing it would run it.
for (const file of Object.values(typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {}))) {
  const match = /^\.\/dist\/(.+)\.js$/.exec(file);
  if (match === null) throw new Error(`${pkg.name}: bin entries must point at ./dist/<name>.js`);
  const source = join('src', `${match[1]}.ts`);
  if (!entryPoints.includes(source)) entryPoints.push(source);
}

// A clean dist: a file left from an earlier layout would be packed and published.
rmSync(join(cwd, 'dist'), { recursive: true, force: true });

const tsc = join(createRequire(import.meta.url).resolve('typescript/package.json'), '..', 'bin', 'tsc');
const declarations = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--emitDeclarationOnly'], {
  cwd,
  stdio: 'inherit',
});
if (declarations.status !== 0) process.exit(declarations.status ?? 1);

await build({
  entryPoints,
  outdir: 'dist',
  outbase: 'src',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Dependencies, peers and Node's built-ins are imported, never inlined.
  packages: 'external',
  external: subpathImports,
  chunkNames: 'chunks/[name]-[hash]',
  // Readable output: no minification, the sources' own names; no source maps are published.
  minify: false,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: cwd,
  // Not tsconfig.json: its `paths` point the other @mcpc packages at their sources, which would inline them.
  tsconfig: 'tsconfig.build.json',
});
