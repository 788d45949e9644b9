#!/usr/bin/env node
// bench/playground: the built page's weight — JS and CSS bytes of apps/playground/dist/web, raw and gzip.
//
//   node bench/playground/run.mjs [--no-build] [--json]
//
// Builds the page first (`turbo run build --filter=@mcpc/playground...`: the page and the workspace packages it
// needs), then walks apps/playground/dist/web and prints one row per .js/.css/.html file and a total per kind,
// raw and gzipped (level 9, what a static server would send). Not part of `pnpm bench`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const webDir = join(repoRoot, 'apps', 'playground', 'dist', 'web');
const log = (s) => process.stderr.write(`${s}\n`);

const argv = process.argv.slice(2);
for (const a of argv) {
  if (a !== '--no-build' && a !== '--json') {
    log('usage: node bench/playground/run.mjs [--no-build] [--json]');
    process.exit(2);
  }
}
const build = !argv.includes('--no-build');
const asJson = argv.includes('--json');

if (build) {
  log('$ pnpm exec turbo run build --filter=@mcpc/playground... --output-logs=errors-only');
  execFileSync(
    'npx',
    [
      '-y',
      'pnpm@10.34.8',
      'exec',
      'turbo',
      'run',
      'build',
      '--filter=@mcpc/playground...',
      '--output-logs=errors-only',
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 2, 2],
      timeout: 600_000,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    },
  );
}
if (!existsSync(join(webDir, 'index.html'))) {
  log(`${join(webDir, 'index.html')} is missing: build the page (drop --no-build)`);
  process.exit(1);
}

/** Every file under dir (bounded depth), relative paths. */
function walk(dir, depth = 0) {
  if (depth > 8) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full, depth + 1));
    else out.push(full);
  }
  return out;
}

const KINDS = { '.js': 'js', '.mjs': 'js', '.css': 'css', '.html': 'html' };
const rows = [];
for (const file of walk(webDir)) {
  const kind = KINDS[extname(file)];
  if (kind === undefined) continue;
  const bytes = readFileSync(file);
  rows.push({ file: relative(webDir, file), kind, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
}
const totals = {};
for (const r of rows) {
  const t = (totals[r.kind] ??= { raw: 0, gzip: 0 });
  t.raw += r.raw;
  t.gzip += r.gzip;
}

if (asJson) {
  process.stdout.write(`${JSON.stringify({ dir: relative(repoRoot, webDir), files: rows, totals }, null, 2)}\n`);
} else {
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const width = Math.max(12, ...rows.map((r) => r.file.length));
  console.log(`apps/playground/dist/web\n`);
  console.log(`${'file'.padEnd(width)}  ${'raw'.padStart(10)}  ${'gzip'.padStart(10)}`);
  for (const r of rows) console.log(`${r.file.padEnd(width)}  ${kb(r.raw).padStart(10)}  ${kb(r.gzip).padStart(10)}`);
  console.log('');
  for (const kind of ['js', 'css', 'html']) {
    const t = totals[kind] ?? { raw: 0, gzip: 0 };
    console.log(`${`total ${kind}`.padEnd(width)}  ${kb(t.raw).padStart(10)}  ${kb(t.gzip).padStart(10)}`);
  }
}
