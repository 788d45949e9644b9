import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types, shared with the command-line runner.
import { SCENARIOS, VERSIONS, runScenario, runnerNode } from '../run.mjs';

// The client under test imports @mcpc/client the way a host does: from its built package. The test
// command builds every package before the tests run; run `pnpm build` first when running this alone.
const built = fileURLToPath(new URL('../../../packages/client/dist/index.js', import.meta.url));

describe.each(VERSIONS as string[])('the MCP conformance suite at %s', (version) => {
  beforeAll(() => {
    if (!existsSync(built)) throw new Error('@mcpc/client is not built (packages/client/dist); run the build first');
    runnerNode();
  }, 120_000);

  it.each(SCENARIOS as string[])('%s', async (scenario) => {
    const result = (await runScenario(scenario, version)) as { passed: boolean; summary: string; output: string };
    expect(result.passed, `${scenario} at ${version}: ${result.summary}\n${result.output.slice(-4000)}`).toBe(true);
  }, 90_000);
});
