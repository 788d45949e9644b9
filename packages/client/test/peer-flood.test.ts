// A server flooding its client with junk frames and unsolicited responses: bounded logs, a usable client.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client, stdio } from '@mcpc/client';
import { recordingLogger } from './helpers.js';

const JUNK_FLOOD = fileURLToPath(new URL('../../../tooling/fixtures/stdio/junk-flood.mjs', import.meta.url));

describe('a server that floods its client with junk', () => {
  it('10^5 junk frames and 10^5 unsolicited responses log a bounded number of lines, and the client keeps working', async () => {
    const logger = recordingLogger();
    const client = new Client({
      servers: [stdio({ name: 'junk', command: process.execPath, args: [JUNK_FLOOD, '100000'] })],
      logger,
    });
    const started = performance.now();
    await client.ping();
    await client.ping();
    await client.close();
    const windows = Math.ceil((performance.now() - started) / 10_000) + 1;
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    // Before: one line per frame, 400 000 for these two pings. Now, per kind (2 here), at most 5 lines
    // and one summary in each 10 s window the flood spans (a loaded machine may take more than one).
    expect(warnings.length).toBeLessThanOrEqual(2 * 6 * windows);
    const summaries = warnings.filter((w) => w.startsWith('[mcpc] suppressed '));
    const suppressed = summaries.reduce((sum, w) => sum + Number(/^\[mcpc\] suppressed (\d+)/.exec(w)?.[1] ?? 0), 0);
    expect(suppressed + warnings.length - summaries.length).toBe(400_000);
    expect(warnings).toContain("[mcpc] transport reported: the message is not JSON (12 characters): 'junk frame 0'");
  }, 60_000);
});
