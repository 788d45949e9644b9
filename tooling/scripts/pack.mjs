#!/usr/bin/env node
// Builds installable tarballs of every publishable package into dist-packs/.
//
// Every non-private package under packages/ is packed, so the toolkit can be installed from a clone before anything is
// published.
//
//   node tooling/scripts/pack.mjs [--out <dir>] [--no-build]
//
// `pnpm pack`, not `npm pack`: only pnpm rewrites the `workspace:` ranges into real versions, without
// which a tarball cannot be installed outside the workspace. The packages are found on disk, so a new
// one is packed without editing this file. Prints the tarballs' paths, one a line, last.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The publishable packages: every directory under packages/ whose package.json is not private. */
export function publishablePackages() {
  const dir = join(root, 'packages');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'package.json')))
    .map((entry) => ({
      dir: join(dir, entry.name),
      manifest: JSON.parse(readFileSync(join(dir, entry.name, 'package.json'), 'utf8')),
    }))
    .filter(({ manifest }) => manifest.private !== true)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/** How to run pnpm: the one running this script (`pnpm pack:all`), else the pinned version through npx. */
function pnpm() {
  const execPath = process.env.npm_execpath;
  if (execPath !== undefined && /pnpm/.test(execPath)) return { command: process.execPath, args: [execPath] };
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
  return { command: process.platform === 'win32' ? 'npx.cmd' : 'npx', args: ['-y', pinned] };
}

function run(command, args, cwd) {
  const r = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${r.status})`);
}

/** Builds (unless told not to) and packs every publishable package into `out`; returns the tarballs. */
export function packAll({ out = join(root, 'dist-packs'), build = true } = {}) {
  const packages = publishablePackages();
  if (build) {
    const filters = packages.map(({ manifest }) => `--filter=${manifest.name}`);
    run(
      process.execPath,
      [join(root, 'tooling', 'scripts', 'turbo.mjs'), 'run', 'build', ...filters, '--output-logs=errors-only'],
      root,
    );
  }
  mkdirSync(out, { recursive: true });
  // Tarballs of an earlier run (an older version, a package since removed) would be installed too.
  for (const file of readdirSync(out)) if (file.endsWith('.tgz')) rmSync(join(out, file));
  const unbuilt = packages.filter(({ dir }) => !existsSync(join(dir, 'dist'))).map(({ manifest }) => manifest.name);
  if (unbuilt.length > 0)
    throw new Error(`not built (no dist/): ${unbuilt.join(', ')}; run the build first, or leave out --no-build`);
  const { command, args } = pnpm();
  for (const { dir } of packages) {
    run(command, [...args, 'pack', '--pack-destination', out], dir);
  }
  return readdirSync(out)
    .filter((file) => file.endsWith('.tgz'))
    .sort()
    .map((file) => join(out, file));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const outAt = argv.indexOf('--out');
  const out = outAt === -1 ? undefined : argv[outAt + 1];
  if (outAt !== -1 && out === undefined) throw new Error('--out needs a directory');
  const tarballs = packAll({
    ...(out === undefined ? {} : { out: resolve(out) }),
    build: !argv.includes('--no-build'),
  });
  console.log(`\n${tarballs.length} tarballs (install them together: npm install <paths>):`);
  for (const tarball of tarballs) console.log(tarball);
}
