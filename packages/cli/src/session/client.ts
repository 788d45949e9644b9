// Reaching a session: starting its daemon, running a command line in it, asking its health, closing it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { CliContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { CliError, UsageError } from '../errors.js';
import {
  alive,
  checkName,
  ensureDir,
  logPath,
  readRecord,
  removeSession,
  sessionDir,
  type SessionRecord,
} from './paths.js';
import {
  DAEMON_MARKER,
  ask,
  dial,
  encode,
  encodePayload,
  frameReader,
  type SessionState,
  type StartReport,
} from './protocol.js';

/** How long the starter waits for the daemon to connect (at least; `--timeout` may raise it). */
const START_WAIT_MS = 15_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A record's daemon, asked how it stands: live (with its client's state), or gone (`stale`), or silent. */
export type Probe =
  | { readonly live: true; readonly state: SessionState }
  | { readonly live: false; readonly stale: boolean; readonly reason: string };

/** Asks a session's daemon for its status within `timeoutMs`. */
export async function probe(record: SessionRecord, timeoutMs = 1_000): Promise<Probe> {
  try {
    const answer = await ask(record.socket, { t: 'status' }, timeoutMs);
    if (answer.t !== 'status') return { live: false, stale: false, reason: 'it answered something else' };
    return { live: true, state: answer.state === 'connected' ? 'connected' : 'reconnecting' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const gone = code === 'ENOENT' || code === 'ECONNREFUSED' || !alive(record.pid);
    return { live: false, stale: gone, reason: (error as Error).message };
  }
}

/** The `mcpc` executable to start a daemon with: this build's bin (next to its chunks), else the running script. */
function binPath(): string {
  for (const relative of ['../bin.js', './bin.js']) {
    const candidate = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(candidate)) return candidate;
  }
  const script = process.argv[1];
  if (script === undefined)
    throw new CliError('cannot find the mcpc executable to start a session with', ExitCode.Error);
  return script;
}

/** `mcpc session <target> @name`: starts the daemon, waits until it has connected (or failed). */
export async function startSession(ctx: CliContext, word: string | undefined, name: string): Promise<ExitCode> {
  checkName(name);
  const { splitCommandLine, entryFor } = await import('../open.js');
  const { quoteCommandLine, targetOf } = await import('../target.js');
  const trailing = ctx.trailing ?? [];
  const target = targetOf(word, { flags: ctx.flags, words: [], trailing }, splitCommandLine);
  // A server given after `--` reaches the daemon as one word it reads back the same.
  const daemonWord = trailing.length > 0 ? `stdio://${quoteCommandLine(trailing)}` : word;
  if (target.kind === 'session') throw new UsageError('a session opens a server, not another session', 'session');
  // A configured name that does not exist is a usage error now, not a failed daemon later.
  await entryFor(ctx, target);

  const dir = sessionDir(ctx.env);
  await ensureDir(dir);
  const existing = await readRecord(dir, name);
  if (existing !== undefined) {
    const state = await probe(existing);
    if (state.live || !state.stale)
      throw new UsageError(
        `session @${name} is already open (pid ${existing.pid}, ${existing.target}); close it first: mcpc @${name} close`,
        'session',
      );
    await removeSession(dir, name);
  }

  const payload = encodePayload({
    name,
    dir,
    word: daemonWord,
    flags: { ...ctx.flags },
    cwd: ctx.cwd,
    target: target.text,
  });
  const child = spawn(process.execPath, [binPath(), DAEMON_MARKER, payload], {
    detached: true,
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    cwd: ctx.cwd,
    env: ctx.env,
    windowsHide: true,
  });
  const timeout = Math.max(START_WAIT_MS, Number(ctx.flags.timeout) || 0);
  const report = await new Promise<StartReport | { t: 'exit'; code: number | null } | { t: 'timeout' | 'abort' }>(
    (resolve) => {
      const timer = setTimeout(() => resolve({ t: 'timeout' }), timeout);
      const onAbort = (): void => resolve({ t: 'abort' });
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      const done = (value: Parameters<typeof resolve>[0]): void => {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
        resolve(value);
      };
      child.once('message', (message) => done(message as StartReport));
      child.once('exit', (code) => done({ t: 'exit', code }));
      child.once('error', (error) => done({ t: 'failed', message: error.message, code: ExitCode.Error }));
    },
  );
  if (child.connected) child.disconnect();
  child.unref();
  const log = logPath(dir, name);
  switch (report.t) {
    case 'ready':
      ctx.out.result({ name, pid: report.pid, target: target.text, log }, () =>
        ctx.out.line(`session @${name} started (pid ${report.pid})`),
      );
      return ExitCode.Ok;
    case 'failed':
      throw new CliError(`session @${name} could not connect: ${report.message}`, report.code as ExitCode, report.hint);
    case 'exit':
      throw new CliError(
        `session @${name} ended before it connected (exit ${report.code ?? 'by signal'})`,
        ExitCode.Connect,
        `see ${log}`,
      );
    case 'timeout':
    case 'abort':
      if (child.pid !== undefined && alive(child.pid)) process.kill(child.pid, 'SIGTERM');
      if (report.t === 'abort') {
        ctx.out.note('interrupted');
        return ExitCode.Interrupted;
      }
      throw new CliError(
        `session @${name} did not connect within ${Math.round(timeout / 1000)} s`,
        ExitCode.Connect,
        `see ${log}`,
      );
  }
}

/** The record of a session that is there, or a usage error saying how to start one. */
async function recordOf(ctx: CliContext, name: string): Promise<{ dir: string; record: SessionRecord }> {
  checkName(name);
  const dir = sessionDir(ctx.env);
  const record = await readRecord(dir, name);
  if (record === undefined)
    throw new CliError(
      `no session "@${name}"`,
      ExitCode.Usage,
      `start one with \`mcpc session <target> @${name}\`; \`mcpc\` lists the open ones`,
    );
  return { dir, record };
}

/** Connects to a session's socket; a daemon that is gone has its leftovers removed and is a usage error. */
async function reach(dir: string, record: SessionRecord): Promise<Socket> {
  try {
    return await dial(record.socket, 2_000);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED' || !alive(record.pid)) {
      await removeSession(dir, record.name).catch(() => undefined);
      throw new CliError(
        `session "@${record.name}" is not running any more (its record was removed)`,
        ExitCode.Usage,
        `start it again with \`mcpc session ${record.target} @${record.name}\``,
      );
    }
    throw new CliError(`session "@${record.name}" does not answer: ${(error as Error).message}`, ExitCode.Connect);
  }
}

/** Runs the whole command line in session `name`; resolves with its exit code. */
export async function runInSession(ctx: CliContext, name: string, argv: readonly string[]): Promise<number> {
  const { dir, record } = await recordOf(ctx, name);
  const socket = await reach(dir, record);
  const { out } = ctx;
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const finish = (code: number | Error): void => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      for (const release of guards) release();
      socket.destroy();
      if (typeof code === 'number') resolve(code);
      else reject(code);
    };
    const onAbort = (): void => {
      out.note('interrupted');
      finish(ExitCode.Interrupted);
    };
    const waiting = new Set<NodeJS.WritableStream>();
    const write = (stream: NodeJS.WritableStream, frame: Record<string, unknown>): void => {
      const data =
        typeof frame.d === 'string'
          ? frame.d
          : typeof frame.b === 'string'
            ? Buffer.from(frame.b, 'base64')
            : undefined;
      if (data === undefined || settled) return;
      if (!stream.write(data) && !waiting.has(stream)) {
        waiting.add(stream);
        socket.pause();
        stream.once('drain', () => {
          waiting.delete(stream);
          if (waiting.size === 0) socket.resume();
        });
      }
    };
    // Whoever reads our output went away (`| head`): stop the command, quietly.
    const guard = (stream: NodeJS.WritableStream): (() => void) => {
      const onError = (): void => {
        stream.on('error', () => undefined);
        finish(ExitCode.Ok);
      };
      stream.once('error', onError);
      return () => stream.off('error', onError);
    };
    const guards = [guard(out.stdout), guard(out.stderr)];
    if (ctx.signal.aborted) return onAbort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const read = frameReader(
      (frame) => {
        if (frame.t === 'out') write(out.stdout, frame);
        else if (frame.t === 'err') write(out.stderr, frame);
        else if (frame.t === 'exit') finish(typeof frame.code === 'number' ? frame.code : ExitCode.Error);
      },
      (reason) => finish(new CliError(`session @${name} sent a bad frame (${reason})`, ExitCode.Error)),
    );
    socket.on('data', read);
    socket.on('error', () => undefined);
    socket.on('close', () =>
      finish(
        new CliError(
          `session @${name} went away before the command ended`,
          ExitCode.Connect,
          `see ${logPath(dir, name)}`,
        ),
      ),
    );
    socket.write(encode({ t: 'run', argv, cwd: ctx.cwd, noColor: Boolean(ctx.env.NO_COLOR) }));
    // stdin goes along only when the command line reads it (`--args -`, `--args-file -`).
    if (ctx.flags.args === '-' || ctx.flags['args-file'] === '-') void forwardStdin(ctx.stdin, socket);
    else socket.write(encode({ t: 'end' }));
  });
}

async function forwardStdin(stdin: NodeJS.ReadableStream, socket: Socket): Promise<void> {
  try {
    for await (const chunk of stdin) {
      if (socket.destroyed) return;
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      for (let i = 0; i < text.length; i += 64 * 1024)
        socket.write(encode({ t: 'in', d: text.slice(i, i + 64 * 1024) }));
    }
  } catch {
    // A broken stdin ends what it gave.
  }
  if (!socket.destroyed) socket.write(encode({ t: 'end' }));
}

/** Ends session `name`: its daemon closes the client (and the server process) and exits. */
export async function closeSession(ctx: CliContext, name: string): Promise<number> {
  const { dir, record } = await recordOf(ctx, name);
  let already = false;
  try {
    const answer = await ask(record.socket, { t: 'close' }, 10_000);
    if (answer.t !== 'closed') throw new Error('unexpected answer');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED' || !alive(record.pid)) already = true;
    else if (code !== 'ECONNRESET')
      throw new CliError(`session @${name} did not close: ${(error as Error).message}`, ExitCode.Error);
  }
  // The daemon exits right after answering; wait (bounded) so that "closed" means gone.
  for (let i = 0; i < 100 && alive(record.pid); i++) await sleep(50);
  await removeSession(dir, name).catch(() => undefined);
  ctx.out.result({ name, closed: true, ...(already && { wasRunning: false }) }, () =>
    ctx.out.line(`session @${name} closed${already ? ' (it had already stopped)' : ''}`),
  );
  return ExitCode.Ok;
}
