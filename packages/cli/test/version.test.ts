// `mcpc --version`: the version of packages/cli/package.json, as text and as JSON.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, mcpc } from './helpers.js';

const { version } = JSON.parse(readFileSync(join(REPO, 'packages', 'cli', 'package.json'), 'utf8')) as {
  version: string;
};

describe('mcpc --version', () => {
  it("prints package.json's version", async () => {
    const res = await mcpc(['--version']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`mcpc ${version}\n`);
    expect(res.stderr).toBe('');
  });

  it('--json gives it as JSON', async () => {
    const res = await mcpc(['--version', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ version });
  });
});
