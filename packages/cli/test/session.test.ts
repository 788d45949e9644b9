// Sessions end to end: the built `mcpc` starts a daemon on real stdio servers and runs commands through it.
//
// The commands go through its socket; the session is then listed and closed.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// MCPC_TEST_BIN: run against a build elsewhere (a copy of dist/ while packages/cli is being rebuilt).
const bin = process.env.MCPC_TEST_BIN ?? join(root, 'packages/cli/dist/bin.js');
const everything = join(root, 'tooling/fixtures/node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const mortal = join(root, 'tooling/fixtures/stdio/mortal.mjs');

let home: string;
let dir: string;
let config: string;

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly pid: number;
}

function mcpc(args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: home,
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: home,
        XDG_RUNTIME_DIR: '',
        MCPC_SESSION_DIR: dir,
        NO_COLOR: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mcpc ${args.join(' ')} took over ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, pid: child.pid! });
    });
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number, ms = 5_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

async function record(name: string): Promise<{ pid: number; socket: string; target: string }> {
  return JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as {
    pid: number;
    socket: string;
    target: string;
  };
}

beforeAll(async () => {
  expect(existsSync(bin), 'build packages/cli first').toBe(true);
  home = await mkdtemp(join(tmpdir(), 'mcpc-session-'));
  dir = join(home, 's');
  config = join(home, 'servers.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [everything, 'stdio'] },
        mortal: { command: process.execPath, args: [mortal, join(home, 'calls.log'), '--exit-after', '1'] },
        broken: { command: process.execPath, args: ['-e', 'process.exit(9)'] },
      },
    }),
  );
});

afterAll(async () => {
  // Every daemon still there is told to stop, then killed: none outlives the tests.
  const names = existsSync(dir) ? (await readdir(dir)).filter((f) => f.endsWith('.json')) : [];
  for (const file of names) {
    const { pid } = JSON.parse(await readFile(join(dir, file), 'utf8')) as { pid: number };
    if (alive(pid)) process.kill(pid, 'SIGTERM');
    if (!(await gone(pid, 3_000))) process.kill(pid, 'SIGKILL');
  }
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await rm(home, { recursive: true, force: true });
});

const started: number[] = [];

describe('mcpc session', () => {
  it('starts a session that outlives its starter and runs commands through its socket', async () => {
    const start = await mcpc(['--config', config, 'session', 'everything', '@s']);
    expect(start.stderr).toBe('');
    expect(start.code).toBe(0);
    const match = /^session @s started \(pid (\d+)\)\n$/.exec(start.stdout);
    expect(match).not.toBeNull();
    const pid = Number(match![1]);
    started.push(pid);
    // The starter has exited; the daemon is another process and still there.
    expect(pid).not.toBe(start.pid);
    expect(alive(start.pid)).toBe(false);
    expect(alive(pid)).toBe(true);
    expect((await record('s')).pid).toBe(pid);

    const call = await mcpc(['@s', 'call', 'echo', 'message=hi']);
    expect(call).toMatchObject({ code: 0, stdout: 'Echo: hi\n', stderr: '' });

    const json = await mcpc(['@s', 'call', 'echo', 'message=hi', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ content: [{ type: 'text', text: 'Echo: hi' }] });
  });

  it('keeps its socket 0600 in a 0700 directory', async () => {
    const { socket } = await record('s');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(socket).isSocket()).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 's.json')).mode & 0o777).toBe(0o600);
  });

  it('is listed by `mcpc --json` with its health', async () => {
    const list = await mcpc(['--json']);
    expect(list.code).toBe(0);
    const { sessions } = JSON.parse(list.stdout) as { sessions: { name: string; health: string; target: string }[] };
    expect(sessions).toContainEqual(expect.objectContaining({ name: 's', health: 'connected', target: 'everything' }));
  });

  it('passes errors and exit codes through', async () => {
    const missing = await mcpc(['@s', 'call', 'no-such-tool']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/error:/);
    const usage = await mcpc(['@s', 'call', 'echo', 'not-key-value']);
    expect(usage.code).toBe(2);
  });

  it('refuses a second session of the same name, and an unknown session', async () => {
    const again = await mcpc(['--config', config, 'session', 'everything', '@s']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already open.*mcpc @s close/);
    const unknown = await mcpc(['@nope', 'call', 'echo', 'message=hi']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no session "@nope"/);
  });

  it('closes: the daemon ends and its socket and record are removed', async () => {
    const { pid, socket } = await record('s');
    const close = await mcpc(['@s', 'close']);
    expect(close).toMatchObject({ code: 0, stdout: 'session @s closed\n' });
    expect(await gone(pid)).toBe(true);
    expect(existsSync(socket)).toBe(false);
    expect(existsSync(join(dir, 's.json'))).toBe(false);
    expect((await mcpc(['@s', 'ping'])).code).toBe(2);
  });

  it('starts a stdio server again when it exits under the session', async () => {
    const start = await mcpc(['--config', config, 'session', 'mortal', '@m']);
    expect(start.code).toBe(0);
    started.push((await record('m')).pid);
    const first = await mcpc(['@m', 'call', 'pid']);
    expect(first.code).toBe(0);
    // That server process exited right after answering; the session starts another for the next call.
    const second = await mcpc(['@m', 'call', 'pid']);
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toMatch(/^\d+$/);
    expect(second.stdout).not.toBe(first.stdout);
    expect((await mcpc(['@m', 'close'])).code).toBe(0);
  });

  it('ends when its stdio server keeps dying (crash loop), cleaning up', async () => {
    expect((await mcpc(['--config', config, 'session', 'mortal', '@loop'])).code).toBe(0);
    const { pid } = await record('loop');
    started.push(pid);
    const codes: (number | null)[] = [];
    // Each call ends the server process; the client stops starting it after 5 quick deaths in a minute.
    // The call that meets the crash loop fails with exit 3 — unless the daemon's own health check met it
    // between two calls and ended the session first, when the next call finds no session (exit 2).
    for (let i = 0; i < 8 && codes.at(-1) !== 3 && codes.at(-1) !== 2; i++)
      codes.push((await mcpc(['@loop', 'call', 'pid'])).code);
    expect([2, 3]).toContain(codes.at(-1));
    expect(await gone(pid)).toBe(true);
    expect(existsSync(join(dir, 'loop.json'))).toBe(false);
    expect((await mcpc(['@loop', 'ping'])).code).toBe(2);
  });

  it('reports a server that cannot start (exit 3) and leaves nothing behind', async () => {
    const start = await mcpc(['--config', config, 'session', 'broken', '@b']);
    expect(start.code).toBe(3);
    expect(start.stderr).toMatch(/session @b could not connect/);
    expect(existsSync(join(dir, 'b.json'))).toBe(false);
  });

  it('ends by itself when idle', async () => {
    const start = await mcpc(['--config', config, 'session', 'everything', '@idle'], { MCPC_SESSION_IDLE_MS: '1000' });
    expect(start.code).toBe(0);
    const { pid } = await record('idle');
    started.push(pid);
    expect(await gone(pid, 10_000)).toBe(true);
    expect(existsSync(join(dir, 'idle.json'))).toBe(false);
  });
});
