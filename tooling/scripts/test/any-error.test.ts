// `AnyMcpcError` over the built declarations: one entry per library error class with the code its instances carry.
//
// The taxonomy (tooling/scripts/error-taxonomy.mjs) constructs every exported error class and reads its code; this
// test reads `McpcErrors` as a consumer's compiler sees it with every library package loaded, and compiles a
// `switch` on `code` to show that it is checked for exhaustiveness. Reads dist/: build first.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Taxonomy {
  readonly classes: readonly { readonly name: string; readonly brand?: string; readonly code?: string }[];
  readonly codeSets: readonly { readonly entry: string; readonly values: readonly string[] }[];
}

/**
 * Codes no `McpError` carries: those of the HTTP clients' internal timeouts and of an idle stream, which are
 * the `cause` of the error a caller sees (a `NetworkError`, a `RequestTimeoutError`), never that error's code.
 */
const CAUSE_ONLY_CODES = ['MCPC_BODY_TIMEOUT', 'MCPC_CONNECT_TIMEOUT', 'MCPC_HEADERS_TIMEOUT', 'MCPC_STREAM_IDLE'];

/** The library packages (the CLI is an application: its errors become exit codes, not API). */
const libraries = readdirSync(join(root, 'packages'))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.name !== '@mcpc/cli' && typeof manifest.types === 'string')
  .map(({ dir, manifest }) => ({ dir, name: manifest.name as string }));

/** Each library class once, by brand, with the code an instance made with sample arguments carries. */
let expected: Map<string, { name: string; code: string }>;
/** Every code the library packages declare. */
let declared: Set<string>;

beforeAll(() => {
  const run = spawnSync(process.execPath, [join(root, 'tooling/scripts/error-taxonomy.mjs')], {
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(run.status, run.stderr).toBe(0);
  const taxonomy = JSON.parse(run.stdout) as Taxonomy;
  expected = new Map();
  for (const c of taxonomy.classes)
    if (c.brand !== undefined && c.code !== undefined && !c.brand.startsWith('@mcpc/cli.'))
      expected.set(c.brand, { name: c.name, code: c.code });
  declared = new Set(taxonomy.codeSets.filter((s) => s.entry !== '@mcpc/cli').flatMap((s) => s.values));
});

/** A program over `source` that sees every library package's built declarations, as an installed consumer would. */
function compile(source: string): { program: ts.Program; file: ts.SourceFile; checker: ts.TypeChecker } {
  const fileName = join(root, 'tooling/scripts/test/__any-error-consumer.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
    baseUrl: root,
    paths: Object.fromEntries(
      libraries.flatMap(({ dir, name }) => [
        [name, [`packages/${dir}/dist/index.d.ts`]],
        [`${name}/*`, [`packages/${dir}/dist/*`]],
      ]),
    ),
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError) =>
    name === fileName ? ts.createSourceFile(name, source, version) : read(name, version, onError);
  host.fileExists = (
    (exists) => (name: string) =>
      name === fileName || exists(name)
  )(host.fileExists.bind(host));
  const program = ts.createProgram([fileName], options, host);
  return { program, file: program.getSourceFile(fileName)!, checker: program.getTypeChecker() };
}

const loadAll = libraries.map(({ name }) => `import type {} from '${name}';`).join('\n');
const diagnostics = (program: ts.Program, file: ts.SourceFile): string[] =>
  ts
    .getPreEmitDiagnostics(program, file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    .filter((m) => m.length > 0);

describe('AnyMcpcError', () => {
  it('has each library error class with the code its instances carry, and every declared code once', () => {
    const { program, file, checker } = compile(
      `${loadAll}\nimport type { McpcErrors } from '@mcpc/jsonrpc';\nexport type Probe = McpcErrors;\n`,
    );
    expect(diagnostics(program, file)).toEqual([]);
    const probe = file.statements.find(ts.isTypeAliasDeclaration)!;
    const registry = checker.getTypeAtLocation(probe.name);
    /** Each entry: the class it names and the codes it allows. */
    const entries = checker.getPropertiesOfType(registry).map((property) => {
      const member = checker.getTypeOfSymbol(property);
      const code = checker.getTypeOfSymbol(checker.getPropertyOfType(member, 'code')!);
      const literals = (code.isUnion() ? code.types : [code]).map((t) =>
        t.isStringLiteral() ? t.value : checker.typeToString(t),
      );
      const classPart = member.isIntersection() ? member.types[0] : member;
      return { key: property.name, name: classPart?.getSymbol()?.name ?? '?', codes: literals };
    });
    expect(expected.size).toBeGreaterThan(80);
    // Every class, by its brand, allows the code its instance carried.
    const missing = [...expected].filter(
      ([brand, { name, code }]) => !entries.some((e) => e.key === brand && e.name === name && e.codes.includes(code)),
    );
    expect(missing).toEqual([]);
    // Every code a library declares is in the union exactly once, unless it only ever names a cause.
    const inUnion = entries.flatMap((e) => e.codes);
    expect(inUnion.filter((c, i) => inUnion.indexOf(c) !== i)).toEqual([]);
    expect([...declared].filter((c) => !inUnion.includes(c) && !CAUSE_ONLY_CODES.includes(c))).toEqual([]);
    expect(inUnion.filter((c) => !declared.has(c))).toEqual([]);
  });

  it('makes a switch on code exhaustive: every code handled compiles, one left out does not', () => {
    const codes = [...declared].filter((c) => !CAUSE_ONLY_CODES.includes(c));
    const body = (cases: readonly string[]): string =>
      `${loadAll}\nimport { isMcpcError } from '@mcpc/client';\n` +
      `export function kind(error: unknown): string {\n  if (!isMcpcError(error)) return 'other';\n` +
      `  switch (error.code) {\n${cases.map((c) => `    case ${JSON.stringify(c)}: return error.name;`).join('\n')}\n` +
      `    default: { const unhandled: never = error; return unhandled; }\n  }\n}\n`;
    const all = compile(body(codes));
    expect(diagnostics(all.program, all.file)).toEqual([]);
    const missing = compile(body(codes.filter((c) => c !== 'MCPC_REQUEST_TIMEOUT')));
    expect(diagnostics(missing.program, missing.file).join('\n')).toMatch(
      /RequestTimeoutError.*not assignable to type 'never'/s,
    );
  });

  it('narrows to the class: a timeout has its timeoutMs, a missing tool its suggestions', () => {
    const { program, file } = compile(
      `${loadAll}\nimport { isMcpcError } from '@mcpc/client';\n` +
        `export function describe(error: unknown): string {\n  if (!isMcpcError(error)) return '';\n` +
        `  if (error.code === 'MCPC_REQUEST_TIMEOUT') return String(error.timeoutMs);\n` +
        `  if (error.code === 'MCPC_TOOL_NOT_FOUND') return error.suggestions.join();\n  return error.message;\n}\n`,
    );
    expect(diagnostics(program, file)).toEqual([]);
  });
});
