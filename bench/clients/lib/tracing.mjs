// Scenario 9's setup: a packed npm install of mcpc without @opentelemetry/api, and the check of which modules load.
//
// The tracing rows run as `concurrent` trials (lib/trial.mjs); what they need beyond it is here: the client
// installed where the API cannot be found (the absent row), and a fresh process per install that reports
// which @opentelemetry modules the client loads on import and on first connect (lib/module-check.mjs).
import { join } from 'node:path';
import { install } from './footprint.mjs';
import { runNode } from './processes.mjs';

/**
 * Packs mcpc from the workspace and npm-installs it into a fresh project, as scenario 7 does: the client
 * there cannot resolve `@opentelemetry/api`. Returns the project's directory and its cleanup.
 */
export async function installWithoutOtel({ repoRoot, pnpm, log }) {
  const installed = await install({ repoRoot, pnpm, drivers: ['mcpc'], log });
  return { clientDir: installed.projects.mcpc, cleanup: installed.cleanup };
}

/** The paired trials' pairs: [first, second], each reported as second ÷ first (lib/tracing-pairs.mjs). */
export const PAIRS = [
  ['off', 'absent'],
  ['off', 'noop'],
];
export const pairKey = ([first, second]) => `${second}/${first}`;

/**
 * The paired trials on each transport: for each pair, `plan.trials` fresh processes, each with its own server
 * from `targetFor`. Returns per transport, per pair (`absent/off`, `noop/off`): the median, min and max over
 * the processes of their ratios, each client's CPU per call (median), and the raw results.
 */
export async function pairedTrials({ here, transports, clientDir, plan, targetFor, log }) {
  const script = join(here, 'lib', 'tracing-pairs.mjs');
  const spread = (values) => {
    const v = values.filter((x) => typeof x === 'number').sort((a, b) => a - b);
    if (v.length === 0) return undefined;
    const mid = v.length >> 1;
    return { median: v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2, min: v[0], max: v.at(-1) };
  };
  const out = {};
  for (const transport of transports) {
    out[transport] = {};
    for (const pair of PAIRS) {
      log(`  paired ${pairKey(pair)}: ${transport}, ${plan.trials} process(es) of ${plan.params.rounds} rounds`);
      const results = [];
      for (let i = 0; i < plan.trials; i++) {
        const { target, stop } = await targetFor(transport, 0);
        try {
          const params = { ...plan.params, batch: plan.batch[transport] };
          // The order alternates over the processes: the client connected second tends to measure cheaper.
          const order = i % 2 === 0 ? pair : [...pair].reverse();
          const spec = { pair, order, target: { ...target, clientDir }, params, budgetMs: plan.budgetMs };
          const result = await runNode(process.execPath, ['--expose-gc', script, JSON.stringify(spec)], {
            budgetMs: plan.budgetMs,
            cwd: here,
          });
          if (result.error) log(`  paired ${transport} ${i + 1}: ERROR ${result.error.split('\n')[0]}`);
          results.push(result);
        } finally {
          await stop();
        }
      }
      const ok = results.filter((r) => !r.error);
      out[transport][pairKey(pair)] = {
        trials: results.length,
        ok: ok.length,
        ratio: spread(ok.map((r) => r.ratio)),
        cpuUsPerCall: Object.fromEntries(pair.map((n) => [n, spread(ok.map((r) => r.cpuUsPerCall[n]))?.median])),
        results,
      };
    }
  }
  return out;
}

/**
 * What the client loads of @opentelemetry, in a fresh process each: from the packed install (the API absent)
 * and from the workspace (the API installed). Each: { onImport, onConnect } with the specifiers seen.
 */
export async function checkModules({ here, clientDir, serverPath }) {
  const script = join(here, 'lib', 'module-check.mjs');
  const out = {};
  for (const [name, dir] of [
    ['absent', clientDir],
    ['installed', here],
  ])
    out[name] = await runNode(process.execPath, [script, dir, serverPath], { budgetMs: 60_000, cwd: here });
  return out;
}

/** A line per install: how many modules the import resolved, and the @opentelemetry ones at import and connect. */
export function describeModules(modules) {
  const lines = [];
  const said = (phase) =>
    phase.otel.length === 0
      ? 'no @opentelemetry module'
      : phase.otel.map((m) => `\`${m.specifier}\` ${m.error ? `(${m.error}: not installed)` : 'loaded'}`).join(', ') +
        (phase.otelCjsFiles ? ` (${phase.otelCjsFiles} files)` : '');
  for (const [name, r] of Object.entries(modules ?? {})) {
    if (r.error) {
      lines.push(`- ${name}: the check failed: ${r.error.split('\n')[0]}`);
      continue;
    }
    const where =
      name === 'absent'
        ? 'npm install of the packed client, no @opentelemetry/api'
        : 'the workspace, @opentelemetry/api installed';
    lines.push(
      `- ${where}: importing \`@mcpc/client\` and both transports resolved ${r.onImport.resolved} modules, ${said(r.onImport)}; the first connect (stdio, one call): ${said(r.onConnect)}`,
    );
  }
  return lines;
}
