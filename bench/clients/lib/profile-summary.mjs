#!/usr/bin/env node
// Self time by function (with file:line) and by package, from a V8 CPU profile (node --cpu-prof).
//
// node lib/profile-summary.mjs <file.cpuprofile> [--top N] [--filter substring] [--window fromUs,toUs] [--inclusive]
//
// --window keeps the samples of a trial's measured window (its result's windowUs, in results JSON).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: profile-summary.mjs <file.cpuprofile> [--top N] [--filter text]');
  process.exit(2);
}
const top = Number(args[args.indexOf('--top') + 1]) || 30;
const filter = args.includes('--filter') ? args[args.indexOf('--filter') + 1] : undefined;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
const deltas = profile.timeDeltas;
const window = args.includes('--window') ? args[args.indexOf('--window') + 1].split(',').map(Number) : undefined;
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += deltas[i] ?? 0;
  if (window && (at < window[0] || at > window[1])) continue;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const where = (cf) => {
  const url = cf.url.replace(/^file:\/\//, '');
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  const pkgPath = /\/packages\/([^/]+)\/(dist|src)\/(.*)$/.exec(url);
  if (pkgPath) return { pkg: `@mcpc/${pkgPath[1]}`, path: `${pkgPath[2]}/${pkgPath[3]}` };
  if (m) return { pkg: m[1], path: m[2] };
  if (url.startsWith('node:')) return { pkg: 'node', path: url.slice(5) };
  if (url === '') return { pkg: cf.functionName.startsWith('(') ? cf.functionName : '(native/V8)', path: '' };
  return { pkg: url.includes('/bench/clients/') ? 'bench' : url, path: url.split('/').slice(-2).join('/') };
};

const fn = new Map();
const pkg = new Map();
for (const [id, us] of selfUs) {
  const { callFrame: cf } = byId.get(id);
  const w = where(cf);
  const key = `${cf.functionName || '(anonymous)'}  ${w.pkg}${w.path ? `/${w.path}` : ''}:${cf.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  pkg.set(w.pkg, (pkg.get(w.pkg) ?? 0) + us);
}
// Inclusive time by function: a sample counts once for every distinct function on its stack.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map();
for (const [id, us] of selfUs) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const { callFrame: cf } = byId.get(cur);
    const w = where(cf);
    const key = `${cf.functionName || '(anonymous)'}  ${w.pkg}${w.path ? `/${w.path}` : ''}:${cf.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
console.log('\nself time by package');
for (const [k, us] of [...pkg].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`${pct(us)} ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
console.log(`\nself time by function (top ${top})`);
for (const [k, us] of [...fn]
  .filter(([k]) => !filter || k.includes(filter))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top))
  console.log(`${pct(us)} ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
if (args.includes('--inclusive')) {
  console.log(`\ninclusive time by function (top ${top})`);
  for (const [k, us] of [...inclusive]
    .filter(([k]) => !filter || k.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`${pct(us)} ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}
