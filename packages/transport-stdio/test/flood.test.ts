// A server flooding the client with requests: one answer each, errors past the budget, a usable client.
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, JsonRpcEngine } from '@mcpc/jsonrpc';
import { capturingLogger, cleanup, node } from './helpers.js';

afterEach(cleanup);

interface Report {
  expected: number;
  answered: number;
  duplicates: number;
  ok: number;
  errors: number;
  errorCodes: Record<string, number>;
  unexpected: number;
}

describe('a server flooding the client', () => {
  it('gets exactly one answer per request, errors beyond the concurrency budget, and the client stays usable', async () => {
    const logger = capturingLogger();
    const t = node('flood.mjs');
    const budget = 16;
    const engine = new JsonRpcEngine(t, { logger, requestTimeout: 20_000, maxConcurrentHandlers: budget });
    let running = 0;
    let peak = 0;
    engine.setRequestHandler('roots/list', async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 300));
      running--;
      return { roots: [] };
    });
    await engine.start();
    const rssBefore = process.memoryUsage().rss;

    const count = 500;
    await expect(engine.request('flood', { count })).resolves.toEqual({ flooding: count });
    const report = await engine.request<Report>('report', {});

    expect(report.expected).toBe(count);
    expect(report.answered).toBe(count);
    expect(report.duplicates).toBe(0);
    expect(report.unexpected).toBe(0);
    expect(report.ok + report.errors).toBe(count);
    expect(report.ok).toBeGreaterThanOrEqual(1);
    expect(report.ok).toBeLessThanOrEqual(budget);
    expect(report.errorCodes).toEqual({ [ErrorCode.InternalError]: count - report.ok });
    expect(peak).toBeLessThanOrEqual(budget);

    // The unsolicited, the duplicate and the refusals were logged, not thrown.
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings.some((w) => w.includes('unsolicited or duplicate response id="never-requested"'))).toBe(true);
    expect(warnings.some((w) => w.includes('unsolicited or duplicate response id=987654'))).toBe(true);
    expect(warnings.filter((w) => w.includes('duplicate response id=1 ('))).toHaveLength(1);
    // Rate-limited, since the peer decides how many: the first 5 in full, the rest counted in a summary.
    expect(warnings.filter((w) => w.includes('refused roots/list'))).toHaveLength(5);

    await expect(engine.request('ping')).resolves.toEqual({});
    expect(engine.pendingCount).toBe(0);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    await engine.close();
    expect(
      logger.lines.some((l) =>
        l.message.startsWith(`[mcpc] suppressed ${count - report.ok - 5} more warnings like: refused roots/list`),
      ),
    ).toBe(true);
  });
});
