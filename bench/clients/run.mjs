#!/usr/bin/env node
// The clients benchmark: MCP clients side by side against one benchmark server, each trial in a fresh process.
//
// pnpm bench [--quick] [--only <scenario,…>] [--drivers <driver,…>] [--transports stdio,http,http-json]
//            [--rounds N] [--out file.json] [--no-build]
// pnpm bench --report results.json   (prints a saved run's report again, running nothing)
//
// Runs MCP clients side by side against one benchmark server (the official SDK's) over stdio and
// Streamable HTTP (SSE answers, the SDK's default; JSON answers as a labelled variant), and the
// 2026-07-28 era against the SDK v2 server, each trial in a fresh process with the same minimal
// environment, drivers alternating A B … B A over the rounds; prints medians with each driver's ratio
// to the limit driver. Writes the figures as JSON. See README.md.
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
const modernServerPath = join(here, 'lib', 'server-modern.mjs');
const trialPath = join(here, 'lib', 'trial.mjs');
const PNPM = ['npx', '-y', 'pnpm@10.34.8'];
const NODE24 = 'node@24.21.0';
const MiB = 1024 * 1024;

const ALL_DRIVERS = ['limit', 'mcpc', 'mcpc-undici', 'sdk1', 'sdk2', 'aisdk'];
const ALL_TRANSPORTS = ['stdio', 'http', 'http-json'];
// mcpc-undici differs from mcpc on HTTP only (its transport on undici instead of node:http).
const TRANSPORTS_OF = { 'mcpc-undici': ['http', 'http-json'] };
/** The era scenario's drivers: those that speak MCP 2026-07-28 and can be pinned to either era (SDK v1 cannot: classic only). */
const MODERN_DRIVERS = ['limit', 'mcpc', 'sdk2', 'aisdk'];
const ERAS = ['classic', 'modern'];
const runsOn = (driver, transport) =>
  transport === 'modern'
    ? MODERN_DRIVERS.includes(driver)
    : transport === 'classic'
      ? driver !== 'mcpc-undici'
      : (TRANSPORTS_OF[driver] ?? ALL_TRANSPORTS).includes(transport);
const TRANSPORT_LABELS = {
  stdio: 'stdio',
  http: 'http (SSE)',
  'http-json': 'http (JSON)',
  classic: 'classic',
  modern: '2026-07-28',
};
const LABELS = {
  limit: 'limit',
  mcpc: 'mcpc (default install: node:http)',
  'mcpc-undici': 'mcpc + undici',
  'mcpc+undici': 'mcpc + undici',
  sdk1: 'sdk v1 (1.32.2)',
  sdk2: 'sdk v2 (2.4.0)',
  aisdk: 'ai-sdk (2.0.99)',
};
const ALL_SCENARIOS = ['connect', 'sequential', 'concurrent', 'list', 'blob', 'rss', 'footprint', 'era'];
/** The only variables every server and trial process starts with (the stdio servers inherit them). */
const ENV_NAMES = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];
const BASE_ENV = Object.fromEntries(
  ENV_NAMES.filter((n) => process.env[n] !== undefined).map((n) => [n, process.env[n]]),
);
const TITLES = {
  connect: '1. connect (spawn included on stdio) to the first tools/list',
  sequential: '2. sequential echo calls',
  concurrent: '3. echo calls, 64 in flight',
  list: '4. tools/list of 1,000 tools',
  blob: '5. one 16 MiB blob result', // the size is set from the plan below
  rss: '6. RSS after 10,000 calls',
  era: '8. the 2026-07-28 era against the classic one, same server (SDK v2), stdio, 64 in flight',
  footprint: '7. install footprint and cold import',
};

// ---------- arguments ----------
function usage(message) {
  if (message) console.error(message);
  console.error(
    `usage: node bench/clients/run.mjs [--quick] [--only ${ALL_SCENARIOS.join(',')}] [--drivers ${ALL_DRIVERS.join(',')}]\n` +
      '       [--transports stdio,http,http-json] [--rounds N] [--out results.json] [--no-build] [--cpu-prof]\n' +
      "       node bench/clients/run.mjs --report results.json   (a saved run's report again, running nothing)",
  );
  process.exit(2);
}
const argv = process.argv.slice(2);
const opts = {
  quick: false,
  only: ALL_SCENARIOS,
  drivers: ALL_DRIVERS,
  transports: ALL_TRANSPORTS,
  rounds: undefined,
  out: undefined,
  build: true,
  cpuProf: false,
  report: undefined,
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
  else if (a === '--transports') opts.transports = list(value(), ALL_TRANSPORTS, 'transport');
  else if (a === '--rounds') {
    opts.rounds = Number(value());
    if (!Number.isInteger(opts.rounds) || opts.rounds < 1 || opts.rounds > 50) usage('--rounds must be 1..50');
  } else if (a === '--out') opts.out = value();
  else if (a === '--no-build') opts.build = false;
  else if (a === '--cpu-prof') opts.cpuProf = true;
  else if (a === '--report') opts.report = value();
  else if (a === '--help' || a === '-h') usage();
  else usage(`unknown argument ${a}`);
}
/** --report: a saved run (its meta, plan, scenarios, transports and medians), rendered again as it ran. */
const saved = opts.report === undefined ? undefined : readSaved(opts.report);
function readSaved(path) {
  let run;
  try {
    run = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    usage(`--report ${path}: ${error.message}`);
  }
  for (const key of ['meta', 'plan', 'scenarios', 'transports', 'summary'])
    if (run?.[key] === undefined) usage(`--report ${path}: not a results file of this bench (no "${key}")`);
  return run;
}
if (saved) opts.transports = saved.transports;
// The limit driver is the yardstick: it always runs (except for footprint, where it has nothing to install).
const drivers = saved
  ? Object.keys(saved.meta.drivers)
  : ['limit', ...ALL_DRIVERS.filter((d) => d !== 'limit' && opts.drivers.includes(d))];
const scenarios = saved ? saved.scenarios : ALL_SCENARIOS.filter((s) => opts.only.includes(s));
/** The Node the run's own process was on: a driver on another Node is marked in the tables. */
const runNodeVersion = saved ? saved.meta.node : process.version;
const outPath = opts.out ?? join(here, opts.quick ? 'results.quick.json' : 'results.json');

// ---------- what each scenario does, full and --quick ----------
const BLOB = 16 * MiB;
const PLAN = saved
  ? saved.plan
  : opts.quick
    ? {
        connect: { rounds: 1, budgetMs: 20_000 },
        sequential: { rounds: 1, budgetMs: 20_000, params: { warmup: 100, calls: 500 } },
        concurrent: { rounds: 1, budgetMs: 20_000, params: { warmup: 300, calls: 2000, inFlight: 64 } },
        list: { rounds: 1, budgetMs: 20_000, params: { tools: 1000, warmup: 1, lists: 5 } },
        blob: { rounds: 1, budgetMs: 20_000, params: { bytes: BLOB } },
        rss: { rounds: 1, budgetMs: 20_000, params: { warmup: 300, maxWarmup: 300, calls: 1000, inFlight: 64 } },
        era: { rounds: 1, budgetMs: 20_000, params: { warmup: 300, calls: 2000, inFlight: 64 } },
        footprint: { rounds: 3, reuse: true },
        suite: { rounds: 1, budgetMs: 45_000 },
      }
    : {
        connect: { rounds: 7, budgetMs: 30_000 },
        // Sequential stdio is the noisiest figure on a shared machine: more rounds, CPU per call the primary figure.
        sequential: { rounds: 9, budgetMs: 60_000, params: { warmup: 300, calls: 2000 } },
        concurrent: { rounds: 5, budgetMs: 90_000, params: { warmup: 1000, calls: 10_000, inFlight: 64 } },
        list: { rounds: 5, budgetMs: 60_000, params: { tools: 1000, warmup: 3, lists: 20 } },
        blob: { rounds: 5, budgetMs: 60_000, params: { bytes: BLOB } },
        rss: { rounds: 3, budgetMs: 120_000, params: { warmup: 1000, maxWarmup: 10_000, calls: 10_000, inFlight: 64 } },
        era: { rounds: 7, budgetMs: 90_000, params: { warmup: 1000, calls: 10_000, inFlight: 64 } },
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
if (!saved && !existsSync(join(here, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'))) {
  sh(PNPM[0], [...PNPM.slice(1), 'install', '--frozen-lockfile']);
}
if (opts.build && !saved) {
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
function startHttpServer(tools, json) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        serverPath,
        '--transport',
        'http',
        ...(json ? ['--json'] : []),
        '--tools',
        String(tools),
        '--max-lifetime',
        '300000',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'], env: BASE_ENV },
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
    const child = spawn(nodeBin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: BASE_ENV });
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
  if (transport === 'http' || transport === 'http-json') {
    const server = await startHttpServer(tools, transport === 'http-json');
    return { target: { transport: 'http', url: server.url }, stop: () => server.stop() };
  }
  if (ERAS.includes(transport)) {
    // The dual-era SDK v2 server, the era pinned on the driver's side.
    const args = [modernServerPath, '--max-lifetime', '300000'];
    return { target: { transport: 'stdio', command: process.execPath, args, era: transport }, stop: async () => {} };
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
/** Linear-interpolated quantile of sorted numbers. */
const quartile = (sorted, q) => {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
};
const METRICS = {
  connect: ['ms'],
  sequential: ['callsPerSec', 'p50Ms', 'p99Ms', 'cpuUsPerCall', 'steadyCpuUsPerCall'],
  concurrent: [
    'callsPerSec',
    'cpuUsPerCall',
    'helperCpuUsPerCall',
    'steadyCallsPerSec',
    'steadyCpuUsPerCall',
    'steadyHelperCpuUsPerCall',
  ],
  era: ['callsPerSec', 'cpuUsPerCall'],
  list: ['msPerList', 'cpuMsPerList'],
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

const transportsOf = (scenario) => (scenario === 'era' ? ERAS : opts.transports);

async function runScenario(scenario) {
  const plan = PLAN[scenario];
  summary[scenario] = {};
  for (const transport of transportsOf(scenario)) {
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
    // The spread of CPU per call over the rounds: min–max and the quartiles.
    const cpu = ok
      .map((r) => r.cpuUsPerCall)
      .filter((v) => typeof v === 'number')
      .sort((a, b) => a - b);
    if (cpu.length)
      entry.cpuSpread = { min: cpu[0], p25: quartile(cpu, 0.25), p75: quartile(cpu, 0.75), max: cpu.at(-1) };
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
const suited = measured.filter((s) => s !== 'era');
if (saved) Object.assign(summary, saved.summary);
else {
  if (opts.quick && suited.length) await runSuite(suited);
  for (const scenario of measured) if (!opts.quick || scenario === 'era') await runScenario(scenario);
  if (scenarios.includes('footprint')) await runFootprint();
}

// ---------- report ----------
const fmt = (v, digits) =>
  v === undefined ? '—' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratio = (v) => (v === undefined ? '—' : `${v.toFixed(2)}×`);
const mark = (driver, transport, scenario) => {
  const e = summary[scenario]?.[transport]?.[driver];
  const notes = [];
  if (e?.node && e.node !== runNodeVersion) notes.push(`Node ${e.node.slice(1)}`);
  if (e?.errors) notes.push(`${e.errors.length} failed`);
  return notes.length ? ` (${notes.join(', ')})` : '';
};
/** @type {Record<string, Array<[string, string, number, boolean]>>} [metric, header, digits, with ratio] */
const COLUMNS = {
  connect: [['ms', 'ms', 1, true]],
  sequential: [
    ['cpuUsPerCall', 'CPU µs/call', 1, true],
    ['cpuSpread', 'CPU min–max', 1, false],
    ['steadyCpuUsPerCall', 'steady CPU µs/call', 1, true],
    ['callsPerSec', 'calls/s', 0, true],
    ['p50Ms', 'p50 ms', 3, false],
    ['p99Ms', 'p99 ms', 3, false],
  ],
  concurrent: [
    ['callsPerSec', 'calls/s', 0, true],
    ['cpuUsPerCall', 'CPU µs/call', 1, true],
    ['cpuSpread', 'CPU min–max', 1, false],
    ['steadyCpuUsPerCall', 'steady CPU µs/call', 1, true],
    ['helperSplit', 'of CPU, V8 helper threads: first / steady', 0, false],
  ],
  era: [
    ['cpuUsPerCall', 'CPU µs/call', 1, true],
    ['cpuSpread', 'CPU min–max', 1, false],
    ['callsPerSec', 'calls/s', 0, true],
  ],
  list: [
    ['msPerList', 'ms/list', 2, true],
    ['cpuMsPerList', 'CPU ms/list', 2, true],
  ],
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

/** A driver's CPU per call in the 2026-07-28 era over its CPU per call in the classic era, same server. */
const eraRatio = (d) => {
  const m = summary.era?.modern?.[d]?.cpuUsPerCall;
  const c = summary.era?.classic?.[d]?.cpuUsPerCall;
  return m !== undefined && c ? m / c : undefined;
};
function versionOf(p) {
  if (saved) return saved.meta.versions?.[p];
  try {
    return JSON.parse(readFileSync(join(here, 'node_modules', p, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

function table(scenario) {
  const plan = PLAN[scenario];
  const lines = [];
  const p = plan.params ?? {};
  const detail = {
    connect: '',
    sequential: ` (${p.calls} calls after ${p.warmup} warm-up; steady: the next ${p.calls}, once V8 has compiled the hot paths)`,
    concurrent: ` (${p.calls} calls, ${p.inFlight} in flight, after ${p.warmup} warm-up; steady: the next ${p.calls}, once V8 has compiled the hot paths)`,
    list: ` (median of ${p.lists} lists; CPU of the client process per list)`,
    era: ` (lib/server-modern.mjs: @modelcontextprotocol/server ${versionOf('@modelcontextprotocol/server')}, both eras; ${p.calls} calls after ${p.warmup} warm-up; each trial first asks the server which era it sees; SDK v1 speaks no 2026-07-28, so its row is classic only)`,
    blob: ' (peak − base: the peak RSS above the RSS just before the call)',
    rss: ` (${p.calls} calls, ${p.inFlight} in flight, after a warm-up of ${p.warmup}–${p.maxWarmup} calls that ends once V8's young generation stops growing; gc before and after; heap growth is what a leak shows as)`,
  }[scenario];
  lines.push(`### ${TITLES[scenario]}${detail}`, '');
  const cols = COLUMNS[scenario];
  const ts = transportsOf(scenario);
  const header = ['driver'];
  for (const t of ts)
    for (const [, h, , r] of cols) header.push(`${TRANSPORT_LABELS[t]} ${h}`, ...(r ? ['×limit'] : []));
  if (scenario === 'era') header.push('CPU 2026-07-28 ÷ classic');
  lines.push(`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  for (const d of drivers) {
    if (!ts.some((t) => runsOn(d, t))) continue;
    const row = [
      `${LABELS[d]}${mark(
        d,
        ts.find((t) => runsOn(d, t)),
        scenario,
      )}`,
    ];
    for (const t of ts) {
      const e = summary[scenario]?.[t]?.[d];
      for (const [m, , digits, r] of cols)
        row.push(
          m === 'cpuSpread'
            ? e?.cpuSpread
              ? `${fmt(e.cpuSpread.min, digits)}–${fmt(e.cpuSpread.max, digits)}`
              : '—'
            : m === 'helperSplit'
              ? `${fmt(e?.helperCpuUsPerCall, digits)} / ${fmt(e?.steadyHelperCpuUsPerCall, digits)}`
              : fmt(e?.[m], digits),
          ...(r ? [ratio(e?.ratio?.[m])] : []),
        );
    }
    if (scenario === 'era') row.push(ratio(eraRatio(d)));
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
    const node = e.node && e.node !== runNodeVersion ? ` (Node ${e.node.slice(1)})` : '';
    lines.push(
      `| ${LABELS[d]}${node} | ${fmt(e.bytes / 1e6, 2)} | ${ratio(e.ratio.bytes)} | ${fmt(e.diskBytes / 1e6, 2)} | ${ratio(e.ratio.diskBytes)} | ${fmt(e.files, 0)} | ${fmt(e.packages, 0)} | ${fmt(e.importMs, 1)} | ${ratio(e.ratio.importMs)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The targets of issue #18, on the medians of this run: each row's figure for every driver (ratios to the
 * limit driver in this run, or to the payload / SDK v1 where the row says so), and whether mcpc meets it.
 */
function targets() {
  const rows = [];
  const e = (s, t, d) => summary[s]?.[t]?.[d];
  const r = (s, t, m) => (d) => e(s, t, d)?.ratio?.[m];
  const peers = ['sdk1', 'sdk2', 'aisdk'];
  /** `of(d)` is the row's figure for driver d; `pass(v)` judges mcpc's; `note(v)` adds to mcpc's cell. */
  const add = (target, of, pass, note = () => '', digits = 2) => {
    const values = Object.fromEntries(TARGET_COLUMNS.map((d) => [d, of(d)]));
    const value = values.mcpc;
    rows.push({
      target,
      values,
      value,
      digits,
      note: value === undefined ? '' : note(value),
      pass: value === undefined ? undefined : pass(value),
    });
  };
  const ahead = (s, t, m) => {
    const own = e(s, t, 'mcpc')?.[m];
    const others = peers.map((d) => e(s, t, d)?.[m]).filter((v) => v !== undefined);
    return own === undefined || others.length === 0 ? undefined : own < Math.min(...others);
  };
  if (summary.concurrent?.stdio) {
    add('stdio, 64 in flight: calls/s ≥ 0.95× limit', r('concurrent', 'stdio', 'callsPerSec'), (v) => v >= 0.95);
    add('stdio, 64 in flight: CPU/call ≤ 1.2× limit', r('concurrent', 'stdio', 'cpuUsPerCall'), (v) => v <= 1.2);
    add(
      'stdio, 64 in flight: steady calls/s (the next 10,000 calls) ≥ 0.95× limit (not in the issue)',
      r('concurrent', 'stdio', 'steadyCallsPerSec'),
      (v) => v >= 0.95,
    );
    add(
      'stdio, 64 in flight: steady CPU/call (the next 10,000 calls) ≤ 1.2× limit (not in the issue)',
      r('concurrent', 'stdio', 'steadyCpuUsPerCall'),
      (v) => v <= 1.2,
    );
  }
  if (summary.sequential?.stdio)
    add(
      'stdio, sequential: CPU/call ≤ 1.2× limit (not in the issue)',
      r('sequential', 'stdio', 'cpuUsPerCall'),
      (v) => v <= 1.2,
    );
  if (summary.concurrent?.http)
    add(
      'HTTP (SSE), 64 in flight: CPU/call ≤ 1.2× limit (mcpc: node:http, the default install)',
      r('concurrent', 'http', 'cpuUsPerCall'),
      (v) => v <= 1.2,
    );
  for (const t of ['stdio', 'http']) {
    if (!summary.list?.[t]) continue;
    for (const [m, what] of [
      ['msPerList', 'ms'],
      ['cpuMsPerList', 'CPU'],
    ]) {
      const lead = ahead('list', t, m);
      add(
        `tools/list of 1,000 tools, ${TRANSPORT_LABELS[t]}: ${what} ≤ 1.2× limit, ahead of every peer`,
        r('list', t, m),
        (v) => v <= 1.2 && lead !== false,
        () => (lead === undefined ? '' : lead ? ', ahead' : ', **not ahead**'),
      );
    }
  }
  if (summary.blob?.http)
    add('16 MiB result over SSE: MB/s ≥ 0.9× limit', r('blob', 'http', 'mbPerSec'), (v) => v >= 0.9);
  if (summary.era)
    add(
      "2026-07-28 era: CPU/call ÷ the classic era's, same server and transport (stdio) ≤ 1.15 (the limit column: the protocol's own cost)",
      eraRatio,
      (v) => v <= 1.15,
    );
  for (const t of ['stdio', 'http']) {
    if (!summary.blob?.[t]) continue;
    add(
      `peak RSS above base for ${PLAN.blob.params.bytes / MiB} MiB, ${TRANSPORT_LABELS[t]}: ≤ 2× payload`,
      (d) => {
        const peak = e('blob', t, d)?.peakGrowthMiB;
        return peak === undefined ? undefined : (peak * MiB) / PLAN.blob.params.bytes;
      },
      (v) => v <= 2,
      (v) => ` (${((v * PLAN.blob.params.bytes) / MiB).toFixed(1)} MiB)`,
    );
  }
  if (summary.footprint) {
    const fp = summary.footprint.both;
    const of = (m) => (d) => fp[d === 'mcpc-undici' ? 'mcpc+undici' : d]?.ratio?.[m];
    add(
      'installed bytes ≤ 1/10 of sdk v1 (client + stdio + Streamable HTTP)',
      of('bytes'),
      (v) => v <= 0.1,
      () => '',
      3,
    );
    add(
      'cold import ≤ 1/3 of sdk v1',
      of('importMs'),
      (v) => v <= 1 / 3,
      () => '',
      3,
    );
  }
  return rows;
}
/** The drivers a target row shows, in the tables' order; the limit has no install (footprint rows: —). */
const TARGET_COLUMNS = ['limit', 'mcpc', 'mcpc-undici', 'sdk1', 'sdk2', 'aisdk'];

const targetRows = targets();
const meta = saved?.meta ?? {
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
  setup: [
    `**Server:** \`lib/server.mjs\`, the official SDK's low-level \`Server\` (@modelcontextprotocol/sdk ${versionOf('@modelcontextprotocol/sdk')}); Streamable HTTP in session mode, POSTs answered with SSE streams as the SDK does by default (\`http (SSE)\` columns) and, as a second variant, with JSON bodies (\`enableJsonResponse\`: \`http (JSON)\` columns). Era rows: \`lib/server-modern.mjs\`, the SDK v2 server (@modelcontextprotocol/server ${versionOf('@modelcontextprotocol/server')}) on stdio, which answers both eras.`,
    `**Install:** \`mcpc\` is the default install (no undici: its Streamable HTTP transport on \`node:http\`); \`mcpc + undici\` is the install with the optional undici ${versionOf('undici')} (its transport then on undici; undici's import is in its connect row and in the cold import). The limit driver (\`drivers/limit.mjs\`) is hand-written: its own framing, one pending map, HTTP through undici's \`request\`.`,
    `**Environment:** every server and trial process starts with ${ENV_NAMES.join(', ')} only (stdio servers inherit them); nothing else of this shell's environment (no NODE_OPTIONS, NODE_EXTRA_CA_CERTS, proxies).`,
  ],
  versions: (() => {
    const v = {};
    for (const p of [
      '@mcpc/client',
      '@modelcontextprotocol/sdk',
      '@modelcontextprotocol/client',
      '@ai-sdk/mcp',
      '@modelcontextprotocol/server',
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
  `## mcpc client benchmark${meta.quick ? ' (--quick: one round, smaller counts — a smoke run, not figures)' : ''}`,
  '',
  `${meta.date.slice(0, 10)} · Node ${meta.node} · ${meta.cpu} · ${meta.memoryGiB} GiB · ${meta.platform}${meta.commit ? ` · ${meta.commit}` : ''} · ${meta.seconds} s`,
  '',
  "Medians over fresh-process trials; ×limit is the median divided by the limit driver's median.",
  '',
  ...meta.setup.map((line) => `- ${line}`),
  '',
];
for (const s of scenarios) report.push(s === 'footprint' ? footprintTable() : table(s), '');
if (targetRows.length) {
  const shownColumns = TARGET_COLUMNS.filter((d) => drivers.includes(d));
  report.push(
    "### Targets (issue #18): every driver's figure; met is mcpc's (default install)",
    '',
    `| target | ${shownColumns.map((d) => LABELS[d]).join(' | ')} | mcpc met |`,
    `| --- | ${shownColumns.map(() => '---:').join(' | ')} | :---: |`,
  );
  for (const r of targetRows) {
    const cells = shownColumns.map((d) => {
      const v = r.values[d];
      if (v === undefined) return '—';
      const cell = `${v.toFixed(r.digits)}×`;
      return d === 'mcpc' ? `**${cell}**${r.note}` : cell;
    });
    report.push(`| ${r.target} | ${cells.join(' | ')} | ${r.pass === undefined ? '—' : r.pass ? 'yes' : '**no**'} |`);
  }
  report.push('');
}
process.stdout.write(`${report.join('\n')}\n`);
if (saved) process.exit(0);

const failed = trials.filter((t) => t.error);
await writeFile(
  outPath,
  `${JSON.stringify({ meta, plan: PLAN, scenarios, transports: opts.transports, summary, targets: targetRows, trials }, null, 2)}\n`,
);
log(
  `${elapsed()} wrote ${relative(process.cwd(), outPath) || outPath}${failed.length ? `; ${failed.length} trial(s) failed` : ''}`,
);
process.exitCode = failed.length ? 1 : 0;
