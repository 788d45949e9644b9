#!/usr/bin/env node
// pnpm bench [--quick] [--only <scenario,…>] [--drivers <driver,…>] [--transports stdio,http]
//            [--rounds N] [--out file.json] [--no-build]
//
// Runs MCP clients side by side against one benchmark server (the official SDK's) over stdio and
// Streamable HTTP, each trial in a fresh process, drivers alternating A B … B A over the rounds,
// and prints medians with each driver's ratio to the limit driver. Writes the figures as JSON.
// See README.md.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus, totalmem, platform, arch, release } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { install as installFootprint, PACKAGES as FOOTPRINT_PACKAGES, writeImportScript } from './lib/footprint.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const serverPath = join(here, 'lib', 'server.mjs');
const trialPath = join(here, 'lib', 'trial.mjs');
const PNPM = ['npx', '-y', 'pnpm@10.34.8'];
const NODE24 = 'node@24.21.0';
const MiB = 1024 * 1024;

const ALL_DRIVERS = ['limit', 'mcpc', 'mcpc-node', 'sdk1', 'sdk2', 'aisdk'];
// mcpc-node differs from mcpc on HTTP only (its transport on node:http instead of undici).
const TRANSPORTS_OF = { 'mcpc-node': ['http'] };
const runsOn = (driver, transport) => (TRANSPORTS_OF[driver] ?? ['stdio', 'http']).includes(transport);
const LABELS = {
  limit: 'limit',
  mcpc: 'mcpc',
  'mcpc-node': 'mcpc (node:http)',
  'mcpc+undici': 'mcpc + undici',
  sdk1: 'sdk v1 (1.32.2)',
  sdk2: 'sdk v2 (2.4.0)',
  aisdk: 'ai-sdk (2.0.99)',
};
const ALL_SCENARIOS = ['connect', 'sequential', 'concurrent', 'list', 'blob', 'rss', 'footprint'];
const TITLES = {
  connect: '1. connect (spawn included on stdio) to the first tools/list',
  sequential: '2. sequential echo calls',
  concurrent: '3. echo calls, 64 in flight',
  list: '4. tools/list of 1,000 tools',
  blob: '5. one 16 MiB blob result', // the size is set from the plan below
  rss: '6. RSS after 10,000 calls',
  footprint: '7. install footprint and cold import',
};

// ---------- arguments ----------
function usage(message) {
  if (message) console.error(message);
  console.error(
    `usage: node bench/clients/run.mjs [--quick] [--only ${ALL_SCENARIOS.join(',')}] [--drivers ${ALL_DRIVERS.join(',')}]\n` +
      '       [--transports stdio,http] [--rounds N] [--out results.json] [--no-build] [--cpu-prof]',
  );
  process.exit(2);
}
const argv = process.argv.slice(2);
const opts = {
  quick: false,
  only: ALL_SCENARIOS,
  drivers: ALL_DRIVERS,
  transports: ['stdio', 'http'],
  rounds: undefined,
  out: undefined,
  build: true,
  cpuProf: false,
};
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const value = () => {
    const v = argv[++i];
    if (v === undefined) usage(`${a} needs a value`);
    return v;
  };
  const list = (v, allowed, what) => {
    const items = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const item of items)
      if (!allowed.includes(item)) usage(`unknown ${what} "${item}" (one of ${allowed.join(', ')})`);
    if (items.length === 0) usage(`${a} needs at least one ${what}`);
    return items;
  };
  if (a === '--quick') opts.quick = true;
  else if (a === '--only') opts.only = list(value(), ALL_SCENARIOS, 'scenario');
  else if (a === '--drivers') opts.drivers = list(value(), ALL_DRIVERS, 'driver');
  else if (a === '--transports') opts.transports = list(value(), ['stdio', 'http'], 'transport');
  else if (a === '--rounds') {
    opts.rounds = Number(value());
    if (!Number.isInteger(opts.rounds) || opts.rounds < 1 || opts.rounds > 50) usage('--rounds must be 1..50');
  } else if (a === '--out') opts.out = value();
  else if (a === '--no-build') opts.build = false;
  else if (a === '--cpu-prof') opts.cpuProf = true;
  else if (a === '--help' || a === '-h') usage();
  else usage(`unknown argument ${a}`);
}
// The limit driver is the yardstick: it always runs (except for footprint, where it has nothing to install).
const drivers = ['limit', ...ALL_DRIVERS.filter((d) => d !== 'limit' && opts.drivers.includes(d))];
const scenarios = ALL_SCENARIOS.filter((s) => opts.only.includes(s));
const outPath = opts.out ?? join(here, opts.quick ? 'results.quick.json' : 'results.json');

// ---------- what each scenario does, full and --quick ----------
const BLOB = 16 * MiB;
const PLAN = opts.quick
  ? {
      connect: { rounds: 1, budgetMs: 20_000 },
      sequential: { rounds: 1, budgetMs: 20_000, params: { warmup: 50, calls: 150 } },
      concurrent: { rounds: 1, budgetMs: 20_000, params: { warmup: 100, calls: 400, inFlight: 64 } },
      list: { rounds: 1, budgetMs: 20_000, params: { tools: 1000, warmup: 1, lists: 3 } },
      blob: { rounds: 1, budgetMs: 20_000, params: { bytes: 4 * MiB } },
      rss: { rounds: 1, budgetMs: 20_000, params: { warmup: 100, maxWarmup: 100, calls: 500, inFlight: 64 } },
      footprint: { rounds: 3, reuse: true },
      suite: { rounds: 1, budgetMs: 30_000 },
    }
  : {
      connect: { rounds: 7, budgetMs: 30_000 },
      sequential: { rounds: 5, budgetMs: 60_000, params: { warmup: 300, calls: 2000 } },
      concurrent: { rounds: 5, budgetMs: 90_000, params: { warmup: 1000, calls: 10_000, inFlight: 64 } },
      list: { rounds: 5, budgetMs: 60_000, params: { tools: 1000, warmup: 3, lists: 20 } },
      blob: { rounds: 5, budgetMs: 60_000, params: { bytes: BLOB } },
      rss: { rounds: 3, budgetMs: 120_000, params: { warmup: 1000, maxWarmup: 10_000, calls: 10_000, inFlight: 64 } },
      footprint: { rounds: 10 },
    };
if (opts.rounds !== undefined) for (const s of Object.values(PLAN)) s.rounds = opts.rounds;
TITLES.blob = `5. one ${PLAN.blob.params.bytes / MiB} MiB blob result`;

const started = performance.now();
const log = (s) => process.stderr.write(`${s}\n`);
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)}s`;

// ---------- setup: install, build ----------
function sh(command, args, cwd = repoRoot) {
  log(`$ ${[command, ...args].join(' ')}`);
  execFileSync(command, args, { cwd, stdio: ['ignore', 2, 2], timeout: 600_000 }); // stdout stays the report
}
if (!existsSync(join(here, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'))) {
  sh(PNPM[0], [...PNPM.slice(1), 'install', '--frozen-lockfile']);
}
if (opts.build) {
  sh(PNPM[0], [
    ...PNPM.slice(1),
    'exec',
    'turbo',
    'run',
    'build',
    '--filter=@mcpc/bench-clients...',
    '--output-logs=errors-only',
  ]);
}

// ---------- processes ----------
/** Node binaries by driver: Node 20 (this process's) unless a driver cannot run on it. */
const nodeFor = Object.fromEntries(drivers.map((d) => [d, process.execPath]));
let node24Path;
function node24() {
  node24Path ??= execFileSync('npx', ['-y', '-p', NODE24, 'node', '-e', 'process.stdout.write(process.execPath)'], {
    encoding: 'utf8',
    timeout: 300_000,
  }).trim();
  return node24Path;
}

/** A Streamable HTTP benchmark server of its own for one trial. */
function startHttpServer(tools) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [serverPath, '--transport', 'http', '--tools', String(tools), '--max-lifetime', '300000'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error('HTTP server did not start in 20 s')), 20_000);
    const fail = (e) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${e.message}\n${err.slice(-2000)}`));
    };
    child.stderr.on('data', (c) => (err = (err + c).slice(-4000)));
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        const exited = new Promise((r) => child.once('exit', r));
        resolve({
          url: m[1],
          stderr: () => err,
          async stop() {
            child.stdin.end();
            const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
            await exited;
            clearTimeout(kill);
          },
        });
      }
    });
    child.once('exit', (code) => fail(new Error(`HTTP server exited (${code}) before listening`)));
  });
}

/** Runs one node script in a fresh process and returns what it printed after @@RESULT. */
function runNode(nodeBin, args, { budgetMs, cwd }) {
  return new Promise((resolve) => {
    const child = spawn(nodeBin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err = (err + c).slice(-8000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), budgetMs + 15_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('@@RESULT '));
      let result;
      try {
        result = line ? JSON.parse(line.slice(9)) : { error: `no result (exit ${signal ?? code})` };
      } catch (e) {
        result = { error: `unreadable result: ${e.message}` };
      }
      if (result.error && err) result.stderr = err.slice(-2000);
      resolve(result);
    });
  });
}

/** Node flags of a trial; with --cpu-prof, each trial writes profiles/<name>-<n>.cpuprofile. */
let profileSeq = 0;
let lastProfile;
const trialFlags = (name) => {
  if (!opts.cpuProf) return ['--expose-gc'];
  lastProfile = join(here, 'profiles', `${name}-${++profileSeq}.cpuprofile`);
  return [
    '--expose-gc',
    '--cpu-prof',
    '--cpu-prof-interval',
    '100',
    '--cpu-prof-dir',
    join(here, 'profiles'),
    '--cpu-prof-name',
    `${name}-${profileSeq}.cpuprofile`,
  ];
};

/** The stdio target, or a fresh HTTP server of its own, for a trial against a server with `tools` tools. */
async function targetFor(transport, tools) {
  if (transport === 'http') {
    const server = await startHttpServer(tools);
    return { target: { transport: 'http', url: server.url }, stop: () => server.stop() };
  }
  const args = [serverPath, '--transport', 'stdio', '--tools', String(tools), '--max-lifetime', '300000'];
  return { target: { transport: 'stdio', command: process.execPath, args }, stop: async () => {} };
}
const fillers = (scenario, params) => (scenario === 'list' ? params.tools - 2 : 0); // echo and blob are there too

async function trial(driver, scenario, transport, plan) {
  const { target, stop } = await targetFor(transport, fillers(scenario, plan.params ?? {}));
  try {
    const spec = { driver, scenario, target, params: plan.params ?? {}, budgetMs: plan.budgetMs };
    return await runNode(
      nodeFor[driver],
      [...trialFlags(`${scenario}-${transport}-${driver}`), trialPath, JSON.stringify(spec)],
      { budgetMs: plan.budgetMs, cwd: here },
    );
  } finally {
    await stop();
  }
}

/** --quick: every scenario in one fresh process per driver and transport (list on a second server). */
async function suiteTrial(driver, transport, steps, budgetMs) {
  const main = await targetFor(transport, 0);
  const list = steps.some((s) => s.scenario === 'list')
    ? await targetFor(transport, fillers('list', PLAN.list.params))
    : undefined;
  try {
    const spec = {
      driver,
      scenario: 'suite',
      target: main.target,
      steps: steps.map((s) => ({ ...s, ...(s.scenario === 'list' && { target: list.target }) })),
      budgetMs,
    };
    return await runNode(
      nodeFor[driver],
      [...trialFlags(`suite-${transport}-${driver}`), trialPath, JSON.stringify(spec)],
      { budgetMs, cwd: here },
    );
  } finally {
    await Promise.all([main.stop(), list?.stop()]);
  }
}

/** A B C … then … C B A, and again: drift on a shared machine falls evenly on every driver. */
const orderFor = (round, list) => (round % 2 === 0 ? list : [...list].reverse());

// ---------- figures ----------
const median = (values) => {
  const s = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return undefined;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const METRICS = {
  connect: ['ms'],
  sequential: ['callsPerSec', 'p50Ms', 'p99Ms', 'cpuUsPerCall'],
  concurrent: ['callsPerSec', 'cpuUsPerCall'],
  list: ['msPerList'],
  blob: ['mbPerSec', 'ms', 'peakRssMiB', 'peakGrowthMiB'],
  rss: ['rssGrowthMiB', 'heapGrowthMiB', 'newSpaceGrowthMiB', 'rssEndMiB', 'warmupCalls'],
  footprint: ['bytes', 'diskBytes', 'files', 'packages', 'importMs'],
};

// ---------- run ----------
const trials = [];
const summary = {};

/**
 * @ai-sdk/mcp declares Node >= 22. Its first trial runs on this Node; if that trial fails, the
 * driver moves to Node 24 for the rest of the run (marked in the table), and the trial is re-run.
 */
let aiSdkChecked = false;
async function withNodeFallback(driver, runIt) {
  const result = await runIt();
  if (driver !== 'aisdk' || aiSdkChecked) return result;
  aiSdkChecked = true;
  if (!result.error) {
    log(`  ai-sdk runs on Node ${process.version} (its engines say >= 22)`);
    return result;
  }
  log(`  ai-sdk failed on Node ${process.version}: ${result.error.split('\n')[0]}; its trials run on ${NODE24}`);
  nodeFor.aisdk = node24();
  return runIt();
}

async function runScenario(scenario) {
  const plan = PLAN[scenario];
  summary[scenario] = {};
  for (const transport of opts.transports) {
    log(`${elapsed()} ${TITLES[scenario]} — ${transport}, ${plan.rounds} round(s)`);
    const present = drivers.filter((d) => runsOn(d, transport));
    const byDriver = Object.fromEntries(present.map((d) => [d, []]));
    for (let round = 0; round < plan.rounds; round++) {
      for (const driver of orderFor(round, present)) {
        const result = await withNodeFallback(driver, () => trial(driver, scenario, transport, plan));
        trials.push({ scenario, transport, driver, round, ...result, ...(opts.cpuProf && { profile: lastProfile }) });
        if (opts.cpuProf && result.windowUs)
          log(
            `  profile: node ${relative(process.cwd(), join(here, 'lib', 'profile-summary.mjs'))} ${relative(process.cwd(), lastProfile)} --window ${result.windowUs.join(',')}`,
          );
        byDriver[driver].push(result);
        if (result.error)
          log(
            `  ${driver} ${transport} round ${round + 1}: ERROR ${result.error.split('\n')[0]}${result.stderr ? `\n    stderr: ${result.stderr.trim().split('\n').slice(-3).join('\n    ')}` : ''}`,
          );
        else if (result.complete === false)
          log(`  ${driver} ${transport} round ${round + 1}: stopped by its time bound after ${result.calls} calls`);
      }
    }
    summary[scenario][transport] = summarize(scenario, byDriver);
  }
}

function summarize(scenario, byDriver) {
  const out = {};
  for (const [driver, results] of Object.entries(byDriver)) {
    const ok = results.filter((r) => !r.error);
    const entry = { trials: results.length, ok: ok.length, node: ok[0]?.node ?? results[0]?.node };
    for (const m of METRICS[scenario]) entry[m] = median(ok.map((r) => r[m]));
    if (results.length > ok.length) entry.errors = results.filter((r) => r.error).map((r) => r.error.split('\n')[0]);
    out[driver] = entry;
  }
  const limit = out.limit;
  for (const entry of Object.values(out)) {
    entry.ratio = {};
    for (const m of METRICS[scenario]) if (limit?.[m] && entry[m] !== undefined) entry.ratio[m] = entry[m] / limit[m];
  }
  return out;
}

async function runFootprint() {
  const plan = PLAN.footprint;
  // mcpc's rows: the minimal install, and the one with its optional undici.
  const fpDrivers = drivers
    .flatMap((d) => (d === 'mcpc' ? ['mcpc', 'mcpc+undici'] : [d]))
    .filter((d) => d in FOOTPRINT_PACKAGES);
  log(`${elapsed()} ${TITLES.footprint}: packing mcpc, npm install of each client into a fresh project`);
  const pnpmForPack = PNPM;
  const installed = await installFootprint({
    repoRoot,
    pnpm: pnpmForPack,
    drivers: fpDrivers,
    log,
    ...(plan.reuse && { reuseDir: join(here, 'node_modules', '.cache', 'footprint') }),
  });
  try {
    const scripts = {};
    for (const d of fpDrivers)
      scripts[d] = await writeImportScript(installed.projects[d], FOOTPRINT_PACKAGES[d].imports);
    log(`${elapsed()} cold import, ${plan.rounds} round(s)`);
    const byDriver = Object.fromEntries(fpDrivers.map((d) => [d, []]));
    for (let round = 0; round < plan.rounds; round++) {
      for (const d of orderFor(round, fpDrivers)) {
        const result = await runNode(nodeFor[d] ?? process.execPath, [scripts[d]], {
          budgetMs: 30_000,
          cwd: installed.projects[d],
        });
        const row = { ...result, importMs: result.ms, ...installed.sizes[d] };
        delete row.ms;
        trials.push({ scenario: 'footprint', transport: 'both', driver: d, round, ...row });
        byDriver[d].push(row);
        if (result.error) log(`  ${d} import round ${round + 1}: ERROR ${result.error.split('\n')[0]}`);
      }
    }
    const out = {};
    for (const [d, results] of Object.entries(byDriver)) {
      const ok = results.filter((r) => !r.error);
      out[d] = {
        trials: results.length,
        ok: ok.length,
        node: ok[0]?.node,
        ...installed.sizes[d],
        importMs: median(ok.map((r) => r.importMs)),
      };
    }
    // The yardstick here is the official SDK (v1): the limit driver installs nothing.
    const base = out.sdk1;
    for (const entry of Object.values(out)) {
      entry.ratio = {};
      if (base)
        for (const m of METRICS.footprint) if (base[m] && entry[m] !== undefined) entry.ratio[m] = entry[m] / base[m];
    }
    summary.footprint = { both: out };
  } finally {
    await installed.cleanup();
  }
}

async function runSuite(list) {
  const steps = ['sequential', 'concurrent', 'rss', 'blob', 'list']
    .filter((x) => list.includes(x))
    .map((x) => ({ scenario: x, params: PLAN[x].params }));
  const rounds = PLAN.suite.rounds;
  const budgetMs = PLAN.suite.budgetMs;
  for (const s of list) summary[s] = {};
  for (const transport of opts.transports) {
    log(`${elapsed()} ${list.join(', ')} — ${transport}, one process per driver (--quick), ${rounds} round(s)`);
    const present = drivers.filter((d) => runsOn(d, transport));
    const byScenario = Object.fromEntries(list.map((s) => [s, Object.fromEntries(present.map((d) => [d, []]))]));
    for (let round = 0; round < rounds; round++) {
      for (const driver of orderFor(round, present)) {
        const result = await withNodeFallback(driver, () => suiteTrial(driver, transport, steps, budgetMs));
        if (result.error)
          log(
            `  ${driver} ${transport}: ERROR ${result.error.split('\n')[0]}${result.stderr ? `\n    stderr: ${result.stderr.trim().split('\n').slice(-3).join('\n    ')}` : ''}`,
          );
        for (const s of list) {
          const r = result.error
            ? { error: result.error, stderr: result.stderr }
            : (result.suite[s] ?? { error: 'not run: out of time' });
          const row = { ...r, node: result.node };
          trials.push({ scenario: s, transport, driver, round, suite: true, ...row });
          byScenario[s][driver].push(row);
        }
      }
    }
    for (const s of list) summary[s][transport] = summarize(s, byScenario[s]);
  }
}

const measured = scenarios.filter((s) => s !== 'footprint');
if (opts.quick && measured.length) await runSuite(measured);
else for (const scenario of measured) await runScenario(scenario);
if (scenarios.includes('footprint')) await runFootprint();

// ---------- report ----------
const fmt = (v, digits) =>
  v === undefined ? '—' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratio = (v) => (v === undefined ? '—' : `${v.toFixed(2)}×`);
const mark = (driver, transport, scenario) => {
  const e = summary[scenario]?.[transport]?.[driver];
  const notes = [];
  if (e?.node && e.node !== process.version) notes.push(`Node ${e.node.slice(1)}`);
  if (e?.errors) notes.push(`${e.errors.length} failed`);
  return notes.length ? ` (${notes.join(', ')})` : '';
};
/** @type {Record<string, Array<[string, string, number, boolean]>>} [metric, header, digits, with ratio] */
const COLUMNS = {
  connect: [['ms', 'ms', 1, true]],
  sequential: [
    ['callsPerSec', 'calls/s', 0, true],
    ['p50Ms', 'p50 ms', 3, false],
    ['p99Ms', 'p99 ms', 3, false],
    ['cpuUsPerCall', 'CPU µs/call', 1, true],
  ],
  concurrent: [
    ['callsPerSec', 'calls/s', 0, true],
    ['cpuUsPerCall', 'CPU µs/call', 1, true],
  ],
  list: [['msPerList', 'ms/list', 2, true]],
  blob: [
    ['mbPerSec', 'MB/s', 0, true],
    ['peakRssMiB', 'peak RSS MiB', 1, false],
    ['peakGrowthMiB', 'peak − base MiB', 1, true],
  ],
  rss: [
    ['rssGrowthMiB', 'RSS growth MiB', 2, false],
    ['heapGrowthMiB', 'heap growth MiB', 2, false],
    ['newSpaceGrowthMiB', 'young gen. growth MiB', 1, false],
    ['rssEndMiB', 'RSS MiB', 1, false],
  ],
};

function table(scenario) {
  const plan = PLAN[scenario];
  const lines = [];
  const p = plan.params ?? {};
  const detail = {
    connect: '',
    sequential: ` (${p.calls} calls after ${p.warmup} warm-up)`,
    concurrent: ` (${p.calls} calls, ${p.inFlight} in flight, after ${p.warmup} warm-up)`,
    list: ` (median of ${p.lists} lists)`,
    blob: ' (peak − base: the peak RSS above the RSS just before the call)',
    rss: ` (${p.calls} calls, ${p.inFlight} in flight, after a warm-up of ${p.warmup}–${p.maxWarmup} calls that ends once V8's young generation stops growing; gc before and after; heap growth is what a leak shows as)`,
  }[scenario];
  lines.push(`### ${TITLES[scenario]}${detail}`, '');
  const cols = COLUMNS[scenario];
  const header = ['driver'];
  for (const t of opts.transports) for (const [, h, , r] of cols) header.push(`${t} ${h}`, ...(r ? ['×limit'] : []));
  lines.push(`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  for (const d of drivers) {
    const row = [`${LABELS[d]}${mark(d, opts.transports[0], scenario)}`];
    for (const t of opts.transports) {
      const e = summary[scenario]?.[t]?.[d];
      for (const [m, , digits, r] of cols) row.push(fmt(e?.[m], digits), ...(r ? [ratio(e?.ratio?.[m])] : []));
    }
    lines.push(`| ${row.join(' | ')} |`);
  }
  return lines.join('\n');
}

function footprintTable() {
  const out = summary.footprint?.both ?? {};
  const lines = [
    `### ${TITLES.footprint} (npm install for stdio + Streamable HTTP; median of ${PLAN.footprint.rounds} cold imports)`,
    '',
  ];
  lines.push(
    '| client | installed MB | ×sdk v1 | on disk MB | ×sdk v1 | files | packages | cold import ms | ×sdk v1 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const [d, e] of Object.entries(out)) {
    const node = e.node && e.node !== process.version ? ` (Node ${e.node.slice(1)})` : '';
    lines.push(
      `| ${LABELS[d]}${node} | ${fmt(e.bytes / 1e6, 2)} | ${ratio(e.ratio.bytes)} | ${fmt(e.diskBytes / 1e6, 2)} | ${ratio(e.ratio.diskBytes)} | ${fmt(e.files, 0)} | ${fmt(e.packages, 0)} | ${fmt(e.importMs, 1)} | ${ratio(e.ratio.importMs)} |`,
    );
  }
  return lines.join('\n');
}

/** mcpc's targets from issue #7, on the medians of this run. */
function targets() {
  const rows = [];
  const get = (s, t, m, d = 'mcpc') => summary[s]?.[t]?.[d]?.[m];
  const getRatio = (s, t, m) => summary[s]?.[t]?.mcpc?.ratio?.[m];
  const add = (name, value, pass, shown) =>
    rows.push({ target: name, value, shown, pass: value === undefined ? undefined : pass(value) });
  for (const t of opts.transports) {
    for (const s of ['sequential', 'concurrent']) {
      if (!summary[s]) continue;
      add(
        `${s === 'sequential' ? '2' : '3'}. ${t} calls/s ≥ 0.9× limit`,
        getRatio(s, t, 'callsPerSec'),
        (v) => v >= 0.9,
        (v) => ratio(v),
      );
      add(
        `${s === 'sequential' ? '2' : '3'}. ${t} CPU/call ≤ 1.2× limit`,
        getRatio(s, t, 'cpuUsPerCall'),
        (v) => v <= 1.2,
        (v) => ratio(v),
      );
    }
    if (summary.blob) {
      add(
        `5. ${t} MB/s ≥ 0.8× limit`,
        getRatio('blob', t, 'mbPerSec'),
        (v) => v >= 0.8,
        (v) => ratio(v),
      );
      const peak = get('blob', t, 'peakGrowthMiB');
      add(
        `5. ${t} peak RSS (above base) ≤ 3× payload`,
        peak === undefined ? undefined : (peak * MiB) / PLAN.blob.params.bytes,
        (v) => v <= 3,
        (v) => `${v.toFixed(2)}× (${peak.toFixed(1)} MiB)`,
      );
      const abs = get('blob', t, 'peakRssMiB');
      add(
        `5. ${t} peak RSS (whole process) ≤ 3× payload`,
        abs === undefined ? undefined : (abs * MiB) / PLAN.blob.params.bytes,
        (v) => v <= 3,
        (v) => `${v.toFixed(2)}× (${abs.toFixed(1)} MiB)`,
      );
    }
    if (summary.rss)
      add(
        `6. ${t} RSS growth over ${PLAN.rss.params.calls} calls ≤ 10 MiB`,
        get('rss', t, 'rssGrowthMiB'),
        (v) => v <= 10,
        (v) => `${v.toFixed(2)} MiB`,
      );
  }
  if (summary.footprint) {
    const fp = summary.footprint.both;
    add(
      '7. installed bytes ≤ 1/10 of sdk v1',
      fp.mcpc?.ratio?.bytes,
      (v) => v <= 0.1,
      (v) => `${v.toFixed(3)}×`,
    );
    add(
      '7. bytes on disk (du) ≤ 1/10 of sdk v1',
      fp.mcpc?.ratio?.diskBytes,
      (v) => v <= 0.1,
      (v) => `${v.toFixed(3)}×`,
    );
    add(
      '7. cold import ≤ 1/3 of sdk v1',
      fp.mcpc?.ratio?.importMs,
      (v) => v <= 1 / 3,
      (v) => `${v.toFixed(3)}×`,
    );
  }
  return rows;
}

const targetRows = targets();
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${platform()} ${release()} ${arch()}`,
  cpu: `${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}`,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  commit: (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    } catch {
      return undefined;
    }
  })(),
  quick: opts.quick,
  seconds: Math.round((performance.now() - started) / 1000),
  drivers: Object.fromEntries(
    drivers.map((d) => [
      d,
      { label: LABELS[d], node: nodeFor[d] === process.execPath ? process.version : 'v24 (npx node@24.21.0)' },
    ]),
  ),
  versions: (() => {
    const v = {};
    for (const p of [
      '@mcpc/client',
      '@modelcontextprotocol/sdk',
      '@modelcontextprotocol/client',
      '@ai-sdk/mcp',
      'undici',
    ]) {
      try {
        v[p] = JSON.parse(readFileSync(join(here, 'node_modules', p, 'package.json'), 'utf8')).version;
      } catch {
        /* not installed */
      }
    }
    return v;
  })(),
};

const report = [
  `## mcpc client benchmark${opts.quick ? ' (--quick: one round, smaller counts — a smoke run, not figures)' : ''}`,
  '',
  `${meta.date.slice(0, 10)} · Node ${meta.node} · ${meta.cpu} · ${meta.memoryGiB} GiB · ${meta.platform}${meta.commit ? ` · ${meta.commit}` : ''} · ${meta.seconds} s`,
  '',
  "Medians over fresh-process trials; ×limit is the median divided by the limit driver's median.",
  '',
];
for (const s of scenarios) report.push(s === 'footprint' ? footprintTable() : table(s), '');
if (targetRows.length) {
  report.push('### mcpc targets (issue #7)', '', '| target | mcpc | met |', '| --- | ---: | :---: |');
  for (const r of targetRows)
    report.push(
      `| ${r.target} | ${r.value === undefined ? '—' : r.shown(r.value)} | ${r.pass === undefined ? '—' : r.pass ? 'yes' : '**no**'} |`,
    );
  report.push('');
}
process.stdout.write(`${report.join('\n')}\n`);

const failed = trials.filter((t) => t.error);
await writeFile(
  outPath,
  `${JSON.stringify({ meta, plan: PLAN, scenarios, transports: opts.transports, summary, targets: targetRows.map(({ shown, ...r }) => r), trials }, null, 2)}\n`,
);
log(
  `${elapsed()} wrote ${relative(process.cwd(), outPath) || outPath}${failed.length ? `; ${failed.length} trial(s) failed` : ''}`,
);
process.exitCode = failed.length ? 1 : 0;
