#!/usr/bin/env node
// Builds the server (server/*.ts → dist/server/main.js) and the page (web/ → dist/web/), with stats.json.

// @ts-check
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));
const WEB = join(HERE, 'web');
const OUT = join(HERE, 'dist', 'web');
const SERVER_OUT = join(HERE, 'dist', 'server');

// The server: one ESM file for Node, the packages left as imports (node_modules holds them).
await rm(SERVER_OUT, { recursive: true, force: true });
await build({
  entryPoints: [join(HERE, 'server', 'main.ts')],
  outfile: join(SERVER_OUT, 'main.js'),
  bundle: true,
  packages: 'external',
  // Not tsconfig.json: its paths point the packages at their sources (for the type check), which would bundle them.
  tsconfigRaw: {},
  format: 'esm',
  platform: 'node',
  target: ['node20'],
  legalComments: 'none',
  logLevel: 'warning',
});

await rm(OUT, { recursive: true, force: true });
await mkdir(join(OUT, 'assets'), { recursive: true });

const result = await build({
  entryPoints: [join(WEB, 'main.tsx')],
  outfile: join(OUT, 'assets', 'app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});

const copied = ['index.html', ...(await readdir(WEB)).filter((f) => f.endsWith('.css'))];
for (const file of copied) await copyFile(join(WEB, file), join(OUT, file));

/** @type {Record<string, { bytes: number, gzipBytes: number }>} */
const files = {};
for (const rel of ['assets/app.js', ...copied]) {
  const path = join(OUT, rel);
  files[rel] = { bytes: (await stat(path)).size, gzipBytes: gzipSync(readFileSync(path)).length };
}
const stats = {
  files,
  totalBytes: Object.values(files).reduce((n, f) => n + f.bytes, 0),
  totalGzipBytes: Object.values(files).reduce((n, f) => n + f.gzipBytes, 0),
  inputs: Object.fromEntries(
    Object.entries(result.metafile.outputs[Object.keys(result.metafile.outputs)[0] ?? '']?.inputs ?? {}).map(
      ([k, v]) => [k.replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, ''), v.bytesInOutput],
    ),
  ),
};
await writeFile(join(OUT, 'stats.json'), `${JSON.stringify(stats, null, 2)}\n`);
process.stdout.write(
  `built dist/server/main.js and dist/web: app.js ${files['assets/app.js']?.bytes} bytes (${files['assets/app.js']?.gzipBytes} gzipped)\n`,
);
