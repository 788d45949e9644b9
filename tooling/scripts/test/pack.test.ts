// The tarballs `pnpm pack:all` makes install with plain npm outside the workspace, and work.
//
// A project under the system's temp directory installs them and talks to server-everything over stdio.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Runs against the built packages: the test command (tooling/scripts/test.mjs) builds every package
// before vitest starts, so the script is run with --no-build (a second turbo run here would rewrite
// dist/ under the feet of the tests reading it). Run `npx -y pnpm@10.34.8 build` first when running
// this file alone.
const root = fileURLToPath(new URL('../../..', import.meta.url));
const INSTALL_TIMEOUT = 240_000;

// pnpm hands its settings to scripts as npm_config_* variables (and itself as npm_execpath); they are
// kept for pack.mjs, which runs that pnpm, and kept from the plain npm install, which must not see them.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key) && key !== 'npm_execpath'),
);

const read = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const publishable = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => read(join(root, 'packages', d.name, 'package.json')))
  .filter((manifest) => manifest.private !== true);
// Exactly the version apps/examples pins, so the tarballs meet the server the examples run.
const everythingVersion = (read(join(root, 'apps', 'examples', 'package.json')).dependencies as Record<string, string>)[
  '@modelcontextprotocol/server-everything'
];

function run(command: string, args: string[], cwd: string, timeout: number, withEnv: NodeJS.ProcessEnv = env): string {
  const r = spawnSync(command, args, { cwd, env: withEnv, encoding: 'utf8', timeout, killSignal: 'SIGKILL' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

let scratch: string;
let tarballs: string[];
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'mcpc-pack-'));
  const out = join(scratch, 'packs');
  run(
    process.execPath,
    [join(root, 'tooling', 'scripts', 'pack.mjs'), '--no-build', '--out', out],
    root,
    120_000,
    process.env,
  );
  tarballs = readdirSync(out)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => join(out, f));
}, 130_000);
afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('pnpm pack:all', () => {
  it('makes one tarball per publishable package under packages/, found on disk', () => {
    const expected = publishable
      .map((m) => `${String(m.name).replace(/^@/, '').replace('/', '-')}-${String(m.version)}.tgz`)
      .sort();
    expect(tarballs.map((t) => t.slice(t.lastIndexOf('/') + 1)).sort()).toEqual(expected);
    expect(expected).toContain('mcpc-client-0.1.0.tgz');
  });

  it('rewrites every workspace: range into a real version', () => {
    for (const tarball of tarballs) {
      const manifest = run('tar', ['-xzOf', tarball, 'package/package.json'], scratch, 30_000);
      expect(manifest, tarball).not.toContain('workspace:');
    }
  });

  it(
    'installs with npm into a fresh project, and @mcpc/client + @mcpc/transport-stdio call echo on server-everything',
    () => {
      const project = join(scratch, 'project');
      mkdirSync(project);
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'mcpc-from-tarballs', private: true, type: 'module' }),
      );
      run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          ...tarballs,
          `@modelcontextprotocol/server-everything@${everythingVersion}`,
        ],
        project,
        INSTALL_TIMEOUT,
      );
      // The copies the project loads are the installed tarballs, not links back into the workspace.
      expect(realpathSync(join(project, 'node_modules', '@mcpc', 'client'))).toBe(
        join(realpathSync(project), 'node_modules', '@mcpc', 'client'),
      );
      writeFileSync(
        join(project, 'echo.mjs'),
        `import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { connect, textOf } from '@mcpc/client';

const require = createRequire(import.meta.url);
const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const client = await connect([process.execPath, everything, 'stdio'], { clientInfo: { name: 'tarball-check', version: '1.0.0' }, requestTimeout: 30_000 });
try {
  console.log(textOf(await client.callTool('echo', { message: 'installed from a tarball' })));
} finally {
  await client.close();
}
`,
      );
      const printed = run(process.execPath, ['echo.mjs'], project, 60_000);
      expect(printed.trim()).toBe('Echo: installed from a tarball');
    },
    INSTALL_TIMEOUT + 90_000,
  );
});
