// One trial: one driver, one scenario, one transport, in this fresh process. Started by run.mjs with
// `node --expose-gc trial.mjs <json spec>`; prints one line `@@RESULT <json>` on stdout and exits.
// Every loop is bounded in count and by the spec's deadline.
import { performance } from 'node:perf_hooks';

const spec = JSON.parse(process.argv[2]);
const { driver, scenario, target, params } = spec;
const deadline = performance.now() + spec.budgetMs;
const gc = globalThis.gc ?? (() => {});

function report(result) {
  process.stdout.write(`@@RESULT ${JSON.stringify(result)}\n`);
}
// The orchestrator kills a trial that outlives its budget; this is the trial's own bound.
const watchdog = setTimeout(() => {
  report({ error: `trial exceeded its ${spec.budgetMs} ms budget` });
  process.exit(3);
}, spec.budgetMs + 5000);
watchdog.unref();

const outOfTime = () => performance.now() > deadline;
const MiB = 1024 * 1024;
const rss = () => process.memoryUsage().rss;
const cpuMicros = (start) => {
  const d = process.cpuUsage(start);
  return d.user + d.system;
};
function fullGc() {
  gc();
  gc();
}
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function checkEcho(result, message) {
  const text = result?.content?.[0]?.text;
  if (text !== message) throw new Error(`echo answered ${JSON.stringify(text)?.slice(0, 80)} for ${JSON.stringify(message)}`);
}

/** `count` echo calls, one after the other; latencies in ms when `timed`. */
async function sequential(client, count, timed) {
  const latencies = timed ? new Float64Array(count) : undefined;
  let done = 0;
  for (; done < count && !outOfTime(); done++) {
    const message = `m${done}`;
    const t0 = timed ? performance.now() : 0;
    const result = await client.callTool('echo', { message });
    if (timed) latencies[done] = performance.now() - t0;
    checkEcho(result, message);
  }
  return { done, latencies: latencies?.subarray(0, done) };
}

/** `count` echo calls with `inFlight` outstanding at any time. */
async function concurrent(client, count, inFlight) {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < count && !outOfTime()) {
      const message = `c${next++}`;
      checkEcho(await client.callTool('echo', { message }), message);
      done++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return done;
}

const mod = await import(new URL(`../drivers/${driver}.mjs`, import.meta.url).href);

/** Connects and lists the tools: scenario 1, and the start of every other trial. */
async function connectAndList(to) {
  const t0 = performance.now();
  const client = await mod.connect(to);
  const tools = await client.listTools();
  const ms = performance.now() - t0;
  if (!Array.isArray(tools) || tools.length < 2) throw new Error(`tools/list gave ${tools?.length} tools`);
  return { client, ms };
}
const closeClient = (client) => Promise.race([client.close(), new Promise((r) => setTimeout(r, 3000).unref())]);

/** The scenarios past connecting, each on a connected client. */
const STEPS = {
  async sequential(client, p) {
    await sequential(client, p.warmup, false);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const { done, latencies } = await sequential(client, p.calls, true);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuMicros(cpu0);
    const sorted = Array.from(latencies).sort((a, b) => a - b);
    return {
      calls: done,
      complete: done === p.calls,
      callsPerSec: done / seconds,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      cpuUsPerCall: cpu / done,
    };
  },
  async concurrent(client, p) {
    await concurrent(client, p.warmup, p.inFlight);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const done = await concurrent(client, p.calls, p.inFlight);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuMicros(cpu0);
    return { calls: done, complete: done === p.calls, callsPerSec: done / seconds, cpuUsPerCall: cpu / done };
  },
  async list(client, p) {
    for (let i = 0; i < p.warmup; i++) await client.listTools();
    const times = [];
    for (let i = 0; i < p.lists && !outOfTime(); i++) {
      const t0 = performance.now();
      const tools = await client.listTools();
      times.push(performance.now() - t0);
      if (tools.length !== p.tools) throw new Error(`tools/list gave ${tools.length} tools, expected ${p.tools}`);
    }
    return { lists: times.length, msPerList: median(times), minMs: Math.min(...times) };
  },
  async blob(client, p) {
    await sequential(client, 20, false);
    const small = await client.callTool('blob', { bytes: 1024 });
    if (small.content[0].text.length !== 1024) throw new Error('blob warm-up: wrong length');
    fullGc();
    const rssBefore = rss();
    const t0 = performance.now();
    const result = await client.callTool('blob', { bytes: p.bytes });
    const seconds = (performance.now() - t0) / 1000;
    const peakRss = process.resourceUsage().maxRSS * 1024;
    const rssAfter = rss();
    const length = result.content[0].text.length;
    if (length !== p.bytes) throw new Error(`blob gave ${length} bytes, expected ${p.bytes}`);
    return {
      bytes: p.bytes,
      mbPerSec: p.bytes / 1e6 / seconds,
      ms: seconds * 1000,
      peakRssMiB: peakRss / MiB,
      peakGrowthMiB: (peakRss - rssBefore) / MiB,
      rssBeforeMiB: rssBefore / MiB,
      rssAfterMiB: rssAfter / MiB,
    };
  },
  async rss(client, p) {
    await concurrent(client, p.warmup, p.inFlight);
    fullGc();
    const rss0 = rss();
    const heap0 = process.memoryUsage().heapUsed;
    const done = await concurrent(client, p.calls, p.inFlight);
    fullGc();
    await new Promise((r) => setTimeout(r, 50));
    fullGc();
    const rss1 = rss();
    const heap1 = process.memoryUsage().heapUsed;
    return {
      calls: done,
      complete: done === p.calls,
      rssStartMiB: rss0 / MiB,
      rssEndMiB: rss1 / MiB,
      rssGrowthMiB: (rss1 - rss0) / MiB,
      heapGrowthMiB: (heap1 - heap0) / MiB,
    };
  },
};

async function run() {
  if (scenario === 'suite') {
    // --quick: the scenarios one after the other in this one process (a smoke run, not figures):
    // connect, then each step on that client; `list` on its own connection to the 1,000-tool server.
    const out = {};
    const { client, ms } = await connectAndList(target);
    out.connect = { ms };
    try {
      for (const step of spec.steps) {
        if (step.scenario === 'list' || outOfTime()) continue;
        out[step.scenario] = await STEPS[step.scenario](client, step.params);
      }
    } finally {
      await closeClient(client);
    }
    const list = spec.steps.find((s) => s.scenario === 'list');
    if (list && !outOfTime()) {
      const other = await connectAndList(list.target);
      try {
        out.list = await STEPS.list(other.client, list.params);
      } finally {
        await closeClient(other.client);
      }
    }
    return { suite: out };
  }
  const { client, ms } = await connectAndList(target);
  try {
    if (scenario === 'connect') return { ms };
    const step = STEPS[scenario];
    if (!step) throw new Error(`unknown scenario ${scenario}`);
    return { ...(await step(client, params)), connectMs: ms };
  } finally {
    await closeClient(client);
  }
}

try {
  const result = await run();
  report({ ...result, node: process.version });
  clearTimeout(watchdog);
  // A client that leaves handles open must not stretch the trial: the result is out.
  setTimeout(() => process.exit(0), 200).unref();
} catch (error) {
  report({ error: String(error?.stack ?? error).slice(0, 2000) });
  process.exit(1);
}
