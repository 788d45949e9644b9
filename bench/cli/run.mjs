#!/usr/bin/env node
// bench/cli: the cold start of the built `mcpc`, as the median and p95 of N fresh `--help` and `--version` spawns.
//
// Each spawn is `node packages/cli/dist/bin.js --help` (or `--version`).
//
//   node bench/cli/run.mjs [--quick] [--runs N] [--no-build] [--bin dist/bin.js] [--out file.json] [--then <script> [its args…]]
//
// Each run is a new process (no warm-up shared between runs, the OS file cache warm after the first), timed
// from spawn to exit in this process. The target: `mcpc --help` under 150 ms cold on this machine.
// `pnpm bench` runs this with `--then bench/clients/run.mjs`: the clients benchmark first, with every argument
// after the script name, then this one (`--quick` and `--no-build` apply to both; `--only` runs the clients'
// scenarios alone). Writes results.json (results.quick.json with --quick) next to this file.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus, platform, release, arch } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
let bin = join(repoRoot, 'packages', 'cli', 'dist', 'bin.js');
const TARGET_MS = 150;
const log = (s) => process.stderr.write(`${s}\n`);

function usage(message) {
  if (message) log(message);
  log(
    'usage: node bench/cli/run.mjs [--quick] [--runs N] [--no-build] [--bin FILE] [--out file.json] [--then <script> [args…]]',
  );
  process.exit(2);
}

// ---------- arguments (ours, and the chained benchmark's) ----------
let argv = process.argv.slice(2);
let then;
const at = argv.indexOf('--then');
if (at !== -1) {
  if (argv[at + 1] === undefined) usage('--then needs a script');
  then = { script: argv[at + 1], args: [...argv.slice(0, at), ...argv.slice(at + 2)] };
  argv = then.args;
}
const opts = { quick: false, runs: undefined, build: true, out: undefined, skip: false };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--quick') opts.quick = true;
  else if (a === '--no-build') opts.build = false;
  else if (a === '--runs' && then === undefined) {
    opts.runs = Number(argv[++i]);
    if (!Number.isInteger(opts.runs) || opts.runs < 1 || opts.runs > 500) usage('--runs must be 1..500');
  } else if (a === '--out' && then === undefined) opts.out = argv[++i];
  else if (a === '--bin' && then === undefined) {
    bin = resolve(argv[++i] ?? usage('--bin needs a path'));
    opts.build = false;
  } else if (a === '--only' && then !== undefined)
    opts.skip = true; // a chosen clients scenario: theirs only
  else if (a === '--help' || a === '-h') usage();
  else if (then === undefined) usage(`unknown argument ${a}`);
  else if (['--drivers', '--transports', '--rounds', '--out'].includes(a)) i++; // the clients benchmark's
}
const runs = opts.runs ?? (opts.quick ? 10 : 30);
const outPath = opts.out ?? join(here, opts.quick ? 'results.quick.json' : 'results.json');

// ---------- the chained benchmark first (its report, then ours) ----------
let chainedCode = 0;
if (then !== undefined) {
  chainedCode = await new Promise((resolveCode) => {
    const child = spawn(process.execPath, [resolve(repoRoot, then.script), ...then.args], {
      cwd: process.cwd(),
      stdio: 'inherit',
    });
    child.once('exit', (code, signal) => resolveCode(code ?? (signal ? 1 : 0)));
  });
  if (opts.skip) process.exit(chainedCode);
}

// ---------- build ----------
if (opts.build) {
  log('$ pnpm exec turbo run build --filter=@mcpc/cli... --output-logs=errors-only');
  execFileSync(
    'npx',
    ['-y', 'pnpm@10.34.8', 'exec', 'turbo', 'run', 'build', '--filter=@mcpc/cli...', '--output-logs=errors-only'],
    {
      cwd: repoRoot,
      stdio: ['ignore', 2, 2],
      timeout: 600_000,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    },
  );
}
if (!existsSync(bin)) {
  log(`${bin} is missing: build the CLI (drop --no-build)`);
  process.exit(1);
}

// ---------- measuring ----------
/** One cold spawn: ms from spawn to exit, and what it printed (checked, so a broken build is no fast result). */
function once(args) {
  return new Promise((resolveRun, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('close', (code) => {
      const ms = performance.now() - started;
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`mcpc ${args.join(' ')} exited ${code}: ${err.slice(-500)}`));
      else resolveRun({ ms, out });
    });
  });
}
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** The baseline: `node -e 0`, what any Node CLI pays before its first line of code. */
const CASES = [
  { name: 'node -e 0 (baseline)', args: null },
  { name: 'mcpc --help', args: ['--help'], expect: /^mcpc — / },
  { name: 'mcpc --version', args: ['--version'], expect: /^mcpc \d/ },
];

function baseline() {
  return new Promise((resolveRun) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.once('close', () => resolveRun({ ms: performance.now() - started, out: '' }));
  });
}

const started = performance.now();
const samples = Object.fromEntries(CASES.map((c) => [c.name, []]));
// One untimed spawn of each first (the OS file cache: "cold" here means a fresh process, not a cold disk).
for (const c of CASES) await (c.args ? once(c.args) : baseline());
// Interleaved, so drift on the machine touches every case alike.
for (let i = 0; i < runs; i++) {
  for (const c of CASES) {
    const r = c.args ? await once(c.args) : await baseline();
    if (c.expect && !c.expect.test(r.out)) throw new Error(`${c.name} printed ${JSON.stringify(r.out.slice(0, 200))}`);
    samples[c.name].push(r.ms);
  }
}
const summary = Object.fromEntries(
  CASES.map((c) => {
    const sorted = [...samples[c.name]].sort((a, b) => a - b);
    return [
      c.name,
      { runs: sorted.length, medianMs: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95), minMs: sorted[0] },
    ];
  }),
);

// ---------- report ----------
const fmt = (v) => v.toFixed(1);
const help = summary['mcpc --help'];
const lines = [
  `## mcpc CLI cold start${opts.quick ? ' (--quick: fewer runs — a smoke run, not figures)' : ''}`,
  '',
  `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length} · ${platform()} ${release()} ${arch()} · ${runs} fresh processes each, interleaved`,
  '',
  '| command | median ms | p95 ms | min ms |',
  '| --- | ---: | ---: | ---: |',
  ...CASES.map((c) => {
    const s = summary[c.name];
    return `| ${c.name} | ${fmt(s.medianMs)} | ${fmt(s.p95Ms)} | ${fmt(s.minMs)} |`;
  }),
  '',
  `Target (issue #16): \`mcpc --help\` under ${TARGET_MS} ms cold — median ${fmt(help.medianMs)} ms: ${help.medianMs < TARGET_MS ? 'met' : '**not met**'}.`,
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
await writeFile(
  outPath,
  `${JSON.stringify({ meta: { date: new Date().toISOString(), node: process.version, quick: opts.quick, runs, seconds: Math.round((performance.now() - started) / 1000) }, targetMs: TARGET_MS, summary, samples }, null, 2)}\n`,
);
log(`wrote ${relative(process.cwd(), outPath) || outPath}`);
process.exitCode = chainedCode !== 0 ? chainedCode : 0;
