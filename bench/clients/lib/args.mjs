// The clients benchmark's command line: its options, and the saved run `--report` prints again.
import { readFileSync } from 'node:fs';
import { ALL_DRIVERS, ALL_SCENARIOS, ALL_TRANSPORTS } from './catalog.mjs';

function usage(message) {
  if (message) console.error(message);
  console.error(
    `usage: node bench/clients/run.mjs [--quick] [--only ${ALL_SCENARIOS.join(',')}] [--drivers ${ALL_DRIVERS.join(',')}]\n` +
      '       [--transports stdio,http,http-json] [--rounds N] [--out results.json] [--no-build] [--cpu-prof]\n' +
      "       node bench/clients/run.mjs --report results.json   (a saved run's report again, running nothing)",
  );
  process.exit(2);
}
/** The options of `argv` (process.argv past the script), and the saved run of `--report`, if any. */
export function parseArgs(argv) {
  const opts = {
    quick: false,
    only: ALL_SCENARIOS,
    drivers: ALL_DRIVERS,
    transports: ALL_TRANSPORTS,
    rounds: undefined,
    out: undefined,
    build: true,
    cpuProf: false,
    report: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    const list = (v, allowed, what) => {
      const items = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const item of items)
        if (!allowed.includes(item)) usage(`unknown ${what} "${item}" (one of ${allowed.join(', ')})`);
      if (items.length === 0) usage(`${a} needs at least one ${what}`);
      return items;
    };
    if (a === '--quick') opts.quick = true;
    else if (a === '--only') opts.only = list(value(), ALL_SCENARIOS, 'scenario');
    else if (a === '--drivers') opts.drivers = list(value(), ALL_DRIVERS, 'driver');
    else if (a === '--transports') opts.transports = list(value(), ALL_TRANSPORTS, 'transport');
    else if (a === '--rounds') {
      opts.rounds = Number(value());
      if (!Number.isInteger(opts.rounds) || opts.rounds < 1 || opts.rounds > 50) usage('--rounds must be 1..50');
    } else if (a === '--out') opts.out = value();
    else if (a === '--no-build') opts.build = false;
    else if (a === '--cpu-prof') opts.cpuProf = true;
    else if (a === '--report') opts.report = value();
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  // --report: a saved run (its meta, plan, scenarios, transports and medians), rendered again as it ran.
  const saved = opts.report === undefined ? undefined : readSaved(opts.report);
  return { opts, saved };
}

function readSaved(path) {
  let run;
  try {
    run = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    usage(`--report ${path}: ${error.message}`);
  }
  for (const key of ['meta', 'plan', 'scenarios', 'transports', 'summary'])
    if (run?.[key] === undefined) usage(`--report ${path}: not a results file of this bench (no "${key}")`);
  return run;
}
