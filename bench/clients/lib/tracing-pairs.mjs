// Scenario 9's paired trial: two of mcpc's tracing set-ups in one process, batches interleaved, CPU per call compared.
//
// `node --expose-gc tracing-pairs.mjs <json spec>`: connects the spec's two clients (`spec.pair`, of `off`: mcpc's
// row, `tracing: false`; `absent`: the packed install without @opentelemetry/api; `noop`: the workspace's client on
// the API's no-op tracer) to the same server program (stdio: a spawn each; HTTP: one server, a session each),
// warms each up, then runs `rounds` rounds of one batch per client (`batch` calls, `inFlight` outstanding), the
// order reversed every other round, CPU per call of each batch from `process.cpuUsage()`. Load on the machine
// falls on both alike, so a round's ratio is much steadier than medians over separate processes. Two clients
// only: clients that share one copy of the code share its compiling, which would favour them over a third.
// Prints the second client's CPU per call over the first's (of `spec.pair`), whatever order they ran in.
import { performance } from 'node:perf_hooks';
import * as mcpc from '@mcpc/client';
import { connectWith } from '../drivers/mcpc.mjs';
import { connect as connectAbsent } from '../drivers/mcpc-otel-absent.mjs';

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
  const connectors = {
    off: () => connectWith(mcpc, target, { httpClient: 'node', tracing: false }),
    absent: () => connectAbsent(target),
    // Imported only for its pair: it loads @opentelemetry/api into the process.
    noop: async () => (await import('../drivers/mcpc-otel-noop.mjs')).connect(target),
  };
  // Connected, warmed up and run in `spec.order` (the pair, or the pair reversed): the client connected second
  // tends to measure a little cheaper, so the orchestrator alternates the order over the processes.
  const names = spec.order ?? spec.pair;
  const clients = {};
  for (const n of names) clients[n] = await connectors[n]();
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
  const [a, b] = spec.pair;
  return {
    pair: spec.pair,
    order: names,
    rounds,
    cpuUsPerCall: Object.fromEntries(names.map((n) => [n, median(cpu[n])])),
    // The second client's CPU per call over the first's: the median of the rounds' ratios.
    ratio: median(Array.from({ length: rounds }, (_, i) => cpu[b][i] / cpu[a][i])),
  };
}

try {
  process.stdout.write(`@@RESULT ${JSON.stringify({ ...(await run()), node: process.version })}\n`);
  setTimeout(() => process.exit(0), 200).unref();
} catch (error) {
  process.stdout.write(`@@RESULT ${JSON.stringify({ error: String(error?.stack ?? error).slice(0, 2000) })}\n`);
  process.exit(1);
}
