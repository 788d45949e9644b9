#!/usr/bin/env node
// Runs the MCP conformance suite's client scenarios against client.mjs, and exits non-zero when any fails.
//
//   run.mjs [--scenario name] [--spec-version v] [--suite core|auth] [--concurrency n]
//
// The suite is @modelcontextprotocol/conformance, pinned in package.json. Its runner needs Node 22+, so it runs on
// Node 24 from the npm registry; the client under test runs on the Node that runs this script (the floor in CI).
//
// Which revisions: the core scenarios and the auth/* ones at 2025-11-25 and at 2026-07-28. A scenario the
// suite marks as not applicable at one of them (introduced at 2026-07-28, or an extension) is run there
// anyway (--force): one client serves both eras, and an issuer check or a retry limit is as much due at
// 2025-11-25. The two auth/2025-03-26-* scenarios test how a 2025-03-26 server (no protected resource
// metadata) is authorized, which later revisions removed: they run at 2025-03-26, their only revision.
//
// Each scenario's servers listen on ephemeral ports, so scenarios run a few at a time (--concurrency,
// default 3).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const RUNNER_NODE = process.env.MCPC_CONFORMANCE_NODE ?? 'node@24.21.0';
export const VERSIONS = ['2025-11-25', '2026-07-28'];
export const SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
  // The skills extension (SEP-2640): what a host owes when it lists and loads skills.
  'sep-2640-client-no-prefetch',
  'sep-2640-client-verify-digest',
  'sep-2640-client-verify-size',
  'sep-2640-client-verify-frontmatter',
];
/** Every auth/* client scenario of the pinned suite, run through @mcpc/oauth (auth.mjs). */
export const AUTH_SCENARIOS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  // Extensions.
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/wif-jwt-bearer',
  'auth/dpop',
  'auth/dpop-nonce',
];
/** Scenarios of one revision only, run there. */
export const SINGLE_REVISION = {
  'auth/2025-03-26-oauth-metadata-backcompat': '2025-03-26',
  'auth/2025-03-26-oauth-endpoint-fallback': '2025-03-26',
};
/**
 * Failures that are understood and owned elsewhere, by scenario: the checks that fail and why. Such a
 * run passes when exactly those checks fail; once it passes outright it is reported, so the entry is
 * removed.
 */
/** @type {Record<string, { checks: string[]; why: string }>} */
export const KNOWN_FAILURES = {};

/** The runs to make: { scenario, version } for each scenario at each of its revisions. */
export function plannedRuns({ suite, scenario, version } = {}) {
  const core = suite === 'auth' ? [] : SCENARIOS;
  const auth = suite === 'core' ? [] : AUTH_SCENARIOS;
  const runs = [];
  for (const v of VERSIONS) for (const s of [...core, ...auth]) runs.push({ scenario: s, version: v });
  if (suite !== 'core') for (const [s, v] of Object.entries(SINGLE_REVISION)) runs.push({ scenario: s, version: v });
  return runs.filter(
    (r) => (scenario === undefined || r.scenario === scenario) && (version === undefined || r.version === version),
  );
}

const runner = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);
const client = join(HERE, 'client.mjs');

let node24;
/** The Node 24 binary, fetched once through npx (the runner uses fs.globSync). */
export function runnerNode() {
  node24 ??= execFileSync('npx', ['-y', '-p', RUNNER_NODE, 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return node24;
}

// At most `limit` runner processes at once, whoever asks (the CLI's loop, concurrent vitest tests).
let limit = Number(process.env.MCPC_CONFORMANCE_CONCURRENCY ?? 3);
let active = 0;
const waiting = [];
export function setConcurrency(n) {
  limit = Math.max(1, n);
}
async function slot() {
  if (active >= limit) await new Promise((resolve) => waiting.push(resolve));
  active++;
  return () => {
    active--;
    waiting.shift()?.();
  };
}

/** The ids of the checks the runner printed as FAILURE or WARNING (it counts warnings as failures). */
const failedChecks = (output) => [
  ...new Set([...output.matchAll(/\[([\w.:/-]+)\s*\]\s+(?:FAILURE|WARNING)\b/g)].map((m) => m[1])),
];

/**
 * One scenario at one revision. Resolves { passed, summary, output, failed }: passed when the runner
 * reports OVERALL: PASSED (every check a success: its warnings count as failures); `failed` lists the
 * checks that were not. `expected`: a known failure, and whether this run is exactly it.
 */
export async function runScenario(scenario, version, { timeoutMs = 30_000, outputDir } = {}) {
  // The runner splits the command on spaces and appends the server URL: node itself, no wrapper.
  const command = `${process.execPath} ${client}`;
  if (/\s/.test(process.execPath) || /\s/.test(client))
    throw new Error('the conformance runner cannot take paths with spaces');
  const args = [
    runner,
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    '--spec-version',
    version,
    '--force',
    '--timeout',
    String(timeoutMs),
  ];
  // The runner shows the client's stderr only when it exits non-zero; its saved results have it always.
  const dir = outputDir ?? mkdtempSync(join(tmpdir(), 'mcpc-conformance-'));
  mkdirSync(dir, { recursive: true });
  args.push('-o', dir);
  const node = runnerNode();
  const release = await slot();
  try {
    const { code, output } = await new Promise((resolve, reject) => {
      const child = spawn(node, args, {
        cwd: HERE,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
      });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs + 30_000);
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (exit) => {
        clearTimeout(timer);
        resolve({ code: exit, output: text });
      });
    });
    let clean = output.replace(/\x1b\[[0-9;]*m/g, '');
    const summary = clean.match(/Passed: .*/)?.[0] ?? `runner exited with ${code}`;
    const passed = code === 0 && /OVERALL: PASSED/.test(clean);
    const failed = passed ? [] : failedChecks(clean);
    if (!passed) clean += `\n--- client stderr ---\n${clientStderr(dir)}`;
    const known = KNOWN_FAILURES[scenario];
    const expected =
      known === undefined || passed
        ? undefined
        : { why: known.why, exact: failed.length > 0 && failed.every((c) => known.checks.includes(c)) };
    return { passed, summary, output: clean, failed, expected };
  } finally {
    release();
    if (outputDir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

/** The client's stderr from the runner's saved results (`<dir>/<scenario>-<time>/stderr.txt`). */
function clientStderr(dir) {
  try {
    const file = readdirSync(dir, { recursive: true }).find((f) => String(f).endsWith('stderr.txt'));
    return file === undefined ? '(none saved)' : readFileSync(join(dir, String(file)), 'utf8').slice(-4000);
  } catch {
    return '(none saved)';
  }
}

/** How one result counts: PASS, XFAIL (exactly a known failure), XPASS (a known failure that passed: remove it), FAIL. */
export function verdict(scenario, result) {
  if (result.passed) return KNOWN_FAILURES[scenario] === undefined ? 'PASS' : 'XPASS';
  return result.expected?.exact === true ? 'XFAIL' : 'FAIL';
}

async function main() {
  const argv = process.argv.slice(2);
  const pick = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  if (pick('--concurrency') !== undefined) setConcurrency(Number(pick('--concurrency')));
  const runs = plannedRuns({ suite: pick('--suite'), scenario: pick('--scenario'), version: pick('--spec-version') });
  if (runs.length === 0) {
    console.error('no such scenario or revision');
    process.exit(2);
  }
  runnerNode();
  const started = Date.now();
  const counts = { PASS: 0, XFAIL: 0, XPASS: 0, FAIL: 0 };
  await Promise.all(
    runs.map(async ({ scenario, version }) => {
      const result = await runScenario(scenario, version);
      const v = verdict(scenario, result);
      counts[v]++;
      console.log(`${v.padEnd(5)}  ${version}  ${scenario.padEnd(44)} ${result.summary}`);
      if (v === 'XFAIL') console.log(`       known: ${result.expected.why}`);
      if (v === 'XPASS') console.log('       passes now: remove it from KNOWN_FAILURES in run.mjs');
      if (v === 'FAIL') console.log(result.output.split('\n').slice(-40).join('\n'));
    }),
  );
  const bad = counts.FAIL + counts.XPASS;
  console.log(
    `\nconformance: ${counts.PASS} passed, ${counts.XFAIL} known failures, ${bad} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  process.exit(bad === 0 ? 0 : 1);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
