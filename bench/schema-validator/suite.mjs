// JSON Schema Test Suite pass rates per dialect, raw @cfworker/json-schema against @mcpc/schema-validator.
//
// Only the suite's required tests count. Remotes are registered under http://localhost:1234/ (and their own $id);
// nothing is fetched. A test counts as passed when the engine compiles the schema and answers `valid` as the suite
// expects; a throw counts as a failure. "accepts invalid" counts the failures that let invalid data through. `format`
// is run as each engine does by default (cfworker asserts it; the required format tests expect it to be an annotation).
//
//   node bench/schema-validator/suite.mjs     (build @mcpc/schema-validator first)

import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator as CfValidator } from '@cfworker/json-schema';

let ours;
try {
  ours = await import('@mcpc/schema-validator');
} catch {
  ours = await import('../../packages/schema-validator/dist/index.js');
}

const SUITE = fileURLToPath(new URL('../../tooling/json-schema-test-suite/', import.meta.url));
if (!existsSync(SUITE)) throw new Error(`the test suite is not at ${SUITE}`);
const DIALECTS = {
  draft7: ['draft-07', '7'],
  'draft2019-09': ['2019-09', '2019-09'],
  'draft2020-12': ['2020-12', '2020-12'],
};

const remotes = new Map();
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.json')) {
      const text = readFileSync(p, 'utf8');
      const uri = `http://localhost:1234/${relative(join(SUITE, 'remotes'), p).split('\\').join('/')}`;
      remotes.set(uri, text);
      const id = JSON.parse(text).$id;
      if (typeof id === 'string' && !remotes.has(id)) remotes.set(id, text);
    }
  }
};
walk(join(SUITE, 'remotes'));
const oursResources = new Map([...remotes].map(([k, v]) => [k, JSON.parse(v)]));

const engines = {
  '@cfworker/json-schema': (schema, cfDraft) => {
    // cfworker writes into the schemas it is given: fresh copies for every case.
    const v = new CfValidator(schema, cfDraft, false);
    for (const [uri, text] of remotes) v.addSchema(JSON.parse(text), uri);
    return (data) => v.validate(data).valid;
  },
  '@mcpc/schema-validator': (schema, _cfDraft, dialect) => {
    const hasSchema = typeof schema === 'object' && schema !== null && '$schema' in schema;
    const v = ours.compile(schema, { resources: oursResources, ...(hasSchema ? {} : { dialect }) });
    return (data) => v.isValid(data);
  },
};

const results = {};
for (const [dir, [dialect, cfDraft]] of Object.entries(DIALECTS)) {
  const folder = join(SUITE, 'tests', dir);
  for (const [name, make] of Object.entries(engines)) {
    const t = { passed: 0, failed: 0, acceptsInvalid: 0, total: 0 };
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.json'))) {
      const text = readFileSync(join(folder, file), 'utf8');
      const cases = JSON.parse(text);
      for (const [i, c] of cases.entries()) {
        let check;
        try {
          check = make(JSON.parse(text)[i].schema, cfDraft, dialect);
        } catch {
          check = undefined;
        }
        for (const test of c.tests) {
          t.total++;
          let got;
          try {
            got = check === undefined ? undefined : check(test.data);
          } catch {
            got = undefined;
          }
          if (got === test.valid) t.passed++;
          else {
            t.failed++;
            if (got === true && !test.valid) t.acceptsInvalid++;
          }
        }
      }
    }
    (results[dialect] ??= {})[name] = { ...t, rate: Number(((100 * t.passed) / t.total).toFixed(1)) };
  }
}

console.log('dialect   engine                  passed / total   rate    accepts invalid');
for (const [dialect, byEngine] of Object.entries(results)) {
  for (const [name, t] of Object.entries(byEngine)) {
    console.log(
      `${dialect.padEnd(9)} ${name.padEnd(23)} ${String(t.passed).padStart(6)} / ${String(t.total).padEnd(5)}  ${(t.rate.toFixed(1) + '%').padStart(6)}  ${String(t.acceptsInvalid).padStart(6)}`,
    );
  }
}
writeFileSync(new URL('./suite-results.json', import.meta.url), JSON.stringify(results, null, 2) + '\n');
await ours.stopPatternWorker?.();
