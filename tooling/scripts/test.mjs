#!/usr/bin/env node
// The whole test command: build, typecheck and lint every package, then run the suite on the floor Node and the LTS.
//
// Lint includes publint and attw. The supported floor is the Node running this script; the current LTS is Node 24,
// taken from the npm registry, as a CI matrix would. Ends with each failed test by name, then one "Tests: N passed,
// N failed" line: a CI log cut to its tail still says what failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemDeps } from './system-deps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const LTS = process.env.MCPC_TEST_LTS_NODE ?? 'node@24.21.0';
const resultsDir = join(root, '.vitest-results');
// pnpm hands its own settings to scripts as npm_config_* variables; the npm behind `npx` (the Node 24
// leg, servers the tests start with npx) warns once per process about each one it does not know.
const PNPM_ONLY_CONFIG = /^npm_config_(verify_deps_before_run|npm_globalconfig|_jsr_registry)$/i;
const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !PNPM_ONLY_CONFIG.test(key)));
const env = {
  ...inherited,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  FORCE_COLOR: process.env.FORCE_COLOR ?? '0',
};

function run(label, command, args, extraEnv = {}) {
  console.log(`\n▶ ${label}: ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function fail(message) {
  console.error(`\n✖ ${message}`);
  process.exit(1);
}

// tmux and Chromium come from Debian: installed here when missing, so this command alone runs on a fresh machine.
for (const line of ensureSystemDeps()) console.error(`warning: ${line}`);

const turbo = join(root, 'node_modules', '.bin', 'turbo');
if (run('build, typecheck, lint', turbo, ['run', 'build', 'typecheck', 'lint', '--output-logs=errors-only']) !== 0) {
  fail('build, typecheck or lint failed');
}

// The formatter is part of lint: style stays out of review.
const prettier = join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
if (run('format check', process.execPath, [prettier, '--check', '--log-level=warn', '.']) !== 0) {
  fail('prettier found unformatted files: run `npx -y pnpm@10.34.8 format`');
}

rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const extra = process.argv.slice(2);
/**
 * The LTS Node's own binary, fetched once through npx. The suite is then run by that binary directly:
 * run under `npx`, every process it starts would inherit npx's `npm_config_package`, and a nested
 * `npx some-package` (a test's server, `pnpm pack`) would run the wrong package.
 */
function ltsNode() {
  const r = spawnSync('npx', ['-y', '-p', LTS, 'node', '-e', 'process.stdout.write(process.execPath)'], {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.error) throw r.error;
  if (r.status !== 0 || r.stdout === '') fail(`could not fetch ${LTS} through npx (exit ${r.status})`);
  return r.stdout;
}

/** One line per failed test (or file that failed to load): runtime, file, test name and its message's first line. */
function failuresOf(report, runtime) {
  const lines = [];
  for (const file of report.testResults ?? []) {
    const path = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed)
      lines.push(`  ${runtime} · ${path} › ${test.fullName} — ${firstLine(test.failureMessages)}`);
    if (failed.length === 0 && file.status === 'failed')
      lines.push(`  ${runtime} · ${path} — ${firstLine([file.message])}`);
  }
  return lines;
}

function firstLine(messages) {
  const text = (messages ?? []).find((message) => typeof message === 'string' && message !== '') ?? '(no message)';
  const line = text.split('\n', 1)[0];
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

const matrix = [
  { name: `Node ${process.versions.node}`, command: process.execPath, args: [] },
  // The conformance suite judges the protocol, not the runtime: once, on the floor, is enough.
  { name: LTS, command: ltsNode(), args: [], env: { MCPC_CONFORMANCE_SKIP: '1' } },
];

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
let broken = false;
for (const [i, entry] of matrix.entries()) {
  const out = join(resultsDir, `run-${i}.json`);
  const status = run(
    `tests on ${entry.name}`,
    entry.command,
    [...entry.args, vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra],
    entry.env,
  );
  let report;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    fail(`tests on ${entry.name} produced no report (exit ${status})`);
  }
  const passed = report.numPassedTests;
  // A file that failed without a failing test (an import error) still counts once.
  const failed = report.numFailedTests > 0 ? report.numFailedTests : (report.numFailedTestSuites ?? 0);
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`${entry.name}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  failures.push(...failuresOf(report, entry.name));
  if (status !== 0 || failed > 0 || passed === 0) broken = true;
}

if (failures.length > 0) console.log(`\nFailed:\n${failures.join('\n')}`);
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(broken ? 1 : 0);
