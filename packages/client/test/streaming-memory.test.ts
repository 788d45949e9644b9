// callToolStreaming with a stalled consumer: a progress flood costs a bounded number of pending events.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@mcpc/client';
import type { ToolStreamEvent } from '@mcpc/client/types';
import { modernFixture, until } from './helpers.js';

// vitest runs without --expose-gc: the flag can still be set, and a fresh context then sees `gc`.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const FLOOD = 100_000;

describe('callToolStreaming under a progress flood', () => {
  let client: Client;
  beforeAll(async () => {
    // A logger that keeps nothing: a recording one would retain a debug line per notification.
    const logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
    client = new Client({ servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })], logger });
    await client.listTools();
    // Warm up: the first streaming call compiles and allocates what every later one reuses.
    for await (const _event of client.callToolStreaming('flood', { n: 1000 })) {
      // drained
    }
  });
  afterAll(() => client.close());

  it(`retains a bounded number of pending events while the consumer does not read (${FLOOD.toLocaleString('en')} progress notifications)`, async () => {
    let received = 0;
    let settled = false;
    const stream = client.callToolStreaming(
      'flood',
      { n: FLOOD },
      { onProgress: () => void received++, timeout: 120_000 },
    );
    const baseline = heap();
    // Start the call (the first event), then stall: read nothing more until the server is done.
    const first = stream.next();
    await until(() => received === FLOOD, 60_000);
    // The result follows the last notification on the same pipe.
    const events: ToolStreamEvent[] = [(await first).value as ToolStreamEvent];
    const retained = heap() - baseline;
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'result') settled = true;
    }
    expect(settled).toBe(true);
    const progress = events.filter((e) => e.type === 'progress');
    // At most the documented 256 pending (plus the one taken before the stall), the newest kept.
    expect(progress.length).toBeLessThanOrEqual(257);
    expect(progress.at(-1)).toMatchObject({ progress: FLOOD, total: FLOOD });
    // 256 small events are tens of KB (0.16 MB measured); before the fix every notification stayed (8.2 MB).
    expect(retained).toBeLessThan(2 * 1024 * 1024);
  }, 120_000);
});
