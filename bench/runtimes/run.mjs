#!/usr/bin/env node
// The runtimes benchmark: browser bundle size and CPU per call on Node, Deno and Bun, mcpc beside the SDK v2 client.
//
// node bench/runtimes/run.mjs [--quick] [--no-build] [--rounds N] [--out file.json] [--then <script> [its args…]]
// node bench/runtimes/run.mjs --report [results.json]   (a saved run's tables again, running nothing)
//
// Where TypeScript MCP clients run beyond Node, measured side by side with the official SDK v2 client:
// 1. the browser bundle: esbuild with the `browser` condition, minified, gzip -9 — mcpc's client with its
//    Streamable HTTP transport, @mcpc/http and the schema validator, beside @modelcontextprotocol/client
//    with its StreamableHTTPClientTransport (its own validator included, as it bundles one);
// 2. CPU per call: `cpu-trial.mjs` in fresh processes on Node, Deno and Bun (the two from the npm
//    registry through npx), 64 calls in flight to the benchmark server (the official SDK's, over Streamable
//    HTTP with SSE answers, on Node), for mcpc with the runtime's default HTTP client, mcpc with `fetch`,
//    and SDK v2; the median of the rounds, drivers alternating.
// With `--then`, the chained benchmark runs first with the remaining arguments (`pnpm bench` chains the
// CLI's and the clients' benchmarks). Writes results.json (results.quick.json with --quick). See README.md.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const SERVER = join(here, '..', 'clients', 'lib', 'server.mjs');
const TRIAL = join(here, 'cpu-trial.mjs');
const RUNTIMES = {
  node: { label: `Node ${process.versions.node}`, command: process.execPath, args: [] },
  deno: { label: 'Deno 2.9.6', command: 'npx', args: ['-y', 'deno@2.9.6', 'run', '--allow-all', '--quiet'] },
  bun: { label: 'Bun 1.4.5', command: 'npx', args: ['-y', 'bun@1.4.5'] },
};
const DRIVERS = {
  'mcpc-auto': "mcpc, the runtime's default client",
  'mcpc-fetch': 'mcpc on fetch',
  sdk2: 'sdk v2 (2.4.0)',
  'fetch-floor': 'fetch floor (no client)',
};
const INFLIGHT = 64;
const log = (line) => process.stderr.write(`${line}\n`);

// ---------- arguments ----------
let argv = process.argv.slice(2);
let then;
const at = argv.indexOf('--then');
if (at !== -1) {
  if (argv[at + 1] === undefined) throw new Error('--then needs a script');
  then = { script: argv[at + 1], args: [...argv.slice(0, at), ...argv.slice(at + 2)] };
  argv = argv.slice(0, at);
  // Our options are the chained run's too (`pnpm bench --quick` appends them after the chain).
  argv.push(...then.args.filter((a) => ['--quick', '--no-build'].includes(a)));
}
const opts = {
  quick: argv.includes('--quick'),
  build: !argv.includes('--no-build'),
  rounds: undefined,
  out: undefined,
};
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--rounds') opts.rounds = Number(argv[++i]);
  else if (argv[i] === '--out') opts.out = argv[++i];
}
const rounds = opts.rounds ?? (opts.quick ? 1 : 5);
const calls = opts.quick ? 1_000 : 5_000;
const outPath = resolve(opts.out ?? join(here, opts.quick ? 'results.quick.json' : 'results.json'));

// ---------- --report: a saved run's tables again, running nothing ----------
const reportAt = argv.indexOf('--report');
if (reportAt !== -1) {
  const saved = JSON.parse(readFileSync(resolve(argv[reportAt + 1] ?? join(here, 'results.json')), 'utf8'));
  console.log(render(saved));
  process.exit(0);
}

// ---------- the chained benchmark first ----------
let chainedCode = 0;
if (then !== undefined) {
  chainedCode = await new Promise((done) => {
    const child = spawn(process.execPath, [resolve(repoRoot, then.script), ...then.args], { stdio: 'inherit' });
    child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

// ---------- build ----------
if (opts.build) {
  log('$ turbo run build --filter=@mcpc/bench-runtimes...');
  execFileSync(
    'npx',
    [
      '-y',
      'pnpm@10.34.8',
      'exec',
      'turbo',
      'run',
      'build',
      '--filter=@mcpc/bench-runtimes...',
      '--output-logs=errors-only',
    ],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

// ---------- 1. the browser bundle ----------
const { build } = await import('esbuild');
const BUNDLES = {
  mcpc: `export { Client, streamableHttp } from '@mcpc/client';
         export { compile } from '@mcpc/schema-validator';
         import '@mcpc/transport-streamable-http';`,
  sdk2: `export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';`,
};
/** Minified and gzipped bytes of a browser bundle of `entry`, and whether it holds a Node module. */
async function bundleSize(entry) {
  const result = await build({
    stdin: { contents: entry, resolveDir: here, sourcefile: 'entry.mjs', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['browser'],
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // The packages' own tsconfig points at their sources: a user bundles the built ones.
    tsconfigRaw: '{}',
  });
  const code = result.outputFiles[0].contents;
  const nodeModules = Object.keys(result.metafile.inputs).filter((i) => /(^|\/)node:/.test(i));
  return { minBytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength, nodeModules };
}
const bundles = {};
for (const [name, entry] of Object.entries(BUNDLES)) {
  bundles[name] = await bundleSize(entry);
  log(`bundle ${name}: ${(bundles[name].gzipBytes / 1024).toFixed(1)} KiB min+gzip`);
}

// ---------- 2. CPU per call ----------
/** Starts the benchmark server over Streamable HTTP; resolves with its URL and a stop function. */
function startServer() {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [SERVER, '--transport', 'http'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => fail(new Error('the benchmark server did not start in 30 s')), 30_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        done({ url: m[1], stop: () => child.kill('SIGTERM') });
      }
    });
    child.once('exit', (code) => fail(new Error(`the benchmark server exited (${code})`)));
  });
}

/** One trial in a fresh process of `runtime`; its JSON line, bounded at 5 minutes (a first npx fetch included). */
function trial(runtime, driver, url) {
  const { command, args } = RUNTIMES[runtime];
  return new Promise((done, fail) => {
    const child = spawn(command, [...args, TRIAL, driver, url, String(calls), String(INFLIGHT)], {
      cwd: here,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err = (err + c).slice(-4_000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) done(JSON.parse(line));
      else fail(new Error(`${runtime} ${driver} exited ${code}\n${err}`));
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const cpu = {};
let failed = 0;
for (const runtime of Object.keys(RUNTIMES)) {
  const samples = Object.fromEntries(Object.keys(DRIVERS).map((d) => [d, []]));
  for (let round = 0; round < rounds; round++) {
    // A fresh server per round; drivers in alternating order (A B C, C B A, …).
    const order = Object.keys(DRIVERS);
    if (round % 2 === 1) order.reverse();
    for (const driver of order) {
      const server = await startServer();
      try {
        const r = await trial(runtime, driver, server.url);
        samples[driver].push(r);
        log(
          `${runtime} ${driver} round ${round + 1}: ${r.cpuUsPerCall.toFixed(1)} µs CPU/call, ${r.callsPerSecond.toFixed(0)} calls/s`,
        );
      } catch (error) {
        failed++;
        log(String(error.message ?? error));
      } finally {
        server.stop();
      }
    }
  }
  cpu[runtime] = Object.fromEntries(
    Object.entries(samples).map(([d, rs]) => [
      d,
      rs.length === 0
        ? null
        : {
            cpuUsPerCall: median(rs.map((r) => r.cpuUsPerCall)),
            callsPerSecond: median(rs.map((r) => r.callsPerSecond)),
          },
    ]),
  );
}

// ---------- report ----------
/** The tables of a run (this one, or a saved one with --report). */
function render({ bundles, cpu, meta }) {
  const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
  const CLIENTS = Object.keys(DRIVERS).filter((d) => d !== 'fetch-floor');
  return [
    '## Where it runs',
    '',
    '### Browser bundle (esbuild, `browser` condition, minified, gzip -9)',
    '',
    '| client | min | min+gzip | ÷ sdk v2 | Node modules in it |',
    '| --- | --- | --- | --- | --- |',
    ...Object.entries(bundles).map(
      ([name, b]) =>
        `| ${name === 'mcpc' ? 'mcpc (client + Streamable HTTP + @mcpc/http + validator)' : 'sdk v2 (2.4.0) client + StreamableHTTPClientTransport'} | ${kib(b.minBytes)} | ${kib(b.gzipBytes)} | ${(b.gzipBytes / bundles.sdk2.gzipBytes).toFixed(2)} | ${b.nodeModules.length} |`,
    ),
    '',
    `### CPU per call, ${meta.inflight} in flight over Streamable HTTP (median of ${meta.rounds} × ${meta.calls} calls; ÷ the fastest client on that runtime)`,
    '',
    `| runtime | ${CLIENTS.map((d) => DRIVERS[d]).join(' | ')} | ${DRIVERS['fetch-floor']} | mcpc on fetch ÷ floor |`,
    `| --- | ${CLIENTS.map(() => '---').join(' | ')} | --- | --- |`,
    ...Object.entries(cpu).map(([runtime, row]) => {
      const fastest = Math.min(...CLIENTS.filter((d) => row[d]).map((d) => row[d].cpuUsPerCall));
      const cells = CLIENTS.map((d) =>
        row[d] ? `${row[d].cpuUsPerCall.toFixed(1)} µs (${(row[d].cpuUsPerCall / fastest).toFixed(2)}×)` : 'failed',
      );
      const floor = row['fetch-floor'];
      const overFloor =
        floor && row['mcpc-fetch'] ? (row['mcpc-fetch'].cpuUsPerCall / floor.cpuUsPerCall).toFixed(2) : '—';
      return `| ${RUNTIMES[runtime].label} | ${cells.join(' | ')} | ${floor ? `${floor.cpuUsPerCall.toFixed(1)} µs` : 'failed'} | ${overFloor}× |`;
    }),
  ].join('\n');
}
console.log(render({ bundles, cpu, meta: { inflight: INFLIGHT, rounds, calls } }));
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot }).toString().trim();
await writeFile(
  outPath,
  `${JSON.stringify({ meta: { date: new Date().toISOString(), commit, quick: opts.quick, rounds, calls, inflight: INFLIGHT }, bundles, cpu }, null, 2)}\n`,
);
log(`wrote ${outPath}`);
process.exit(failed > 0 || chainedCode !== 0 ? 1 : 0);
