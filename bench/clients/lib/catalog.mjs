// What the clients benchmark compares: its drivers, transports and scenarios, their labels, and each one's plan.

export const MiB = 1024 * 1024;

export const ALL_DRIVERS = ['limit', 'mcpc', 'mcpc-undici', 'sdk1', 'sdk2', 'aisdk'];
/**
 * The tracing scenario's drivers (that scenario only): mcpc's own row, then @opentelemetry/api absent (an npm
 * install of the packed client without it), present with no SDK (the API's no-op tracer), and a real SDK.
 */
export const TRACING_DRIVERS = ['mcpc', 'mcpc-otel-absent', 'mcpc-otel-noop', 'mcpc-otel-sdk'];
/** The tracing scenario's transports: stdio and HTTP (SSE), the main rows' (of those the run asks for). */
export const TRACING_TRANSPORTS = ['stdio', 'http'];
export const ALL_TRANSPORTS = ['stdio', 'http', 'http-json'];
// mcpc-undici differs from mcpc on HTTP only (its transport on undici instead of node:http).
const TRANSPORTS_OF = { 'mcpc-undici': ['http', 'http-json'] };
/** The era scenario's drivers: those that speak MCP 2026-07-28 and can be pinned to either era (SDK v1 cannot: classic only). */
const MODERN_DRIVERS = ['limit', 'mcpc', 'sdk2', 'aisdk'];
export const ERAS = ['classic', 'modern'];
export const runsOn = (driver, transport) =>
  transport === 'modern'
    ? MODERN_DRIVERS.includes(driver)
    : transport === 'classic'
      ? driver !== 'mcpc-undici'
      : (TRANSPORTS_OF[driver] ?? ALL_TRANSPORTS).includes(transport);
export const TRANSPORT_LABELS = {
  stdio: 'stdio',
  http: 'http (SSE)',
  'http-json': 'http (JSON)',
  classic: 'classic',
  modern: '2026-07-28',
};
export const LABELS = {
  limit: 'limit',
  mcpc: 'mcpc (default install: node:http)',
  'mcpc-undici': 'mcpc + undici',
  'mcpc+undici': 'mcpc + undici',
  'mcpc-client': 'mcpc: @mcpc/client alone (no @opentelemetry/api installed)',
  'mcpc-otel-absent': 'tracing absent (@opentelemetry/api not installed)',
  'mcpc-otel-noop': 'no-op tracer (@opentelemetry/api, no SDK)',
  'mcpc-otel-sdk': 'real SDK (BasicTracerProvider + BatchSpanProcessor)',
  sdk1: 'sdk v1 (1.32.2)',
  sdk2: 'sdk v2 (2.4.0)',
  aisdk: 'ai-sdk (2.0.99)',
};
export const ALL_SCENARIOS = [
  'connect',
  'sequential',
  'concurrent',
  'list',
  'blob',
  'rss',
  'footprint',
  'era',
  'tracing',
];

/** The scenarios' headings; the blob's names the size its plan sets. */
export const titlesFor = (plan) => ({
  connect: '1. connect (spawn included on stdio) to the first tools/list',
  sequential: '2. sequential echo calls',
  concurrent: '3. echo calls, 64 in flight',
  list: '4. tools/list of 1,000 tools',
  blob: `5. one ${plan.blob.params.bytes / MiB} MiB blob result`,
  rss: '6. RSS after 10,000 calls',
  era: '8. the 2026-07-28 era against the classic one, same server (SDK v2), stdio, 64 in flight',
  footprint: '7. install footprint and cold import',
  tracing: "9. the cost of tracing (OpenTelemetry, issue #30): mcpc's CPU per call, 64 in flight",
});

const BLOB = 16 * MiB;
/** What each scenario does, full and --quick: its rounds, time bound and parameters, fresh for each run. */
export const planFor = (quick) => {
  /** The --quick figure, or the full run's. */
  const pick = (quickValue, fullValue) => (quick ? quickValue : fullValue);
  /** A scenario's rounds and time bound: --quick, one round in 20 s. */
  const timed = (rounds, budgetMs, params) => ({
    rounds: pick(1, rounds),
    budgetMs: pick(20_000, budgetMs),
    ...(params && { params }),
  });
  const calls64 = () => ({ warmup: pick(300, 1000), calls: pick(2000, 10_000), inFlight: 64 });
  return {
    connect: timed(7, 30_000),
    // Sequential stdio is the noisiest figure on a shared machine: more rounds, CPU per call the primary figure.
    sequential: timed(9, 60_000, { warmup: pick(100, 300), calls: pick(500, 2000) }),
    concurrent: timed(5, 90_000, calls64()),
    list: timed(5, 60_000, { tools: 1000, warmup: pick(1, 3), lists: pick(5, 20) }),
    blob: timed(5, 60_000, { bytes: BLOB }),
    rss: timed(3, 120_000, {
      warmup: pick(300, 1000),
      maxWarmup: pick(300, 10_000),
      calls: pick(1000, 10_000),
      inFlight: 64,
    }),
    era: timed(7, 90_000, calls64()),
    footprint: quick ? { rounds: 3, reuse: true } : { rounds: 10 },
    tracing: {
      ...timed(5, 90_000, calls64()),
      // Two clients in one process, batches interleaved (lib/tracing-pairs.mjs): the ratios the targets judge.
      // A stdio call costs a tenth of an HTTP one: its batches are larger, so that each is tens of ms of CPU.
      paired: {
        trials: pick(1, 4),
        budgetMs: pick(30_000, 150_000),
        params: { warmup: pick(300, 1000), rounds: pick(4, 20), inFlight: 64 },
        batch: { stdio: pick(300, 3000), http: pick(300, 1000) },
      },
    },
    ...(quick && { suite: { rounds: 1, budgetMs: 45_000 } }),
  };
};
