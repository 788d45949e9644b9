// A host that exits without closing the transport leaves no server process behind.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fixture, isAlive, trackPid, waitFor } from './helpers.js';
import { transpileForSubprocess } from './transpile.js';

const run = promisify(execFile);
let built: { entry: string; dir: string };

beforeAll(() => {
  built = transpileForSubprocess();
});
afterAll(() => rmSync(built.dir, { recursive: true, force: true }));
afterEach(cleanup);

// The server runs in its own process group (so shutdown can reach its whole tree), which also means
// nothing kills it when the host dies; only the exit hook does.
describe('a host that exits without closing the transport', () => {
  for (const mode of ['exit', 'throw'] as const) {
    it(`leaves no server process behind (${mode === 'exit' ? 'process.exit()' : 'an uncaught exception'})`, async () => {
      const result = await run(process.execPath, [fixture('exiting-parent.mjs'), built.entry, mode], {
        timeout: 20_000,
      }).catch((error: { stdout: string; code: number }) => error);
      const [wrapper, grandchild] = (JSON.parse(result.stdout) as [number, number]).map(trackPid) as [number, number];
      if (mode === 'throw') expect((result as { code: number }).code).toBe(1);
      // Both ignore SIGTERM and stdin closing; only the hook's SIGKILL to the group ends them.
      await waitFor(() => !isAlive(wrapper) && !isAlive(grandchild), 3_000, 'the server tree to be gone');
    });
  }
});
