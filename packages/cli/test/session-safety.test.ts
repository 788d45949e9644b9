// Session records from a directory someone else could write: nothing in it is trusted unchecked.
//
// Every reader checks the directory, the record and the socket before it uses, deletes or connects to anything.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, testEnv } from './helpers.js';

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let root: string;
let home: string;
let sessions: string;
let outside: string;
const listeners: Server[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mcpc-sess-'));
  home = join(root, 'home');
  sessions = join(root, 's');
  outside = join(root, 'outside');
  mkdirSync(home);
  mkdirSync(outside);
  mkdirSync(sessions, { mode: 0o700 });
});

afterEach(() => {
  for (const l of listeners.splice(0)) l.close();
  rmSync(root, { recursive: true, force: true });
});

function mcpc(args: readonly string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: home,
      env: testEnv(home, { MCPC_SESSION_DIR: sessions }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A record as a daemon writes it, naming whatever socket the planter likes (a dead pid: it looks stale). */
function plant(name: string, socket: string, dir = sessions): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({ name, pid: 2 ** 22 + 7, target: 'x', started: new Date().toISOString(), socket }),
    {
      mode: 0o600,
    },
  );
  return file;
}

/** A listener that records what reaches it: the "socket" a planted record points at. */
async function trap(path: string): Promise<{ connections: number; received: string }> {
  const seen = { connections: 0, received: '' };
  const server = createServer((socket) => {
    seen.connections++;
    socket.setEncoding('utf8').on('data', (d: string) => (seen.received += d));
  });
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return seen;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe.skipIf(process.platform === 'win32')('session records are checked by every reader', () => {
  it('a record naming a file outside the directory: plain `mcpc` lists it as unsafe and deletes nothing', async () => {
    const victim = join(outside, 'precious');
    writeFileSync(victim, 'keep me');
    plant('s', victim);
    const r = await mcpc(['--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/names a socket outside its place/);
    expect(JSON.parse(r.stdout)).toMatchObject({ sessions: [] });
    expect(existsSync(victim)).toBe(true);
    expect(existsSync(join(sessions, 's.json'))).toBe(true);
  });

  it('a record pointing at a listener elsewhere: `mcpc @name …` sends it nothing (no command line, no token)', async () => {
    const seen = await trap(join(outside, 'evil.sock'));
    plant('s', join(outside, 'evil.sock'));
    const r = await mcpc(['@s', 'call', 'echo', 'token=hunter2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/names a socket outside its place/);
    expect(r.stderr).toMatch(/hint: remove it \(`rm .*s\.json`\) if you did not make it/);
    expect(seen).toEqual({ connections: 0, received: '' });
  });

  it('a symbolic link as the sessions directory is refused by the listing and by `@name`', async () => {
    const planted = join(outside, 'dir');
    mkdirSync(planted, { mode: 0o700 });
    const victim = join(outside, 'precious');
    writeFileSync(victim, 'keep me');
    rmSync(sessions, { recursive: true });
    symlinkSync(planted, sessions);
    plant('s', join(sessions, 's.sock'), planted);
    writeFileSync(join(planted, 's.sock'), 'not a socket');
    const listed = await mcpc([]);
    expect(listed.stderr).toMatch(/the sessions directory .* is a symbolic link/);
    expect(existsSync(join(planted, 's.json'))).toBe(true);
    expect(existsSync(join(planted, 's.sock'))).toBe(true);
    const named = await mcpc(['@s', 'ping']);
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(/is a symbolic link/);
    expect(existsSync(victim)).toBe(true);
  });

  it('a directory open to other users is refused, with the chmod that fixes it', async () => {
    chmodSync(sessions, 0o777);
    const victim = join(outside, 'precious');
    writeFileSync(victim, 'keep me');
    plant('s', victim);
    const r = await mcpc(['@s', 'ping']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is open to other users \(mode 777\)/);
    expect(r.stderr).toContain(`hint: check what is in it, then run \`chmod 700 ${sessions}\``);
    const listed = await mcpc([]);
    expect(listed.stderr).toMatch(/its sessions are not listed/);
    expect(existsSync(victim)).toBe(true);
    // Starting a session there is refused too (it was silently chmod-ed before).
    const started = await mcpc(['session', '--stdio', 'node -e 1', '@t']);
    expect(started.code).toBe(1);
    expect(started.stderr).toMatch(/open to other users/);
  });

  it.skipIf(!asRoot)('a directory, a record or a socket of another user is refused', async () => {
    const seen = await trap(join(sessions, 's.sock'));
    plant('s', join(sessions, 's.sock'));
    lchownSync(join(sessions, 's.sock'), 65534, 65534);
    let r = await mcpc(['@s', 'call', 'echo', 'token=hunter2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/s\.sock is not a session socket of yours/);
    expect(seen.connections).toBe(0);

    chownSync(join(sessions, 's.json'), 65534, 65534);
    r = await mcpc(['@s', 'ping']);
    expect(r.stderr).toMatch(/s\.json is not a file of yours/);

    chownSync(sessions, 65534, 65534);
    r = await mcpc(['@s', 'ping']);
    expect(r.stderr).toMatch(/belongs to another user \(uid 65534\)/);
    expect(seen.connections).toBe(0);
  });
});
