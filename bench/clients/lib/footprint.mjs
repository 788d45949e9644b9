// Scenario 7: install footprint and cold import time.
//
// Each client is installed with `npm install` into a fresh temp project, as a user would install what
// they need for stdio + Streamable HTTP. mcpc's packages (MCPC_PACKAGES) are packed from the workspace first
// (`pnpm pack`), so the tarballs are what would be published; mcpc gets two rows, without and with
// its optional undici. Bytes are the apparent sizes of every
// file under node_modules (npm's own `.package-lock.json` excluded).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, lstat, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export const PACKAGES = {
  // The minimal install: undici is an optional peer of the HTTP transport, which uses Node's own
  // node:http without it.
  mcpc: {
    install: null, // the packed tarballs
    imports: ['@mcpc/client', '@mcpc/transport-stdio', '@mcpc/transport-streamable-http'],
  },
  // The client alone, from the same install (no @opentelemetry/api in it): its own cold import, which loads
  // no @opentelemetry module (the client looks for the API on first connect; lib/module-check.mjs shows it).
  'mcpc-client': { sameAs: 'mcpc', imports: ['@mcpc/client'] },
  // With the optional undici (the bench's own pinned version). The transport imports undici on its
  // first request, not when it is imported; the cold import here counts that import too.
  'mcpc+undici': {
    install: null,
    extra: ['undici@7.30.2'],
    imports: ['@mcpc/client', '@mcpc/transport-stdio', '@mcpc/transport-streamable-http', 'undici'],
  },
  sdk1: {
    install: ['@modelcontextprotocol/sdk@1.32.2'],
    imports: [
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/client/stdio.js',
      '@modelcontextprotocol/sdk/client/streamableHttp.js',
    ],
  },
  sdk2: {
    install: ['@modelcontextprotocol/client@2.4.0'],
    imports: ['@modelcontextprotocol/client', '@modelcontextprotocol/client/stdio'],
  },
  aisdk: {
    install: ['@ai-sdk/mcp@2.0.99'],
    imports: ['@ai-sdk/mcp', '@ai-sdk/mcp/mcp-stdio'],
  },
};
// `http` is a dependency of the HTTP transport: packed too, since it is not on the registry yet.
export const MCPC_PACKAGES = [
  'jsonrpc',
  'schema-validator',
  'client',
  'transport-stdio',
  'http',
  'transport-streamable-http',
];

/** Runs a command; resolves with its stdout, rejects with its stderr tail. Bounded by `timeoutMs`. */
export function run(command, args, { cwd, timeoutMs = 300_000, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err = (err + c).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else
        reject(
          new Error(`${command} ${args.join(' ')} failed (${signal ?? code}) in ${cwd}:\n${err || out.slice(-2000)}`),
        );
    });
  });
}

/** Apparent bytes of the files, and what they and their folders occupy on this disk (du). */
async function sizeOf(dir) {
  let bytes = 0;
  let files = 0;
  let diskBytes = 0;
  const walk = async (d) => {
    diskBytes += (await lstat(d)).blocks * 512;
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (entry.isFile() || entry.isSymbolicLink()) {
        if (d === dir && entry.name === '.package-lock.json') continue;
        const st = await lstat(p);
        bytes += st.size;
        diskBytes += st.blocks * 512;
        files++;
      }
    }
  };
  await walk(dir);
  return { bytes, files, diskBytes };
}

async function countPackages(dir) {
  let n = 0;
  const walk = async (d) => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      if (e.name.startsWith('@')) await walk(join(d, e.name));
      else {
        n++;
        await walk(join(d, e.name, 'node_modules'));
      }
    }
  };
  await walk(dir);
  return n;
}

/**
 * Packs mcpc, installs every client into its own fresh project, and measures node_modules.
 * With `reuseDir` (--quick), the pinned third-party installs are kept there and reused by later runs
 * (same pinned versions, same tree); mcpc is always packed and installed anew.
 * @param {{ repoRoot: string, pnpm: string[], drivers: string[], log: (s: string) => void, reuseDir?: string }} o
 */
export async function install({ repoRoot, pnpm, drivers, log, reuseDir }) {
  const root = await mkdtemp(join(tmpdir(), 'mcpc-bench-footprint-'));
  const packs = join(root, 'packs');
  await mkdir(packs);
  // A row `sameAs` another is that row's install, imported differently.
  const wanted = drivers.filter((d) => d in PACKAGES && PACKAGES[d].sameAs === undefined);
  const projects = {};
  const sizes = {};
  const npmArgs = [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    '--loglevel=error',
    '--no-update-notifier',
  ];
  // mcpc's tarballs, packed once for every row that installs them.
  let tarballs;
  if (wanted.some((d) => PACKAGES[d].install === null)) {
    await Promise.all(
      MCPC_PACKAGES.map((name) =>
        run(pnpm[0], [...pnpm.slice(1), 'pack', '--pack-destination', packs], {
          cwd: join(repoRoot, 'packages', name),
        }),
      ),
    );
    tarballs = (await readdir(packs)).filter((f) => f.endsWith('.tgz')).map((f) => join(packs, f));
    if (tarballs.length !== MCPC_PACKAGES.length)
      throw new Error(`expected ${MCPC_PACKAGES.length} tarballs in ${packs}, found ${tarballs.length}`);
  }
  const installOne = async (driver) => {
    let specs = PACKAGES[driver].install;
    const reused =
      reuseDir !== undefined && specs !== null
        ? join(reuseDir, `${driver}-${specs.join('+').replace(/[^\w.@+-]/g, '_')}`)
        : undefined;
    const dir = reused ?? join(root, driver);
    const done = join(dir, '.installed');
    const t0 = performance.now();
    if (reused && existsSync(done)) {
      log(`  ${driver}: reusing the install in ${dir} (--quick)`);
    } else {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({ name: `footprint-${driver}`, private: true, type: 'module' }, null, 2),
      );
      if (specs === null) specs = [...tarballs, ...(PACKAGES[driver].extra ?? [])];
      await run('npm', [...npmArgs, ...specs], { cwd: dir });
      if (reused) await writeFile(done, new Date().toISOString());
    }
    const nm = join(dir, 'node_modules');
    sizes[driver] = {
      ...(await sizeOf(nm)),
      packages: await countPackages(nm),
      installSeconds: (performance.now() - t0) / 1000,
    };
    projects[driver] = dir;
    log(
      `  ${driver}: ${(sizes[driver].bytes / 1e6).toFixed(2)} MB in ${sizes[driver].files} files (${(sizes[driver].diskBytes / 1e6).toFixed(2)} MB on disk), ${sizes[driver].packages} packages`,
    );
  };
  await Promise.all(wanted.map(installOne));
  for (const d of drivers.filter((x) => PACKAGES[x]?.sameAs !== undefined && projects[PACKAGES[x].sameAs])) {
    projects[d] = projects[PACKAGES[d].sameAs];
    sizes[d] = sizes[PACKAGES[d].sameAs];
  }
  return { root, projects, sizes, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** The script run in a fresh process to time the cold imports (`name`: rows sharing an install differ by it). */
export async function writeImportScript(dir, specifiers, name = 'import-time.mjs') {
  const path = join(dir, name);
  const body = `const t0 = performance.now();\n${specifiers.map((s) => `await import(${JSON.stringify(s)});`).join('\n')}\nconst ms = performance.now() - t0;\nprocess.stdout.write('@@RESULT ' + JSON.stringify({ ms, node: process.version }) + '\\n');\n`;
  await writeFile(path, body);
  return path;
}
