// The libraries in each runtime where processes exist: the smoke script gives under Deno and Bun what it gives on Node.
//
// Deno and Bun are pinned, fetched from the npm registry through npx; Node is the one running the suite; the fetch
// client is included.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../fixtures/http/spawn.mjs';
import { LEGACY, MODERN, SCHEMA } from './expected.js';

const SMOKE = fileURLToPath(new URL('../smoke.mjs', import.meta.url));
const EVERYTHING = fileURLToPath(
  new URL('../../fixtures/node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const DEMO = fileURLToPath(new URL('../../../apps/playground/demo-server/server.mjs', import.meta.url));
const DENO = 'deno@2.9.6';
const BUN = 'bun@1.4.5';

interface Smoke {
  stdio: Record<string, unknown>;
  http: Record<string, unknown>;
  httpFetch: Record<string, unknown>;
  schema: boolean[][];
  modern: Record<string, unknown>;
  legacy: Record<string, unknown>;
  clientCredentials: unknown;
  tracing: unknown;
  /** Handles still open once every client closed (Node and Deno list them; Bun lists none). */
  openAfterClose: string[];
  /** Whether the process ended on its own soon after its report: nothing a client left keeps it alive. */
  endedOnItsOwn: boolean;
}

/** How soon after its last line a smoke process must have ended (runtime teardown and npx included). */
const END_BOUND_MS = 3_000;

/** Runs a command to its end (bounded), with its stdout and stderr. */
function run(
  command: string,
  args: string[],
  timeoutMs: number,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; out: string; err: string; exitMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.env !== undefined && { env: options.env }),
    });
    let out = '';
    let err = '';
    let lastOutput = Date.now();
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      lastOutput = Date.now();
    });
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-8_000)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} ran past ${timeoutMs} ms\n${err}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, exitMs: Date.now() - lastOutput });
    });
  });
}

async function smoke(command: string, args: string[]): Promise<Smoke> {
  // The first run of a runtime fetches it through npx: minutes on a cold cache.
  const { code, out, err, exitMs } = await run(
    command,
    [...args, SMOKE, process.execPath, EVERYTHING, fixture.url, demo.url, demo.url.replace(/\/mcp$/, '/mcp-protected')],
    240_000,
  );
  const line = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !line.startsWith('{'))
    throw new Error(`${command} ${args.join(' ')} exited ${code}\n${out}\n${err}`);
  return { ...(JSON.parse(line) as Omit<Smoke, 'endedOnItsOwn'>), endedOnItsOwn: exitMs < END_BOUND_MS };
}

const CLI = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));

/** The mcpc commands every runtime runs, each one's exit code and output kept (a home and a directory of their own). */
async function cli(command: string, args: string[]): Promise<string[]> {
  const home = mkdtempSync(join(tmpdir(), 'mcpc-runtime-'));
  try {
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1' };
    const stdioServer = `${process.execPath} ${EVERYTHING} stdio`;
    const outputs: string[] = [];
    for (const line of [
      ['--version'],
      [fixture.url, 'tools', '--json'],
      [fixture.url, 'call', 'get-sum', 'a=2', 'b=40'],
      ['--stdio', stdioServer, 'call', 'echo', 'message=hi'],
    ]) {
      const { code, out, err } = await run(command, [...args, CLI, ...line], 240_000, { cwd: home, env });
      outputs.push(`${code}\n${out}${code === 0 ? '' : err}`);
    }
    return outputs;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

let fixture: Fixture;
let demo: Fixture;
let reference: Smoke;
let referenceCli: string[];

beforeAll(async () => {
  [fixture, demo] = await Promise.all([
    startFixture('everything.mjs', ['streamableHttp']),
    startFixture(DEMO, ['http', '--oauth'], { timeoutMs: 60_000 }),
  ]);
  reference = await smoke(process.execPath, []);
  referenceCli = await cli(process.execPath, []);
}, 120_000);
afterAll(() => Promise.all([fixture?.stop(), demo?.stop()]));

describe('the same smoke run in every runtime', () => {
  it(`Node ${process.versions.node}: stdio and Streamable HTTP (its own client and fetch) work, the schema verdicts are right`, () => {
    expect(reference.stdio).toMatchObject({ transport: 'stdio', echo: 'Echo: hello from a runtime' });
    expect(reference.http).toMatchObject({ transport: 'streamable-http', echo: 'Echo: hello from a runtime' });
    expect(reference.httpFetch).toEqual(reference.http);
    expect(reference.stdio.sum).toContain('42');
    expect(reference.schema).toEqual(SCHEMA);
    expect(reference.modern).toEqual(MODERN);
    expect(reference.legacy).toEqual(LEGACY);
    expect(reference.clientCredentials).toEqual({ sum: 42 });
    expect(reference.tracing).toEqual([
      ['tools/list', 'CLIENT', 'pipe'],
      ['tools/call echo', 'CLIENT', 'pipe'],
    ]);
    // close() leaves no socket, timer or child process behind, and the process ends by itself.
    expect(reference.openAfterClose).toEqual([]);
    expect(reference.endedOnItsOwn).toBe(true);
  });

  it(`the mcpc CLI on Node ${process.versions.node}: version, tools, a call over HTTP and over stdio`, () => {
    expect(referenceCli.map((o) => o.split('\n')[0])).toEqual(['0', '0', '0', '0']);
    expect(referenceCli[2]).toContain('The sum of 2 and 40 is 42.');
    expect(referenceCli[3]).toContain('Echo: hi');
  });

  describe.each([
    [DENO, ['-y', DENO, 'run', '--allow-all', '--quiet']],
    // Before: "could not reach …: this.#pick(r).request is not a function" over HTTP (Bun's undici shim).
    [BUN, ['-y', BUN]],
  ])('%s', (_name, args) => {
    it('the smoke run gives what Node gives', async () => {
      expect(await smoke('npx', args)).toEqual(reference);
    }, 300_000);

    it('the mcpc CLI prints what it prints on Node', async () => {
      expect(await cli('npx', args)).toEqual(referenceCli);
    }, 300_000);
  });
});
