// ReplyQueue: bounded answers in flight, a bounded queue that counts what it drops, and close.
import { describe, expect, it } from 'vitest';
import { ConnectionClosedError } from '@mcpc/jsonrpc';
import { ReplyQueue, ReplyQueueFullError } from '@mcpc/http';

describe('ReplyQueue', () => {
  it('runs at most maxInFlight at once, the rest in order, and drops (counting) past maxQueued', async () => {
    const warnings: string[] = [];
    const queue = new ReplyQueue({ maxInFlight: 2, maxQueued: 3, warn: (w) => void warnings.push(w) });
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) => async (): Promise<void> => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(i);
      running--;
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => queue.run(task(i))));
    expect(peak).toBe(2);
    // 2 run at once, 3 wait, 3 are dropped.
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    const dropped = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(dropped).toHaveLength(3);
    expect(
      dropped.every(
        (o) =>
          o.reason instanceof ReplyQueueFullError && (o.reason as ReplyQueueFullError).code === 'MCPC_REPLY_QUEUE_FULL',
      ),
    ).toBe(true);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(queue.dropped).toBe(3);
    // The first drop is reported at once; the others in the next report (here: on close).
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^dropped 1 reply to the server's requests \(1 in all\)/);
    queue.close();
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/^dropped 2 more replies to the server's requests \(3 in all\)/);
  });

  it('close() refuses what waits, and everything after, with the reason', async () => {
    const queue = new ReplyQueue({ maxInFlight: 1, maxQueued: 10, warn: () => {} });
    let release!: () => void;
    const first = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = queue.run(async () => {});
    expect(queue.queued).toBe(1);
    const reason = new ConnectionClosedError(undefined);
    queue.close(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(queue.run(async () => {})).rejects.toBe(reason);
    release();
    await expect(first).resolves.toBeUndefined();
  });
});
