// The packages match ARCHITECTURE.md, whose arrows are tooling/architecture.json's table.
//
// Every package sits in that table, and what the built packages import (and the client's root entry uses) is what it
// allows.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types, shared with the command-line check.
import {
  appArrows,
  arrows,
  checkApps,
  checkArchitecture,
  nodeGlobalsOf,
  nodeOnlyInEntry,
  nodeOnlyInWebTargets,
  readTable,
  specifiersOf,
  workspacePackages,
} from '../check-architecture.mjs';

// These read the packages' dist/: the test command (tooling/scripts/test.mjs) builds every package
// before vitest runs; run `npx -y pnpm@10.34.8 build` first when running this file alone.
const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Entry {
  readonly dependencies: readonly string[];
  readonly optionalPeers: readonly string[];
}
interface Manifest {
  readonly name: string;
  readonly [key: string]: unknown;
}

const scratch = mkdtempSync(join(tmpdir(), 'mcpc-architecture-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A package on disk under the scratch directory: its manifest, dist files and src files. */
function fakePackage(
  name: string,
  manifest: object,
  files: Record<string, string>,
): { dir: string; manifest: Manifest } {
  const dir = join(scratch, name.replace('/', '__'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, manifest: { name, ...manifest } };
}

describe('ARCHITECTURE.md', () => {
  it("draws exactly the apps' table in tooling/architecture.json", () => {
    const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
    const block = /<!-- app-arrows:start[^>]*-->\n```text\n([\s\S]*?)\n```\n<!-- app-arrows:end -->/.exec(doc)?.[1];
    expect(block).toBe(appArrows());
  });

  it('draws exactly the table in tooling/architecture.json', () => {
    const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
    const block = /<!-- arrows:start[^>]*-->\n```text\n([\s\S]*?)\n```\n<!-- arrows:end -->/.exec(doc)?.[1];
    expect(block).toBe(arrows());
  });

  it('gives every package under packages/ its place, and the README links to it', () => {
    const table = readTable() as Map<string, Entry>;
    const names = (workspacePackages() as { manifest: Manifest }[]).map((p) => p.manifest.name);
    expect(names.filter((name) => !table.has(name))).toEqual([]);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('(ARCHITECTURE.md)');
  });
});

describe('the packages', () => {
  it('depend on, and import, only what the picture allows (package.json, dist/**/*.js, relative imports in src/)', () => {
    expect(checkArchitecture()).toEqual([]);
  });

  it("@mcpc/client's root entry loads nothing Node-only: no node: import, no Buffer, process, __dirname or require in its static graph", () => {
    const { files, found } = nodeOnlyInEntry() as { files: string[]; found: string[] };
    expect(files).toContain(join('packages', 'client', 'dist', 'index.js'));
    expect(found).toEqual([]);
  });

  it("@mcpc/client's root entry does not carry the tracing code: a chunk loaded once @opentelemetry/api is found", () => {
    const { files } = nodeOnlyInEntry() as { files: string[] };
    const tracing = /connection-tracing-\w+\.js$/;
    expect(files.filter((file) => tracing.test(file))).toEqual([]);
    // The chunk exists and a module of the static graph loads it on demand.
    const loads = files.flatMap((file) =>
      (specifiersOf(readFileSync(join(root, file), 'utf8'), file) as { specifier: string; dynamic: boolean }[])
        .filter(({ specifier, dynamic }) => dynamic && tracing.test(specifier))
        .map(({ specifier }) => specifier),
    );
    expect(loads).toHaveLength(1);
  });

  it('the modules the packages\' "imports" maps give a browser or a Worker load nothing Node-only', () => {
    expect(nodeOnlyInWebTargets()).toEqual([]);
    // And the check sees what it must: the Node targets do load Node's modules.
    const http = join(root, 'packages', 'http', 'dist');
    expect((nodeOnlyInEntry(join(http, 'decompress-node.js')) as { found: string[] }).found.join('\n')).toContain(
      "imports 'node:zlib'",
    );
  });
});

describe('the check itself', () => {
  it('reads imports through the parser: static, re-exports, dynamic; not strings or comments', () => {
    const code = `import a from 'x'; import 'y'; export { b } from './b.js'; const c = () => import('z');
      // import q from 'comment'
      const s = "import r from 'string'";`;
    expect(specifiersOf(code)).toEqual([
      { specifier: 'x', dynamic: false, typeOnly: false },
      { specifier: 'y', dynamic: false, typeOnly: false },
      { specifier: './b.js', dynamic: false, typeOnly: false },
      { specifier: 'z', dynamic: true, typeOnly: false },
    ]);
  });

  it('follows a computed import() only through its `optional peer:` comment', () => {
    const code = `const n = 'p'; import(/* optional peer: @scope/peer */ n); import(n);`;
    expect(specifiersOf(code)).toEqual([
      { specifier: '@scope/peer', dynamic: true, typeOnly: false, named: true },
      { specifier: '<computed>', dynamic: true, typeOnly: false },
    ]);
  });

  it('finds uses of Node-only globals, not property names, strings, comments or local bindings', () => {
    const code = `const a = Buffer.from('x').toString('base64');
      if (process.env.X) {}
      const o = { process: 1, require: 2 }; o.Buffer; // Buffer in a comment
      const t = 'process and __dirname in a string';
      function f(require) { return require('m'); }`;
    expect(nodeGlobalsOf(code)).toEqual([
      { name: 'Buffer', line: 1 },
      { name: 'process', line: 2 },
    ]);
  });

  it('reports a package outside the table, undeclared arrows, static imports of optional peers, undeclared and private imports, escaping sources', () => {
    const table = new Map<string, Entry>([
      ['@mcpc/t-kernel', { dependencies: [], optionalPeers: [] }],
      ['@mcpc/t-top', { dependencies: ['@mcpc/t-kernel'], optionalPeers: ['@mcpc/peer'] }],
    ]);
    const kernel = fakePackage(
      '@mcpc/t-kernel',
      { exports: { '.': './dist/index.js' } },
      { 'dist/index.js': 'export const k = 1;\n', 'src/index.ts': 'export const k = 1;\n' },
    );
    const top = fakePackage(
      '@mcpc/t-top',
      { dependencies: { '@mcpc/t-kernel': '1', '@mcpc/kernel': '1' }, peerDependencies: { '@mcpc/peer': '1' } },
      {
        'dist/index.js':
          "import { k } from '@mcpc/peer'; import 'left-pad'; import '@mcpc/jsonrpc'; export const t = () => import('@mcpc/peer');\n" +
          "const n = 'x'; export const u = () => import(/* optional peer: not-a-peer */ n);\n",
        'src/index.ts': "export * from '../../kernel/src/index.js';\n",
      },
    );
    const stray = fakePackage('@mcpc/t-stray', {}, { 'dist/index.js': '\n' });
    const problems = checkArchitecture({ table, packages: [kernel, top, stray] }) as string[];
    expect(problems.join('\n')).toMatch(
      /@mcpc\/t-top: package\.json dependencies on @mcpc packages are \[@mcpc\/kernel, @mcpc\/t-kernel\], the picture draws \[@mcpc\/t-kernel\]/,
    );
    expect(problems.join('\n')).toMatch(/peer @mcpc\/peer is not marked optional/);
    expect(problems.join('\n')).toMatch(/imports the optional peer '@mcpc\/peer' statically/);
    expect(problems.join('\n')).toMatch(/imports 'left-pad', which @mcpc\/t-top's package\.json does not declare/);
    expect(problems.join('\n')).toMatch(/imports '@mcpc\/jsonrpc', which the picture does not allow for @mcpc\/t-top/);
    expect(problems.join('\n')).toMatch(/'\.\.\/\.\.\/kernel\/src\/index\.js' reaches outside @mcpc\/t-top's src\//);
    expect(problems.join('\n')).toMatch(/@mcpc\/t-stray: not in tooling\/architecture\.json/);
    expect(problems.join('\n')).toMatch(
      /import\(\) names 'not-a-peer' an optional peer, which @mcpc\/t-top's package\.json does not/,
    );
    // The one dynamic import of the optional peer is allowed: only the static one is reported.
    expect(problems.filter((p) => p.includes("'@mcpc/peer'"))).toHaveLength(1);
  });

  it('holds the apps to their arrows: package.json, @mcpc imports and their entries, the browser parts, escaping files', () => {
    expect(checkApps()).toEqual([]);
  });

  it('reports an app whose page imports Node or the server, whose imports are not drawn, whose files escape', () => {
    const app = join(scratch, 'app');
    const files: Record<string, string> = {
      'package.json': JSON.stringify({
        name: '@mcpc/t-app',
        dependencies: { '@mcpc/client': '1', '@mcpc/oauth': '1' },
      }),
      'web/page.ts': "import 'node:fs'; import '../server/main.js'; import '../contract/api.js'; import 'preact';\n",
      'contract/api.ts': 'export type Api = 1;\n',
      'server/main.ts':
        "import '@mcpc/transport-stdio'; import '@mcpc/client/internal'; import '../../elsewhere.js';\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(app, path, '..'), { recursive: true });
      writeFileSync(join(app, path), text);
    }
    const apps = new Map([
      [
        '@mcpc/t-app',
        {
          dir: app,
          dependencies: ['@mcpc/client'],
          parts: { web: { nodeFree: true, reads: ['contract'], may: ['preact'] } },
        },
      ],
    ]);
    const problems = (checkApps({ apps }) as string[]).join('\n');
    expect(problems).toMatch(
      /dependencies on @mcpc packages are \[@mcpc\/client,@mcpc\/oauth\], the picture draws \[@mcpc\/client\]/,
    );
    expect(problems).toMatch(/web\/page\.ts: imports 'node:fs', which the browser part may not/);
    expect(problems).toMatch(/web\/page\.ts: '\.\.\/server\/main\.js' leaves the browser part/);
    expect(problems).not.toMatch(/contract\/api/);
    expect(problems).not.toMatch(/'preact'/);
    expect(problems).toMatch(/server\/main\.ts: imports '@mcpc\/transport-stdio', which the picture does not allow/);
    expect(problems).toMatch(/'@mcpc\/client\/internal' is not a public entry point of @mcpc\/client/);
    expect(problems).toMatch(/'\.\.\/\.\.\/elsewhere\.js' reaches outside/);
  });
});
