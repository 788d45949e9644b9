// The libraries in each runtime: the smoke script under Deno and Bun (pinned, fetched from the npm registry
// through npx) gives what it gives under the Node running the suite.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../fixtures/http/spawn.mjs';

const SMOKE = fileURLToPath(new URL('../smoke.mjs', import.meta.url));
const EVERYTHING = fileURLToPath(
  new URL('../../fixtures/node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const DENO = 'deno@2.9.6';
const BUN = 'bun@1.4.5';

interface Smoke {
  stdio: Record<string, unknown>;
  http: Record<string, unknown>;
  schema: boolean[];
}

/** Runs a command to its end (bounded), with its stdout and stderr. */
function run(
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-8_000)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} ran past ${timeoutMs} ms\n${err}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

async function smoke(command: string, args: string[]): Promise<Smoke> {
  // The first run of a runtime fetches it through npx: minutes on a cold cache.
  const { code, out, err } = await run(command, [...args, SMOKE, process.execPath, EVERYTHING, fixture.url], 240_000);
  const line = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !line.startsWith('{'))
    throw new Error(`${command} ${args.join(' ')} exited ${code}\n${out}\n${err}`);
  return JSON.parse(line) as Smoke;
}

let fixture: Fixture;
let reference: Smoke;

beforeAll(async () => {
  fixture = await startFixture('everything.mjs', ['streamableHttp']);
  reference = await smoke(process.execPath, []);
}, 60_000);
afterAll(() => fixture?.stop());

describe('the same smoke run in every runtime', () => {
  it(`Node ${process.versions.node}: stdio and Streamable HTTP work, the schema verdicts are right`, () => {
    expect(reference.stdio).toMatchObject({ transport: 'stdio', echo: 'Echo: hello from a runtime' });
    expect(reference.http).toMatchObject({ transport: 'streamable-http', echo: 'Echo: hello from a runtime' });
    expect(reference.stdio.sum).toContain('42');
    expect(reference.schema).toEqual([true, false, false]);
  });

  it.each([
    [DENO, ['-y', DENO, 'run', '--allow-all', '--quiet']],
    // Before: "could not reach …: this.#pick(r).request is not a function" over HTTP (Bun's undici shim).
    [BUN, ['-y', BUN]],
  ])(
    '%s gives what Node gives',
    async (_name, args) => {
      expect(await smoke('npx', args)).toEqual(reference);
    },
    300_000,
  );
});
