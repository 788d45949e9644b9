// The benchmark's figures: the metrics of each scenario, and the medians, spread and ratios over a driver's trials.

export const median = (values) => {
  const s = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return undefined;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Linear-interpolated quantile of sorted numbers. */
const quartile = (sorted, q) => {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
};
export const METRICS = {
  connect: ['ms'],
  sequential: ['callsPerSec', 'p50Ms', 'p99Ms', 'cpuUsPerCall', 'steadyCpuUsPerCall'],
  concurrent: [
    'callsPerSec',
    'cpuUsPerCall',
    'helperCpuUsPerCall',
    'steadyCallsPerSec',
    'steadyCpuUsPerCall',
    'steadyHelperCpuUsPerCall',
  ],
  era: ['callsPerSec', 'cpuUsPerCall'],
  tracing: ['callsPerSec', 'cpuUsPerCall', 'steadyCallsPerSec', 'steadyCpuUsPerCall', 'spansExported'],
  list: ['msPerList', 'cpuMsPerList'],
  blob: ['mbPerSec', 'ms', 'peakRssMiB', 'peakGrowthMiB'],
  rss: ['rssGrowthMiB', 'heapGrowthMiB', 'newSpaceGrowthMiB', 'rssEndMiB', 'warmupCalls'],
  footprint: ['bytes', 'diskBytes', 'files', 'packages', 'importMs'],
};

/** Each driver's medians over its trials of one scenario and transport, with their ratios to the limit driver's. */
export function summarize(scenario, byDriver) {
  const out = {};
  for (const [driver, results] of Object.entries(byDriver)) {
    const ok = results.filter((r) => !r.error);
    const entry = { trials: results.length, ok: ok.length, node: ok[0]?.node ?? results[0]?.node };
    for (const m of METRICS[scenario]) entry[m] = median(ok.map((r) => r[m]));
    // The spread of CPU per call over the rounds: min–max and the quartiles.
    const cpu = ok
      .map((r) => r.cpuUsPerCall)
      .filter((v) => typeof v === 'number')
      .sort((a, b) => a - b);
    if (cpu.length)
      entry.cpuSpread = { min: cpu[0], p25: quartile(cpu, 0.25), p75: quartile(cpu, 0.75), max: cpu.at(-1) };
    if (results.length > ok.length) entry.errors = results.filter((r) => r.error).map((r) => r.error.split('\n')[0]);
    out[driver] = entry;
  }
  const limit = out.limit;
  for (const entry of Object.values(out)) {
    entry.ratio = {};
    for (const m of METRICS[scenario]) if (limit?.[m] && entry[m] !== undefined) entry.ratio[m] = entry[m] / limit[m];
  }
  return out;
}
