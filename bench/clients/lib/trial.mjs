// One trial: one driver, one scenario, one transport, in this fresh process.
//
// Started by run.mjs with `node --expose-gc trial.mjs <json spec>`; prints one line `@@RESULT <json>` on stdout and
// exits. Every loop is bounded in count and by the spec's deadline.
import { performance } from 'node:perf_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

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
/** Now on the clock of V8's CPU profiles (µs, monotonic): the measured window, for lib/profile-summary.mjs --window. */
const clockUs = () => Number(process.hrtime.bigint() / 1000n);
const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
const cpuMicros = (start) => {
  const d = process.cpuUsage(start);
  return d.user + d.system;
};
/**
 * CPU time (µs) of this process's threads other than the main one — V8's helpers: optimizing compiles,
 * parallel scavenges, concurrent marking — from /proc (Linux; clock ticks, so ±10 ms a thread);
 * undefined elsewhere. Told apart from `process.cpuUsage()`, it shows what of a window is V8 warming up.
 */
function helperThreadsCpu() {
  try {
    let ticks = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      if (Number(tid) === process.pid) continue;
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    }
    return (ticks * 1e6) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
// USER_HZ: 100 on every Linux the bench runs on (getconf CLK_TCK).
const CLOCK_TICKS_PER_SECOND = 100;
const helperMicros = (start) => {
  const now = helperThreadsCpu();
  return start === undefined || now === undefined ? undefined : now - start;
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

/**
 * CPU per call over a second window of the same size, right after the measured one: the client once
 * V8 has compiled its hot paths. The first window (after a short warm-up) carries that one-time cost —
 * optimizing compiles and the scavenges of a young heap run on V8's helper threads, which
 * `process.cpuUsage()` counts — in proportion to how much code a client runs per call.
 */
async function steady(run) {
  const helpers0 = helperThreadsCpu();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await run();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMicros(cpu0);
  const helpers = helperMicros(helpers0);
  const done = typeof result === 'number' ? result : result.done;
  if (done === 0) return {};
  return {
    steadyCpuUsPerCall: cpu / done,
    steadyHelperCpuUsPerCall: helpers === undefined ? undefined : helpers / done,
    steadyCallsPerSec: done / seconds,
  };
}

function checkEcho(result, message) {
  const text = result?.content?.[0]?.text;
  if (text !== message)
    throw new Error(`echo answered ${JSON.stringify(text)?.slice(0, 80)} for ${JSON.stringify(message)}`);
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
    const w0 = clockUs();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const { done, latencies } = await sequential(client, p.calls, true);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuMicros(cpu0);
    const windowUs = [w0, clockUs()];
    const sorted = Array.from(latencies).sort((a, b) => a - b);
    return {
      calls: done,
      complete: done === p.calls,
      callsPerSec: done / seconds,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      cpuUsPerCall: cpu / done,
      ...(await steady(() => sequential(client, p.calls, false))),
      windowUs,
    };
  },
  async concurrent(client, p) {
    await concurrent(client, p.warmup, p.inFlight);
    const w0 = clockUs();
    const helpers0 = helperThreadsCpu();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const done = await concurrent(client, p.calls, p.inFlight);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuMicros(cpu0);
    const helpers = helperMicros(helpers0);
    return {
      calls: done,
      complete: done === p.calls,
      callsPerSec: done / seconds,
      cpuUsPerCall: cpu / done,
      helperCpuUsPerCall: helpers === undefined ? undefined : helpers / done,
      windowUs: [w0, clockUs()],
      ...(await steady(() => concurrent(client, p.calls, p.inFlight))),
    };
  },
  async list(client, p) {
    for (let i = 0; i < p.warmup; i++) await client.listTools();
    const times = [];
    const w0 = clockUs();
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < p.lists && !outOfTime(); i++) {
      const t0 = performance.now();
      const tools = await client.listTools();
      times.push(performance.now() - t0);
      if (tools.length !== p.tools) throw new Error(`tools/list gave ${tools.length} tools, expected ${p.tools}`);
    }
    const cpuMsPerList = cpuMicros(cpu0) / 1000 / times.length;
    return {
      lists: times.length,
      msPerList: median(times),
      minMs: Math.min(...times),
      cpuMsPerList,
      windowUs: [w0, clockUs()],
    };
  },
  async blob(client, p) {
    await sequential(client, 20, false);
    const small = await client.callTool('blob', { bytes: 1024 });
    if (small.content[0].text.length !== 1024) throw new Error('blob warm-up: wrong length');
    fullGc();
    const rssBefore = rss();
    const w0 = clockUs();
    const t0 = performance.now();
    const result = await client.callTool('blob', { bytes: p.bytes });
    const seconds = (performance.now() - t0) / 1000;
    const windowUs = [w0, clockUs()];
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
      windowUs,
    };
  },
  /** The era scenario: `concurrent` against the dual-era server, in the era the target names. */
  async era(client, p) {
    // The server says which era the request came in: a client that fell back would be measured in the wrong column.
    const seen = (await client.callTool('era', {}))?.content?.[0]?.text;
    const expected = target.era === 'modern' ? '2026-07-28' : 'classic';
    if (seen !== expected) throw new Error(`the era scenario expected ${expected} but the server saw ${seen}`);
    return STEPS.concurrent(client, p);
  },
  /** The tracing scenario: `concurrent`, each driver with tracing set up its own way (see drivers/mcpc-otel-*.mjs). */
  tracing: (client, p) => STEPS.concurrent(client, p),
  async rss(client, p) {
    // Warm up until V8's young generation has stopped growing (bounded): its growth under allocation
    // pressure is sizing, not a leak, and would otherwise land in whichever window it happens to fall.
    let warmup = await concurrent(client, p.warmup, p.inFlight);
    for (let size = newSpace(), still = 0; still < 2 && warmup < p.maxWarmup && !outOfTime();) {
      warmup += await concurrent(client, 1000, p.inFlight);
      const now = newSpace();
      still = now === size ? still + 1 : 0;
      size = now;
    }
    fullGc();
    const m0 = process.memoryUsage();
    const new0 = newSpace();
    const done = await concurrent(client, p.calls, p.inFlight);
    fullGc();
    await new Promise((r) => setTimeout(r, 50));
    fullGc();
    const m1 = process.memoryUsage();
    const new1 = newSpace();
    return {
      calls: done,
      complete: done === p.calls,
      warmupCalls: warmup,
      rssStartMiB: m0.rss / MiB,
      rssEndMiB: m1.rss / MiB,
      rssGrowthMiB: (m1.rss - m0.rss) / MiB,
      // What a leak would show as: live objects after a full gc…
      heapGrowthMiB: (m1.heapUsed - m0.heapUsed) / MiB,
      externalGrowthMiB: (m1.external - m0.external) / MiB,
      // …and what garbage alone grows: V8 enlarges its young generation under allocation pressure,
      // and keeps it committed (in RSS) after the gc.
      newSpaceGrowthMiB: (new1 - new0) / MiB,
      heapCommittedGrowthMiB: (m1.heapTotal - m0.heapTotal) / MiB,
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
    const result = { ...(await step(client, params)), connectMs: ms };
    // A driver may report figures of its own (the SDK driver: the spans its exporter got).
    return client.stats ? { ...result, ...(await client.stats()) } : result;
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
