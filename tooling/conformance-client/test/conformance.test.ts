// The MCP conformance suite's client scenarios at each revision run.mjs plans, its known failures expected to fail.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types, shared with the command-line runner.
import { KNOWN_FAILURES, plannedRuns, runScenario, runnerNode, verdict } from '../run.mjs';

interface Run {
  readonly scenario: string;
  readonly version: string;
}
interface Result {
  readonly passed: boolean;
  readonly summary: string;
  readonly output: string;
  readonly failed: readonly string[];
  readonly expected?: { readonly why: string; readonly exact: boolean };
}

// The client under test imports @mcpc/client and @mcpc/oauth the way a host does: from their built
// packages. The test command builds every package before the tests run; run the build first when
// running this alone.
const built = ['client', 'oauth'].map((pkg) =>
  fileURLToPath(new URL(`../../../packages/${pkg}/dist/index.js`, import.meta.url)),
);

// The suite's outcome does not depend on the Node running the tests' harness, so a test command that
// runs the tests on two Nodes sets this on one of them.
const skip = process.env.MCPC_CONFORMANCE_SKIP === '1';

const runs = plannedRuns() as Run[];
const versions = [...new Set(runs.map((r) => r.version))];

(skip ? describe.skip : describe).each(versions)('the MCP conformance suite at %s', (version) => {
  beforeAll(() => {
    for (const file of built) if (!existsSync(file)) throw new Error(`${file} is missing; run the build first`);
    runnerNode();
  }, 120_000);

  // Concurrent: run.mjs lets a few runner processes go at once (their servers use ephemeral ports).
  it.concurrent.each(runs.filter((r) => r.version === version).map((r) => r.scenario))(
    '%s',
    async (scenario) => {
      const result = (await runScenario(scenario, version)) as Result;
      const outcome = verdict(scenario, result) as 'PASS' | 'XFAIL' | 'XPASS' | 'FAIL';
      const known = (KNOWN_FAILURES as Record<string, { why: string } | undefined>)[scenario];
      expect(
        outcome,
        outcome === 'XPASS'
          ? `${scenario} passes now: remove it from KNOWN_FAILURES in run.mjs`
          : `${scenario} at ${version}: ${result.summary} (failed: ${result.failed.join(', ')})${known === undefined ? '' : `; known: ${known.why}`}\n${result.output.slice(-4000)}`,
      ).toMatch(known === undefined ? /^PASS$/ : /^XFAIL$/);
    },
    180_000,
  );
});
