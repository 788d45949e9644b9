#!/usr/bin/env node
// run.mjs [--scenario name] [--spec-version v]: runs the MCP conformance suite's client scenarios
// (@modelcontextprotocol/conformance, pinned in package.json) against client.mjs, at 2025-11-25 and at
// 2026-07-28, and exits non-zero when any fails. The suite's runner needs Node 22+, so it runs on Node 24
// from the npm registry; the client under test runs on the Node that runs this script (the floor in CI).
// OAuth (auth/*) has its own suite, and the skills extension (sep-2640-*) is outside this client's scope.
// A scenario the suite marks as not applicable at a revision is run there anyway (--force): the same
// client must behave at both.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
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
];

const runner = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const client = join(HERE, 'client.mjs');

let node24;
/** The Node 24 binary, fetched once through npx (the runner uses fs.globSync). */
export function runnerNode() {
  node24 ??= execFileSync('npx', ['-y', '-p', RUNNER_NODE, 'node', '-p', 'process.execPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return node24;
}

/**
 * One scenario at one revision. Resolves { passed, summary, output }: passed when the runner reports
 * OVERALL: PASSED (every check a success: its warnings count as failures).
 */
export function runScenario(scenario, version, { timeoutMs = 30_000, outputDir } = {}) {
  // The runner splits the command on spaces and appends the server URL: node itself, no wrapper.
  const command = `${process.execPath} ${client}`;
  if (/\s/.test(process.execPath) || /\s/.test(client)) throw new Error('the conformance runner cannot take paths with spaces');
  const args = [runner, 'client', '--command', command, '--scenario', scenario, '--spec-version', version, '--force', '--timeout', String(timeoutMs)];
  if (outputDir !== undefined) {
    mkdirSync(outputDir, { recursive: true });
    args.push('-o', outputDir);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(runnerNode(), args, { cwd: HERE, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs + 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const clean = output.replace(/\x1b\[[0-9;]*m/g, '');
      const summary = clean.match(/Passed: .*/)?.[0] ?? `runner exited with ${code}`;
      resolve({ passed: code === 0 && /OVERALL: PASSED/.test(clean), summary, output: clean });
    });
  });
}

async function main() {
  const argv = process.argv.slice(2);
  const pick = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const scenarios = pick('--scenario') === undefined ? SCENARIOS : [pick('--scenario')];
  const versions = pick('--spec-version') === undefined ? VERSIONS : [pick('--spec-version')];
  let passed = 0;
  let failed = 0;
  for (const version of versions) {
    for (const scenario of scenarios) {
      const result = await runScenario(scenario, version);
      console.log(`${result.passed ? 'PASS' : 'FAIL'}  ${version}  ${scenario.padEnd(38)} ${result.summary}`);
      if (result.passed) passed++;
      else {
        failed++;
        console.log(result.output.split('\n').slice(-40).join('\n'));
      }
    }
  }
  console.log(`\nconformance: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
