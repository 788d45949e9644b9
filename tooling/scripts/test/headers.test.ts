// Every source file opens with a one-line `// ` header (≤120 characters) saying what it owns, after a shebang if any.
//
// A longer explanation is welcome, as its own paragraph: line 2 is then exactly `//`, so the header stays one line
// that reads alone. The files are the ones git knows (tracked, or new and not ignored) under each package's src/ and
// test/, apps/, tooling/ and bench/; built and installed files are not ours to head, nor is generated data.
//
// A source file over 450 lines (tests aside) says why it is one job, in its first 15 lines, on a line that opens
// `// Over 450 lines` (issue #28); any other is split by job.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

const MAX_HEADER = 120;
const COVERED = /^(?:packages\/[^/]+\/(?:src|test)|apps|tooling|bench)\//;
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const NOT_OURS = /(?:^|\/)(?:node_modules|dist)\//;
// Written by a generator, which owns their header: editing it by hand would fail their drift test.
const GENERATED = ['packages/schema-validator/src/metaschemas.ts'];
// Comments addressed to a tool, not to a reader.
const DIRECTIVE = /^\/\/\s*(?:@ts-|eslint-|prettier-ignore|global\s)/;
const MAX_LINES = 450;
const REASON_WITHIN = 15;
const REASON = /^\/\/ Over 450 lines\b/;
// Tests are exempt from the length rule: a test file is as long as the cases of the module it tests.
const TEST = /(?:\.test\.[cm]?[jt]sx?$|(?:^|\/)test\/)/;

/** The source files the header rule covers, as repository-relative paths with `/` separators. */
function covered(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = new Set(listed.split('\0'));
  return [...files]
    .filter((file) => COVERED.test(file) && SOURCE.test(file) && !NOT_OURS.test(file))
    .filter((file) => !GENERATED.includes(file) && existsSync(join(root, file)))
    .sort();
}

/** What is wrong with a file's opening lines, or undefined when it has a one-line header. */
function headerProblem(text: string): string | undefined {
  const lines = text.split(/\r?\n/, 3);
  const [first = '', second] = lines[0]?.startsWith('#!') ? lines.slice(1) : lines;
  if (!/^\/\/ \S/.test(first) || DIRECTIVE.test(first)) return 'no `// ` header on line 1';
  const length = [...first].length;
  if (length > MAX_HEADER) return `header of ${length} characters (at most ${MAX_HEADER})`;
  if (second !== undefined && second.startsWith('//') && second !== '//') {
    return 'header continues on line 2 (make it one line, then `//` before any longer explanation)';
  }
  return undefined;
}

/** Why a file breaks the length rule, or undefined when it is short enough or states its reason near the top. */
function lengthProblem(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  if (count <= MAX_LINES) return undefined;
  if (lines.slice(0, REASON_WITHIN).some((line) => REASON.test(line))) return undefined;
  const wanted = `// Over ${MAX_LINES} lines: <why it is one job>`;
  return `${count} lines, and no \`${wanted}\` in its first ${REASON_WITHIN} lines (or split it by job)`;
}

describe('one-line headers', () => {
  it('accepts a one-line header, after a shebang too, with or without a paragraph after `//`', () => {
    expect(headerProblem('// The engine.\nimport x from "y";\n')).toBeUndefined();
    expect(headerProblem('#!/usr/bin/env node\n// A fixture server.\n')).toBeUndefined();
    expect(headerProblem('// The engine.\n//\n// Why it is one module: …\n\nexport {};\n')).toBeUndefined();
    expect(headerProblem('// The engine.\n')).toBeUndefined();
    expect(headerProblem(`// ${'x'.repeat(MAX_HEADER - 3)}\n`)).toBeUndefined();
    expect(headerProblem(`// ${'é'.repeat(MAX_HEADER - 3)}\n`)).toBeUndefined();
  });

  it('rejects a missing, late, directive, block, long or multi-line header', () => {
    expect(headerProblem('import x from "y";\n')).toMatch(/no `\/\/ ` header/);
    expect(headerProblem('#!/usr/bin/env node\nimport x from "y";\n')).toMatch(/no `\/\/ ` header/);
    expect(headerProblem('/** The first declaration. */\nexport {};\n')).toMatch(/no `\/\/ ` header/);
    expect(headerProblem('/* A block header. */\n')).toMatch(/no `\/\/ ` header/);
    expect(headerProblem('//\nexport {};\n')).toMatch(/no `\/\/ ` header/);
    expect(headerProblem('\n// late\n')).toMatch(/no `\/\/ ` header/);
    expect(headerProblem('// @ts-check\n// A fixture.\n')).toMatch(/no `\/\/ ` header/);
    expect(headerProblem('// eslint-disable no-console\n')).toMatch(/no `\/\/ ` header/);
    expect(headerProblem(`// ${'x'.repeat(MAX_HEADER - 2)}\n`)).toMatch(/121 characters/);
    expect(headerProblem('// The engine: requests,\n// responses and notifications.\n')).toMatch(/continues on line 2/);
    expect(headerProblem('#!/usr/bin/env node\n// A fixture\n// server.\n')).toMatch(/continues on line 2/);
  });

  it("covers every package's sources and tests, the apps, the tooling and the benchmarks, and nothing built", () => {
    const files = covered();
    expect(files).toContain('packages/jsonrpc/src/engine.ts');
    expect(files).toContain('packages/jsonrpc/test/engine.test.ts');
    expect(files).toContain('apps/custom-transport/test/tcp-transport.test.ts');
    expect(files).toContain('tooling/scripts/check-architecture.mjs');
    expect(files).toContain('tooling/conformance-client/test/conformance.test.ts');
    expect(files.some((file) => file.startsWith('bench/'))).toBe(true);
    expect(files.some((file) => file.endsWith('.tsx'))).toBe(true);
    expect(files.some((file) => NOT_OURS.test(file))).toBe(false);
    expect(files.length).toBeGreaterThan(500);
  });

  it('skips only generated files, which say so in their own header', () => {
    for (const file of GENERATED) {
      expect(readFileSync(join(root, file), 'utf8').split('\n', 8).join('\n')).toMatch(/Generated by \S+/);
    }
  });

  it('accepts a file of at most 450 lines, or a longer one whose header says why it is one job', () => {
    const body = (n: number) => 'x;\n'.repeat(n);
    expect(lengthProblem(`// A module.\n${body(MAX_LINES - 1)}`)).toBeUndefined();
    expect(lengthProblem(`// A module.\n//\n// Over 450 lines: one parser.\n${body(MAX_LINES)}`)).toBeUndefined();
    expect(
      lengthProblem(`#!/usr/bin/env node\n// A fixture.\n//\n// Over 450 lines: one table.\n${body(500)}`),
    ).toBeUndefined();
  });

  it('rejects a longer file with no reason, or a reason too late or worded otherwise', () => {
    const body = (n: number) => 'x;\n'.repeat(n);
    expect(lengthProblem(`// A module.\n${body(MAX_LINES)}`)).toMatch(/^451 lines/);
    expect(lengthProblem(`// A module.\n${body(20)}// Over 450 lines: late.\n${body(MAX_LINES)}`)).toMatch(/472 lines/);
    expect(lengthProblem(`// A module.\n//\n// It is over 450 lines: one job.\n${body(MAX_LINES)}`)).toMatch(
      /453 lines/,
    );
  });

  it('keeps every source file that is not a test within 450 lines, or says why it is one job', () => {
    const offending = covered()
      .filter((file) => !TEST.test(file))
      .flatMap((file) => {
        const problem = lengthProblem(readFileSync(join(root, file), 'utf8'));
        return problem === undefined ? [] : [`${file}: ${problem}`];
      });
    expect(offending).toEqual([]);
  });

  it('opens every source file with a one-line header', () => {
    const offending = covered().flatMap((file) => {
      const problem = headerProblem(readFileSync(join(root, file), 'utf8'));
      return problem === undefined ? [] : [`${file}: ${problem}`];
    });
    expect(offending).toEqual([]);
  });
});
