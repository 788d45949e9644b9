// Spawning the built `mcpc` binary from tests: a fresh home per run, no colour, bounded waits.
//
// The fresh home means the user's config is never read.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
export const REPO = join(here, '..', '..', '..');
/** The built binary (`pnpm build` in packages/cli, or the test command, which builds first); MCPC_TEST_BIN overrides. */
export const BIN = process.env.MCPC_TEST_BIN ?? join(REPO, 'packages', 'cli', 'dist', 'bin.js');
export const NODE = process.execPath;
/** server-everything's entry: `node EVERYTHING stdio`. */
export const EVERYTHING = join(
  REPO,
  'tooling',
  'fixtures',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
/** The SDK v2 dual-era server: `node MODERN_SERVER stdio | http`. */
export const MODERN_SERVER = join(REPO, 'tooling', 'fixtures', 'modern', 'sdk-server.mjs');
/** The SDK v2 2026-07-28 Tasks-extension server: `node TASKS_SERVER stdio | http`. */
export const TASKS_SERVER = join(REPO, 'tooling', 'fixtures', 'modern', 'tasks-sdk-server.mjs');

const DEFAULT_TIMEOUT_MS = 20_000;

export interface McpcOptions {
  /** Merged over the test environment (after HOME & co. are pointed at the fresh directory). */
  readonly env?: Record<string, string | undefined>;
  readonly cwd?: string;
  /** Written to stdin, which is then closed (stdin is closed empty without it). */
  readonly input?: string | Uint8Array;
  /** Kills the child (SIGKILL) after this long; default 20 s. */
  readonly timeoutMs?: number;
  /** A home directory to use instead of a fresh one (kept afterwards). */
  readonly home?: string;
}

export interface McpcResult {
  /** The exit code (null only when killed by a signal). */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout as bytes (for binary output). */
  readonly stdoutBytes: Buffer;
  /** Whether the timeout killed it. */
  readonly timedOut: boolean;
}

/** Every result in this process, so a test can check them all (no colour escapes, say). */
export const seen: McpcResult[] = [];

/** A fresh directory for HOME, XDG_CONFIG_HOME, MCPC_CONFIG_DIR and MCPC_SESSION_DIR; remove it with `rmSync`. */
export function freshHome(): string {
  return mkdtempSync(join(tmpdir(), 'mcpc-test-'));
}

/** The environment a test run gets: the user's config and sessions out of reach, no colour. */
export function testEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env))
    if (key.startsWith('MCPC_') || key === 'FORCE_COLOR' || key === 'APPDATA' || key === 'LOCALAPPDATA')
      delete env[key];
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    MCPC_CONFIG_DIR: join(home, 'mcpc-config'),
    MCPC_SESSION_DIR: join(home, 'mcpc-sessions'),
    NO_COLOR: '1',
  });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

function assertBuilt(): void {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: build the CLI first (cd packages/cli && pnpm build; the test command does it)`);
}

/** A running `mcpc` (for the commands that stream until Ctrl-C). */
export interface RunningMcpc {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout (or stderr) matches, rejects after `ms` or when the process exits first. */
  waitFor(pattern: RegExp, ms?: number, stream?: 'stdout' | 'stderr'): Promise<void>;
  /** Sends SIGINT (Ctrl-C) and resolves with the result once it exits (SIGKILL after `ms`). */
  interrupt(ms?: number): Promise<McpcResult>;
  /** Resolves with the result when it exits (killed after the timeout). */
  readonly done: Promise<McpcResult>;
}

/** Starts `node dist/bin.js …args` without waiting for it to end. */
export function startMcpc(args: readonly string[], options: McpcOptions = {}): RunningMcpc {
  assertBuilt();
  const home = options.home ?? freshHome();
  const child = spawn(NODE, [BIN, ...args], {
    cwd: options.cwd ?? home,
    env: testEnv(home, options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  child.stdin.on('error', () => {});
  if (options.input !== undefined) child.stdin.end(options.input);
  else child.stdin.end();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const done = new Promise<McpcResult>((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (options.home === undefined) rmSync(home, { recursive: true, force: true });
      const stdoutBytes = Buffer.concat(out);
      const result: McpcResult = {
        code,
        signal,
        stdout: stdoutBytes.toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        stdoutBytes,
        timedOut,
      };
      seen.push(result);
      resolve(result);
    });
  });
  const text = (s: 'stdout' | 'stderr'): string => Buffer.concat(s === 'stdout' ? out : err).toString('utf8');
  return {
    child,
    stdout: () => text('stdout'),
    stderr: () => text('stderr'),
    done,
    waitFor(pattern, ms = 10_000, stream = 'stdout') {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const check = (): void => {
          if (pattern.test(text(stream))) return resolve();
          if (child.exitCode !== null || child.signalCode !== null)
            return reject(new Error(`mcpc exited before ${pattern} showed:\n${text('stdout')}\n${text('stderr')}`));
          if (Date.now() - started > ms)
            return reject(new Error(`no ${pattern} on ${stream} in ${ms} ms:\n${text('stdout')}\n${text('stderr')}`));
          setTimeout(check, 25);
        };
        check();
      });
    },
    async interrupt(ms = 5_000) {
      child.kill('SIGINT');
      const kill = setTimeout(() => child.kill('SIGKILL'), ms);
      const result = await done;
      clearTimeout(kill);
      return result;
    },
  };
}

/** Runs `node dist/bin.js …args` to its end: exit code, stdout, stderr. */
export function mcpc(args: readonly string[], options: McpcOptions = {}): Promise<McpcResult> {
  return startMcpc(args, options).done;
}

/** The lines of stdout parsed as JSON, one document per line. */
export function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);
}
