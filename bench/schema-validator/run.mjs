// The validator benchmark: compile time and validations per second, @mcpc/schema-validator beside cfworker and ajv.
//
// One command, one run: compile time of a typical tool input schema and validations per second on a small (~2 KB) and a
// large (~20 KB) tool output, for raw @cfworker/json-schema, ajv (2020-12 build) and @mcpc/schema-validator. Every loop
// is bounded in count and in time. Prints a table and writes results.json beside this file.
//
//   node bench/schema-validator/run.mjs          (build the package first: pnpm turbo run build)

import { writeFileSync } from 'node:fs';
import { Validator as CfValidator } from '@cfworker/json-schema';
import Ajv2020 from 'ajv/dist/2020.js';
import { inputInstance, inputSchema, outputFor, outputSchema } from './fixtures.mjs';

let ours;
try {
  ours = await import('@mcpc/schema-validator');
} catch {
  // Before bench/* was a workspace, or without the link: the built package by path.
  ours = await import('../../packages/schema-validator/dist/index.js');
}

const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 1000);
const MAX_ITERATIONS = 2_000_000;

const clone = (v) => structuredClone(v);

/** Runs `fn` in batches until `TIME_MS` or `MAX_ITERATIONS`; returns operations per second. */
function measure(fn) {
  // Warm up (JIT), bounded.
  const warmEnd = performance.now() + Math.min(200, TIME_MS / 5);
  for (let i = 0; i < 50_000 && performance.now() < warmEnd; i++) fn(i);
  let n = 0;
  const start = performance.now();
  const end = start + TIME_MS;
  let batch = 1;
  while (n < MAX_ITERATIONS) {
    for (let i = 0; i < batch; i++) fn(n + i);
    n += batch;
    const now = performance.now();
    if (now >= end) return (n * 1000) / (now - start);
    if (batch < 1024) batch *= 2;
  }
  return (n * 1000) / (performance.now() - start);
}

/** Mean time of one compile, on fresh copies (cfworker annotates the schema it is given). */
function compileTime(make) {
  const copies = Array.from({ length: 2000 }, () => clone(inputSchema));
  for (let i = 0; i < 100; i++) make(copies[i]);
  let n = 100;
  const start = performance.now();
  const end = start + TIME_MS;
  while (n < copies.length && performance.now() < end) make(copies[n++]);
  return (performance.now() - start) / (n - 100);
}

const small = outputFor(7);
const large = outputFor(66);
const sizes = { small: JSON.stringify(small).length, large: JSON.stringify(large).length };

// One Ajv instance, as a client would keep: its meta-schema setup is paid once, not per compile. The
// bench schemas have no $id, so the instance accepts every fresh copy.
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const engines = {
  '@cfworker/json-schema': {
    compile: (s) => new CfValidator(s, '2020-12', true),
    validate: (v, d) => v.validate(d).valid,
  },
  ajv: {
    compile: (s) => ajv.compile(s),
    validate: (v, d) => v(d),
  },
  '@mcpc/schema-validator (isValid)': {
    compile: (s) => ours.compile(s),
    validate: (v, d) => v.isValid(d),
  },
  '@mcpc/schema-validator (validate)': {
    compile: (s) => ours.compile(s),
    validate: (v, d) => v.validate(d).valid,
  },
};

const results = { node: process.version, timeMsPerMeasurement: TIME_MS, instanceBytes: sizes, engines: {} };
for (const [name, e] of Object.entries(engines)) {
  const input = e.compile(clone(inputSchema));
  const output = e.compile(clone(outputSchema));
  // A bench that measures a wrong answer measures nothing.
  for (const [v, d] of [
    [input, inputInstance],
    [output, small],
    [output, large],
  ]) {
    if (e.validate(v, d) !== true) throw new Error(`${name} rejects a valid bench instance`);
  }
  if (e.validate(output, { total: -1, items: [] }) !== false)
    throw new Error(`${name} accepts an invalid bench instance`);
  results.engines[name] = {
    compileMs: compileTime(e.compile),
    inputPerSec: measure(() => e.validate(input, inputInstance)),
    smallPerSec: measure(() => e.validate(output, small)),
    largePerSec: measure(() => e.validate(output, large)),
  };
}

const fmt = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0));
const rows = [
  [
    'engine',
    'compile (ms)',
    'input/s',
    `small ${(sizes.small / 1024).toFixed(1)} KB/s`,
    `large ${(sizes.large / 1024).toFixed(1)} KB/s`,
  ],
];
for (const [name, r] of Object.entries(results.engines)) {
  rows.push([name, r.compileMs.toFixed(3), fmt(r.inputPerSec), fmt(r.smallPerSec), fmt(r.largePerSec)]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const [i, r] of rows.entries()) {
  console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
console.log(
  `\n${process.version}; validations per second, compile = mean of one compile of the ~30-property input schema`,
);
writeFileSync(new URL('./results.json', import.meta.url), JSON.stringify(results, null, 2) + '\n');
await ours.stopPatternWorker?.();
