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
