// The pattern-check benchmark: catastrophic patterns, common patterns, many slow strings, answers under CPU load.
//
// Its figures: the two catastrophic patterns of the pattern-engine issue, µs per check for common tool-schema patterns,
// one validation of 1,000 slow strings, and wrong answers from the worker wait under CPU load. Every loop is bounded in
// count. Prints one JSON line per figure.
//
//   node bench/schema-validator/patterns.mjs [catastrophic|benign|many|race]   (build the package first)

let ours;
try {
  ours = await import('@mcpc/schema-validator');
} catch {
  ours = await import('../../packages/schema-validator/dist/index.js');
}
const { compile, stopPatternWorker } = ours;
const what = process.argv[2] ?? 'benign';
const out = (name, v) => console.log(JSON.stringify({ what: name, ...v }));
const now = () => performance.now();

if (what === 'catastrophic') {
  const cases = [
    ['(?:a{1000}){1000}b', 'a'.repeat(50_000)],
    ['^(?:(?=(?:(?=(?:(?=a{1000})a){1000})a){1000})a)*$', 'a'.repeat(3010)],
  ];
  for (const [pattern, s] of cases) {
    const v = compile({ type: 'string', pattern });
    const t0 = now();
    const r = v.validate(s);
    out('catastrophic', { pattern, ms: Math.round(now() - t0), valid: r.valid, message: r.errors[0]?.message });
  }
}

if (what === 'benign') {
  const cases = {
    slug: ['^[a-z0-9]+(?:-[a-z0-9]+)*$', 'my-tool-name'],
    semver: [
      '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$',
      '10.20.30-rc.1+build.5',
    ],
    email: ['^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', 'first.last+tag@sub.example.co.uk'],
    hostname: [
      '^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$',
      'api.v2.service.example.org',
    ],
    'hostname, length lookahead': [
      '^(?=.{1,253}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$',
      'api.v2.service.example.org',
    ],
    'capitalised word': ['\\p{Lu}\\p{Ll}+', 'hello World'],
  };
  for (const [name, [pattern, s]] of Object.entries(cases)) {
    const v = compile({ type: 'string', pattern });
    const re = new RegExp(pattern, 'u');
    for (let i = 0; i < 1000; i++) v.isValid(s);
    const n = 200_000;
    let t0 = now();
    for (let i = 0; i < n; i++) v.isValid(s);
    const ours = ((now() - t0) * 1000) / n;
    t0 = now();
    for (let i = 0; i < n; i++) re.test(s);
    out('benign', { name, usPerCheck: +ours.toFixed(3), rawRegExpUs: +(((now() - t0) * 1000) / n).toFixed(3) });
  }
}

if (what === 'many') {
  // A backreference (worker path), a few ms a string: 1,000 of them in one value.
  const v = compile({ type: 'array', items: { type: 'string', pattern: '^(\\w+)(\\w+)(\\w+)\\1!$' } });
  const value = Array.from({ length: 1000 }, () => 'ab'.repeat(110));
  const t0 = now();
  const r = v.validate(value);
  out('many', { ms: Math.round(now() - t0), valid: r.valid, message: r.errors[0]?.message });
}

if (what === 'race') {
  // Two CPU-burning children for the duration; a valid value must never be refused.
  const { spawn } = await import('node:child_process');
  const burners = [0, 1].map(() =>
    spawn(process.execPath, ['-e', 'const end = Date.now() + 600_000; while (Date.now() < end);'], { stdio: 'ignore' }),
  );
  try {
    const v = compile({ type: 'string', pattern: '^([a-z]+)-\\1$' });
    const s = 'x'.repeat(3000) + '-' + 'x'.repeat(3000);
    const n = 100_000;
    let refused = 0;
    const t0 = now();
    for (let i = 0; i < n; i++) if (!v.isValid(s)) refused++;
    out('race', { checks: n, refused, ms: Math.round(now() - t0) });
  } finally {
    for (const b of burners) b.kill();
  }
}

await stopPatternWorker();
