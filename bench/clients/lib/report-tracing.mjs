// Scenario 9's report: mcpc's CPU per call with tracing absent, with the API's no-op tracer and with a real SDK.
import { LABELS, TRACING_DRIVERS, TRACING_TRANSPORTS, TRANSPORT_LABELS } from './catalog.mjs';
import { describeModules } from './tracing.mjs';

const fmt = (v, digits) =>
  v === undefined ? '—' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const times = (v) => (v === undefined ? '—' : `${v.toFixed(3)}×`);

/** The reference of each row's ratio: the absent row against mcpc's own row, the others against the absent row. */
const REFERENCE = {
  'mcpc-otel-absent': 'mcpc',
  'mcpc-otel-noop': 'mcpc-otel-absent',
  'mcpc-otel-sdk': 'mcpc-otel-absent',
};
/** Issue #30's targets on those ratios (CPU per call); the SDK's figure is reported, not judged. */
const TARGETS = [
  ['mcpc-otel-absent', 1.02, "tracing absent ÷ mcpc's row (`tracing: false`, the client's path before tracing)"],
  ['mcpc-otel-noop', 1.05, "no-op tracer ÷ tracing absent (paired: ÷ mcpc's row, the same per-call path)"],
  ['mcpc-otel-sdk', undefined, 'real SDK ÷ tracing absent (reported)'],
];

export function tracingTable({ summary, plan, titles, transports }) {
  const p = plan.tracing.params;
  const data = summary.tracing ?? {};
  const ts = TRACING_TRANSPORTS.filter((t) => transports.includes(t) && data[t]);
  const ratioOf = (t, d, m) => {
    const ref = REFERENCE[d] && data[t]?.[REFERENCE[d]]?.[m];
    const own = data[t]?.[d]?.[m];
    return ref && own !== undefined ? own / ref : undefined;
  };
  const lines = [
    `### ${titles.tracing} (${p.calls} calls after ${p.warmup} warm-up, the server and transports of scenario 3; steady: the next ${p.calls}; ×ref: the absent row ÷ mcpc's row, the others ÷ the absent row)`,
    '',
  ];
  const header = ['row'];
  for (const t of ts) {
    const l = TRANSPORT_LABELS[t];
    header.push(
      `${l} CPU µs/call`,
      '×ref',
      `${l} CPU min–max`,
      `${l} steady CPU µs/call`,
      '×ref',
      `${l} calls/s`,
      '×ref',
    );
  }
  lines.push(`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
  for (const d of TRACING_DRIVERS) {
    const row = [d === 'mcpc' ? "mcpc's row (`tracing: false`, as every other table)" : LABELS[d]];
    for (const t of ts) {
      const e = data[t]?.[d];
      const failed = e?.errors ? ` (${e.errors.length} failed)` : '';
      row.push(
        `${fmt(e?.cpuUsPerCall, 1)}${failed}`,
        times(ratioOf(t, d, 'cpuUsPerCall')),
        e?.cpuSpread ? `${fmt(e.cpuSpread.min, 1)}–${fmt(e.cpuSpread.max, 1)}` : '—',
        fmt(e?.steadyCpuUsPerCall, 1),
        times(ratioOf(t, d, 'steadyCpuUsPerCall')),
        fmt(e?.callsPerSec, 0),
        times(ratioOf(t, d, 'callsPerSec')),
      );
    }
    lines.push(`| ${row.join(' | ')} |`);
  }
  // The targets: on the rows (medians over fresh processes) and on the paired trials (one process, interleaved),
  // judged on the paired figure where there is one: the rows' spread on a shared machine is wider than 2 %.
  const paired = data.paired ?? {};
  // Paired, the no-op tracer is compared with mcpc's row (`tracing: false`): the absent row's per-call path in the
  // same copy of the code as the no-op client's (the absent row's copy is another install; see tracing-pairs.mjs).
  const PAIRED = { 'mcpc-otel-absent': 'absent/off', 'mcpc-otel-noop': 'noop/off' };
  const head = ts.flatMap((t) => [`${TRANSPORT_LABELS[t]}: rows`, `${TRANSPORT_LABELS[t]}: paired (min–max)`]);
  lines.push(
    '',
    `| target (CPU µs/call) | ${head.join(' | ')} | met |`,
    `| --- | ${head.map(() => '---:').join(' | ')} | :---: |`,
  );
  for (const [d, limit, what] of TARGETS) {
    const cells = [];
    const judged = [];
    for (const t of ts) {
      const rows = ratioOf(t, d, 'cpuUsPerCall');
      const pair = PAIRED[d] && paired[t]?.[PAIRED[d]]?.ratio;
      cells.push(times(rows), pair ? `${times(pair.median)} (${pair.min.toFixed(3)}–${pair.max.toFixed(3)})` : '—');
      const v = pair?.median ?? rows;
      if (v !== undefined) judged.push(v);
    }
    const met = limit === undefined || judged.length === 0 ? '—' : judged.every((v) => v <= limit) ? 'yes' : '**no**';
    lines.push(`| ${what}${limit ? ` ≤ ${limit}` : ''} | ${cells.join(' | ')} | ${met} |`);
  }
  const pairedTs = ts.filter((t) => paired[t]);
  if (pairedTs.length) {
    const p2 = plan.tracing.paired.params;
    const cpu = pairedTs.flatMap((t) =>
      Object.entries(paired[t]).map(([key, e]) => {
        const [second, first] = key.split('/');
        const of = (n) => fmt(e.cpuUsPerCall[n], 1);
        return `${TRANSPORT_LABELS[t]} ${second} ${of(second)} against ${first} ${of(first)} (${e.ok} of ${e.trials})`;
      }),
    );
    lines.push(
      '',
      `Paired: lib/tracing-pairs.mjs, two clients in one process against the same server program, ${p2.rounds} rounds of one batch per client (${Object.entries(
        plan.tracing.paired.batch,
      )
        .map(([t, n]) => `${n} calls on ${TRANSPORT_LABELS[t]}`)
        .join(
          ', ',
        )}) (${p2.inFlight} in flight), the order reversed every other round; a process's ratio is the median of its rounds' ratios, the table's the median over ${plan.tracing.paired.trials} processes per pair (min–max over them). Each client's CPU µs/call there (medians): ${cpu.join('; ')}.`,
    );
  }
  const spans = ts
    .map((t) => {
      const n = data[t]?.['mcpc-otel-sdk']?.spansExported;
      return n === undefined ? undefined : `${TRANSPORT_LABELS[t]} ${fmt(n / (p.warmup + 2 * p.calls), 3)}`;
    })
    .filter(Boolean);
  if (spans.length)
    lines.push(
      '',
      `Spans the SDK row's exporter got per call (median trial; its connect and list add a few): ${spans.join(', ')}.`,
    );
  const modules = describeModules(data.modules);
  if (modules.length)
    lines.push(
      '',
      'What the client loads of @opentelemetry (lib/module-check.mjs, a fresh process each):',
      '',
      ...modules,
    );
  return lines.join('\n');
}
