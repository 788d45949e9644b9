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
// to the limit driver. Writes the figures as JSON. See README.md. This file runs the trials; what they compare is
// lib/catalog.mjs, their processes lib/processes.mjs, the medians lib/figures.mjs, the tables lib/report.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus, totalmem, platform, arch, release } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { install as installFootprint, PACKAGES as FOOTPRINT_PACKAGES, writeImportScript } from './lib/footprint.mjs';
import {
  ALL_DRIVERS,
  ALL_SCENARIOS,
  ERAS,
  LABELS,
  TRACING_DRIVERS,
  TRACING_TRANSPORTS,
  planFor,
  runsOn,
  titlesFor,
} from './lib/catalog.mjs';
import { METRICS, median, summarize } from './lib/figures.mjs';
import { ENV_NAMES, runNode, startHttpServer } from './lib/processes.mjs';
import { renderReport } from './lib/report.mjs';
import { checkModules, installWithoutOtel, pairedTrials } from './lib/tracing.mjs';
import { parseArgs } from './lib/args.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const serverPath = join(here, 'lib', 'server.mjs');
const modernServerPath = join(here, 'lib', 'server-modern.mjs');
const trialPath = join(here, 'lib', 'trial.mjs');
const PNPM = ['npx', '-y', 'pnpm@10.34.8'];
const NODE24 = 'node@24.21.0';

// ---------- arguments ----------
const { opts, saved } = parseArgs(process.argv.slice(2));
if (saved) opts.transports = saved.transports;
// The limit driver is the yardstick: it always runs (except for footprint, where it has nothing to install).
const drivers = saved
  ? Object.keys(saved.meta.drivers)
  : ['limit', ...ALL_DRIVERS.filter((d) => d !== 'limit' && opts.drivers.includes(d))];
const scenarios = saved ? saved.scenarios : ALL_SCENARIOS.filter((s) => opts.only.includes(s));
const outPath = opts.out ?? join(here, opts.quick ? 'results.quick.json' : 'results.json');

const PLAN = saved ? saved.plan : planFor(opts.quick);
if (opts.rounds !== undefined) for (const s of Object.values(PLAN)) s.rounds = opts.rounds;
const TITLES = titlesFor(PLAN);

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
    const server = await startHttpServer(serverPath, tools, transport === 'http-json');
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

async function trial(driver, scenario, transport, plan, extra) {
  const { target, stop } = await targetFor(transport, fillers(scenario, plan.params ?? {}));
  try {
    const spec = {
      driver,
      scenario,
      target: { ...target, ...extra },
      params: plan.params ?? {},
      budgetMs: plan.budgetMs,
    };
    return await runNode(
      nodeFor[driver] ?? process.execPath,
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
      nodeFor[driver] ?? process.execPath,
      [...trialFlags(`suite-${transport}-${driver}`), trialPath, JSON.stringify(spec)],
      { budgetMs, cwd: here },
    );
  } finally {
    await Promise.all([main.stop(), list?.stop()]);
  }
}

/** A B C … then … C B A, and again: drift on a shared machine falls evenly on every driver. */
const orderFor = (round, list) => (round % 2 === 0 ? list : [...list].reverse());

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

const transportsOf = (scenario) =>
  scenario === 'era'
    ? ERAS
    : scenario === 'tracing'
      ? TRACING_TRANSPORTS.filter((t) => opts.transports.includes(t))
      : opts.transports;

/** Scenario 9: mcpc's tracing rows, with the client installed without @opentelemetry/api for the absent row. */
async function runTracing() {
  log(`${elapsed()} ${TITLES.tracing}: packing mcpc, npm install without @opentelemetry/api`);
  const { clientDir, cleanup } = await installWithoutOtel({ repoRoot, pnpm: PNPM, log });
  try {
    await runScenario('tracing', TRACING_DRIVERS, { 'mcpc-otel-absent': { clientDir } });
    const transports = transportsOf('tracing');
    const paired = PLAN.tracing.paired;
    summary.tracing.paired = await pairedTrials({ here, transports, clientDir, plan: paired, targetFor, log });
    summary.tracing.modules = await checkModules({ here, clientDir, serverPath });
  } finally {
    await cleanup();
  }
}

async function runScenario(scenario, scenarioDrivers = drivers, extras = {}) {
  const plan = PLAN[scenario];
  summary[scenario] = {};
  for (const transport of transportsOf(scenario)) {
    log(`${elapsed()} ${TITLES[scenario]} — ${transport}, ${plan.rounds} round(s)`);
    const present = scenarioDrivers.filter((d) => runsOn(d, transport));
    const byDriver = Object.fromEntries(present.map((d) => [d, []]));
    for (let round = 0; round < plan.rounds; round++) {
      for (const driver of orderFor(round, present)) {
        const result = await withNodeFallback(driver, () => trial(driver, scenario, transport, plan, extras[driver]));
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

async function runFootprint() {
  const plan = PLAN.footprint;
  // mcpc's rows: the minimal install (and its client alone), and the one with its optional undici.
  const fpDrivers = drivers
    .flatMap((d) => (d === 'mcpc' ? ['mcpc', 'mcpc-client', 'mcpc+undici'] : [d]))
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
      scripts[d] = await writeImportScript(installed.projects[d], FOOTPRINT_PACKAGES[d].imports, `import-${d}.mjs`);
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
// --quick runs the era and tracing scenarios as their own trials (their drivers or servers differ).
const own = (s) => s === 'era' || s === 'tracing';
const suited = measured.filter((s) => !own(s));
if (saved) Object.assign(summary, saved.summary);
else {
  if (opts.quick && suited.length) await runSuite(suited);
  for (const scenario of measured)
    if (scenario === 'tracing') await runTracing();
    else if (!opts.quick || own(scenario)) await runScenario(scenario);
  if (scenarios.includes('footprint')) await runFootprint();
}

/** The installed versions of the clients and servers compared, read once for the report and the results file. */
const versions = {};
for (const p of [
  '@mcpc/client',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/client',
  '@ai-sdk/mcp',
  '@modelcontextprotocol/server',
  'undici',
]) {
  try {
    versions[p] = JSON.parse(readFileSync(join(here, 'node_modules', p, 'package.json'), 'utf8')).version;
  } catch {
    /* not installed */
  }
}
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
    `**Server:** \`lib/server.mjs\`, the official SDK's low-level \`Server\` (@modelcontextprotocol/sdk ${versions['@modelcontextprotocol/sdk']}); Streamable HTTP in session mode, POSTs answered with SSE streams as the SDK does by default (\`http (SSE)\` columns) and, as a second variant, with JSON bodies (\`enableJsonResponse\`: \`http (JSON)\` columns). Era rows: \`lib/server-modern.mjs\`, the SDK v2 server (@modelcontextprotocol/server ${versions['@modelcontextprotocol/server']}) on stdio, which answers both eras.`,
    `**Install:** \`mcpc\` is the default install (no undici: its Streamable HTTP transport on \`node:http\`); \`mcpc + undici\` is the install with the optional undici ${versions['undici']} (its transport then on undici; undici's import is in its connect row and in the cold import). The limit driver (\`drivers/limit.mjs\`) is hand-written: its own framing, one pending map; stdio in \`limit-stdio.mjs\` (one decode per chunk, \`indexOf\` framing), HTTP in \`limit-http.mjs\` (one undici \`Pool\`, \`dispatch()\` with a bare handler, a hand SSE split).`,
    `**Environment:** every server and trial process starts with ${ENV_NAMES.join(', ')} only (stdio servers inherit them); nothing else of this shell's environment (no NODE_OPTIONS, NODE_EXTRA_CA_CERTS, proxies).`,
  ],
  versions,
};

const { text, targets: targetRows } = renderReport({
  meta,
  plan: PLAN,
  scenarios,
  transports: opts.transports,
  summary,
});
process.stdout.write(text);
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
