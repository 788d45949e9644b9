// Scenario 9's paired trial: mcpc with tracing off, absent and on the no-op tracer, in one process, batches interleaved.
//
// `node --expose-gc tracing-pairs.mjs <json spec>`: connects three clients to the same server program (stdio: one
// spawn each; HTTP: one server, a session each) — mcpc's row (`tracing: false`), the packed install without
// @opentelemetry/api, the workspace's client on the API's no-op tracer — warms each up, then runs `rounds`
// rounds of one batch per client (`batch` calls, `inFlight` outstanding), the order reversed every other round,
// CPU per call of each batch from `process.cpuUsage()`. Load on the machine falls on the three alike, so the
// ratios of one round are much steadier than those of medians over separate processes. Prints `@@RESULT`.
import { performance } from 'node:perf_hooks';
import * as mcpc from '@mcpc/client';
import { connectWith } from '../drivers/mcpc.mjs';
import { connect as connectAbsent } from '../drivers/mcpc-otel-absent.mjs';
import { connect as connectNoop } from '../drivers/mcpc-otel-noop.mjs';

const spec = JSON.parse(process.argv[2]);
const { target, params: p } = spec;
const deadline = performance.now() + spec.budgetMs;
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function calls(client, count, inFlight) {
  let next = 0;
  const worker = async () => {
    while (next < count && performance.now() < deadline) {
      const message = `p${next++}`;
      const text = (await client.callTool('echo', { message }))?.content?.[0]?.text;
      if (text !== message) throw new Error(`echo answered ${JSON.stringify(text)} for ${message}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return next;
}

async function run() {
  const clients = {
    off: await connectWith(mcpc, target, { httpClient: 'node', tracing: false }),
    absent: await connectAbsent(target),
    noop: await connectNoop(target),
  };
  const names = Object.keys(clients);
  const cpu = Object.fromEntries(names.map((n) => [n, []]));
  try {
    for (const n of names) await calls(clients[n], p.warmup, p.inFlight);
    for (let round = 0; round < p.rounds && performance.now() < deadline; round++) {
      for (const n of round % 2 === 0 ? names : [...names].reverse()) {
        const c0 = process.cpuUsage();
        const done = await calls(clients[n], p.batch, p.inFlight);
        const c = process.cpuUsage(c0);
        cpu[n].push((c.user + c.system) / done);
      }
    }
  } finally {
    await Promise.all(names.map((n) => clients[n].close()));
  }
  const rounds = Math.min(...names.map((n) => cpu[n].length));
  const ratio = (a, b) => median(Array.from({ length: rounds }, (_, i) => cpu[a][i] / cpu[b][i]));
  return {
    rounds,
    cpuUsPerCall: Object.fromEntries(names.map((n) => [n, median(cpu[n])])),
    absentOverOff: ratio('absent', 'off'),
    noopOverAbsent: ratio('noop', 'absent'),
    noopOverOff: ratio('noop', 'off'),
  };
}

try {
  process.stdout.write(`@@RESULT ${JSON.stringify({ ...(await run()), node: process.version })}\n`);
  setTimeout(() => process.exit(0), 200).unref();
} catch (error) {
  process.stdout.write(`@@RESULT ${JSON.stringify({ error: String(error?.stack ?? error).slice(0, 2000) })}\n`);
  process.exit(1);
}
