// Runs every required test of the official JSON Schema Test Suite (draft-07, 2019-09, 2020-12) against `compile`.
//
// The `optional/` folders are not required. `format` is an annotation here, as MCP treats it; the required format tests
// expect exactly that. A test listed in skipped.json must still fail: one that starts passing is reported, so the list
// cannot go stale.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, stopPatternWorker } from '../src/index.js';
import type { JsonValue } from '../src/index.js';

const SUITE = fileURLToPath(new URL('../../../tooling/json-schema-test-suite/', import.meta.url));
const DIALECTS = { draft7: 'draft-07', 'draft2019-09': '2019-09', 'draft2020-12': '2020-12' } as const;

interface SuiteTest {
  description: string;
  data: JsonValue;
  valid: boolean;
}
interface SuiteCase {
  description: string;
  schema: JsonValue;
  tests: SuiteTest[];
}
interface Skip {
  dialect: string;
  file: string;
  case: string;
  test: string;
  reason: string;
}

function remotes(): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  const root = join(SUITE, 'remotes');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.json')) {
        const doc = JSON.parse(readFileSync(p, 'utf8')) as JsonValue;
        out.set(`http://localhost:1234/${relative(root, p).split('\\').join('/')}`, doc);
        // Some remotes declare an $id other than where they are served (see the suite's README).
        const id =
          typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as { $id?: unknown }).$id : undefined;
        if (typeof id === 'string' && !out.has(id)) out.set(id, doc);
      }
    }
  };
  walk(root);
  return out;
}

const skipped: Skip[] = JSON.parse(readFileSync(new URL('./skipped.json', import.meta.url), 'utf8')) as Skip[];
const skipKey = (s: Omit<Skip, 'reason'>): string => [s.dialect, s.file, s.case, s.test].join(' | ');
const skips = new Map(skipped.map((s) => [skipKey(s), s.reason]));
const resources = existsSync(SUITE) ? remotes() : new Map<string, JsonValue>();
const tally: Record<string, { passed: number; failed: number; skipped: number }> = {};

afterAll(async () => {
  await stopPatternWorker();
  const lines = Object.entries(tally).map(([d, t]) => {
    const total = t.passed + t.failed + t.skipped;
    return `${d}: ${t.passed}/${total} passed (${((100 * t.passed) / total).toFixed(1)}%), ${t.skipped} skipped, ${t.failed} failed`;
  });
  console.log(`JSON Schema Test Suite, required tests:\n  ${lines.join('\n  ')}`);
});

describe.skipIf(!existsSync(SUITE))('JSON Schema Test Suite', () => {
  for (const [dir, dialect] of Object.entries(DIALECTS)) {
    const t = (tally[dialect] = { passed: 0, failed: 0, skipped: 0 });
    const folder = join(SUITE, 'tests', dir);
    for (const file of readdirSync(folder)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const cases = JSON.parse(readFileSync(join(folder, file), 'utf8')) as SuiteCase[];
      describe(`${dialect}/${file}`, () => {
        for (const c of cases) {
          it(c.description, () => {
            const hasSchema = typeof c.schema === 'object' && c.schema !== null && '$schema' in c.schema;
            const failures: string[] = [];
            const nowPassing: string[] = [];
            let v: ReturnType<typeof compile> | undefined;
            let compileError: unknown;
            try {
              v = compile(c.schema, { resources, ...(hasSchema ? {} : { dialect }) });
            } catch (e) {
              compileError = e;
            }
            for (const test of c.tests) {
              const key = skipKey({ dialect, file, case: c.description, test: test.description });
              let ok: boolean;
              let why = '';
              if (v === undefined) {
                ok = false;
                why = `compile threw ${String(compileError)}`;
              } else {
                const r = v.validate(test.data);
                const quick = v.isValid(test.data);
                ok = r.valid === test.valid && quick === test.valid && (r.valid || r.errors.length > 0);
                if (!ok) why = `expected valid=${test.valid}, validate=${r.valid}, isValid=${quick}`;
              }
              if (skips.has(key)) {
                t.skipped++;
                if (ok) nowPassing.push(test.description);
              } else if (ok) {
                t.passed++;
              } else {
                t.failed++;
                failures.push(`${test.description}: ${why}`);
              }
            }
            expect(nowPassing, 'listed in skipped.json but passes now: remove it').toEqual([]);
            expect(failures).toEqual([]);
          });
        }
      });
    }
  }
});
