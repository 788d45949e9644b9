// A session's background process: keeps one connection open, serves `mcpc @name …` over its socket, ends when told, idle or dead.
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { ClientErrorCode } from '@mcpc/client';
import { checkFlags, parseCommandLine, type CommandLine, type Flags } from '../args.js';
import type { CliContext, Connection } from '../context.js';
import type { CommandInfo } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';
import { classify } from '../failure.js';
import { openConnection, splitCommandLine } from '../open.js';
import { Output } from '../output.js';
import { byName } from '../registry.js';
import { targetOf, type Target } from '../target.js';
import { alive, ensureDir, logPath, readRecord, removeSession, socketPath, writeRecord } from './paths.js';
import {
  CHUNK,
  decodePayload,
  dial,
  encode,
  frameReader,
  type CallerFrame,
  type DaemonFrame,
  type DaemonPayload,
  type StartReport,
} from './protocol.js';

/** Commands running at once; more are refused. */
const MAX_REQUESTS = 16;
/** Callers connected at once (requests, status pings). */
const MAX_SOCKETS = 64;
/** The stdin a caller may forward to one command. */
const MAX_STDIN = 16 * 1024 * 1024;
/** The log is cut at this size. */
const MAX_LOG = 1024 * 1024;
const DEFAULT_IDLE_MS = 8 * 60 * 60 * 1000;
/** A URL server that stays unreachable this many attempts in a row (backing off to a minute) ends the session. */
const MAX_REOPEN_FAILURES = 20;

/** The command a session runs for a caller's argv (`@name <command> …`); the target word is dropped. */
export function resolveInSession(line: CommandLine): { info: CommandInfo; words: readonly string[] } {
  const [first, ...rest] = line.words;
  if (first === undefined || !first.startsWith('@')) throw new UsageError('a session runs `mcpc @name <command> …`');
  const name = rest[0] ?? 'info';
  const info = byName(name);
  if (info === undefined || !info.server) throw new UsageError(`unknown command "${name}" for a session`);
  return { info, words: rest.slice(1) };
}

/** Runs the daemon for the payload the starter put in argv; never returns while the session is open. */
export async function runDaemon(encoded: string): Promise<void> {
  const payload = decodePayload(encoded);
  process.umask(0o077);
  await ensureDir(payload.dir);
  const daemon = new Daemon(payload);
  await daemon.start();
}

/** The daemon's log: `<dir>/<name>.log`, mode 0600, cut at {@link MAX_LOG}. */
function openLog(file: string): Writable {
  let fd: number | undefined;
  let written = 0;
  try {
    fd = openSync(file, 'a', 0o600);
    if (fstatSync(fd).size > MAX_LOG) {
      closeSync(fd);
      fd = openSync(file, 'w', 0o600);
    }
  } catch {
    fd = undefined;
  }
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      if (fd !== undefined && written < MAX_LOG) {
        const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
        try {
          written += writeSync(
            fd,
            written + text.length > MAX_LOG ? `${text.slice(0, MAX_LOG - written)}\n[log cut]\n` : text,
          );
        } catch {
          // A full disk must not end the session.
        }
      }
      callback();
    },
  });
}

/** A caller's stdout or stderr: every chunk becomes a frame on its socket (waiting when the socket is full). */
function frameStream(socket: Socket, t: 'out' | 'err'): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      if (socket.destroyed) return callback();
      const frames: DaemonFrame[] = [];
      if (typeof chunk === 'string')
        for (let i = 0; i < chunk.length; i += CHUNK) frames.push({ t, d: chunk.slice(i, i + CHUNK) });
      else
        for (let i = 0; i < chunk.length; i += CHUNK)
          frames.push({ t, b: chunk.subarray(i, i + CHUNK).toString('base64') });
      let ok = true;
      for (const frame of frames) ok = socket.write(encode(frame));
      if (ok || socket.destroyed) callback();
      else {
        const go = (): void => {
          socket.off('drain', go);
          socket.off('close', go);
          callback();
        };
        socket.on('drain', go);
        socket.on('close', go);
      }
    },
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether an error (or its causes) says the server keeps dying: the session cannot go on. */
function fatal(error: unknown): boolean {
  for (let e: unknown = error, i = 0; e instanceof Error && i < 8; e = e.cause, i++)
    if (e.name === 'CrashLoopError' || (e as { code?: unknown }).code === ClientErrorCode.CrashLoop) return true;
  return false;
}

interface Request {
  readonly out: Output;
  readonly abort: AbortController;
}

class Daemon {
  readonly #payload: DaemonPayload;
  readonly #socketPath: string;
  readonly #log: Output;
  readonly #lifetime = new AbortController();
  readonly #started = new Date().toISOString();
  readonly #requests = new Set<Request>();
  readonly #target: Target;
  readonly #ctx: CliContext;
  #server: NetServer | undefined;
  #connection: Connection | undefined;
  #ready: Promise<Connection> | undefined;
  #restartable = false;
  #fixing = false;
  #failures = 0;
  #nextAttempt = 0;
  #watch: NodeJS.Timeout | undefined;
  #idle: NodeJS.Timeout | undefined;
  #closing: Promise<void> | undefined;

  constructor(payload: DaemonPayload) {
    this.#payload = payload;
    this.#socketPath = socketPath(payload.dir, payload.name);
    const log = openLog(logPath(payload.dir, payload.name));
    const flags = payload.flags as Flags;
    this.#log = new Output({
      json: false,
      verbose: flags.verbose?.length ?? 0,
      noColor: true,
      stdout: log,
      stderr: log,
    });
    const requests = this.#requests;
    const fallback = this.#log;
    // The client's host handlers (elicitation, sampling: declined here) tell the newest caller, else the log.
    this.#ctx = {
      get out() {
        let latest: Output = fallback;
        for (const r of requests) latest = r.out;
        return latest;
      },
      flags,
      env: process.env,
      cwd: payload.cwd,
      stdin: Readable.from([]),
      interactive: false,
      signal: this.#lifetime.signal,
    };
    this.#target = targetOf(payload.word, { flags, words: [], trailing: [] }, splitCommandLine);
  }

  #say(message: string): void {
    this.#log.note(`${new Date().toISOString()} ${message}`);
  }

  async start(): Promise<void> {
    process.on('SIGTERM', () => void this.shutdown('stopped (SIGTERM)', 0));
    process.on('SIGINT', () => void this.shutdown('stopped (SIGINT)', 0));
    process.on('SIGHUP', () => this.#say('ignoring SIGHUP'));
    process.on('disconnect', () => undefined);
    process.on('uncaughtException', (error) => {
      this.#say(`internal error: ${error.stack ?? error.message}`);
      void this.shutdown('ending after an internal error', 1);
    });
    process.on('unhandledRejection', (reason) => this.#say(`unhandled rejection: ${String(reason)}`));

    const { name, dir } = this.#payload;
    const other = await dial(this.#socketPath, 500).then(
      (s) => (s.destroy(), true),
      () => false,
    );
    if (other) return this.#fail({ t: 'failed', message: `session @${name} is already open`, code: ExitCode.Usage });
    if (process.platform !== 'win32') await removeSession(dir, name).catch(() => undefined);

    const server = createServer({ pauseOnConnect: false }, (socket) => this.#accept(socket));
    server.maxConnections = MAX_SOCKETS;
    this.#server = server;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.#socketPath, () => {
          server.off('error', reject);
          resolve();
        });
      });
      if (process.platform !== 'win32') await chmod(this.#socketPath, 0o600);
      await writeRecord(dir, {
        name,
        pid: process.pid,
        target: this.#payload.target,
        started: this.#started,
        socket: this.#socketPath,
      });
    } catch (error) {
      return this.#fail({
        t: 'failed',
        message: `cannot listen on ${this.#socketPath}: ${(error as Error).message}`,
        code: ExitCode.Error,
      });
    }
    server.on('error', (error) => this.#say(`socket error: ${error.message}`));
    this.#say(`session @${name} (pid ${process.pid}) opening ${this.#payload.target}`);

    this.#ready = openConnection(this.#ctx, this.#target);
    this.#ready.catch(() => undefined);
    let connection: Connection;
    try {
      connection = await this.#ready;
    } catch (error) {
      const { code, hint } = classify(error, this.#payload.target);
      const message = error instanceof Error ? error.message : String(error);
      return this.#fail({ t: 'failed', message, code, ...(hint !== undefined && { hint }) });
    }
    this.#connection = connection;
    this.#restartable = connection.server.transportKind === 'stdio';
    this.#say(`connected (${connection.server.transportKind ?? 'unknown transport'})`);
    this.#report({ t: 'ready', pid: process.pid });
    this.#watch = setInterval(() => void this.#check(), 1_000);
    this.#touch();
  }

  /** Tells the starter (when there is one) how the start went, then lets go of the channel. */
  #report(report: StartReport): void {
    if (typeof process.send !== 'function' || !process.connected) return;
    process.send(report, undefined, {}, () => {
      if (process.connected) process.disconnect();
    });
  }

  async #fail(report: Extract<StartReport, { t: 'failed' }>): Promise<void> {
    this.#say(`could not start: ${report.message}`);
    this.#report(report);
    await this.shutdown('not started', report.code === ExitCode.Ok ? 1 : report.code);
  }

  /** How the client stands, for `mcpc` (list) and callers. */
  get state(): 'connected' | 'reconnecting' {
    return this.#connection?.server.state === 'connected' ? 'connected' : 'reconnecting';
  }

  /** Once a second: a server that went away is started (stdio) or reopened (URL) again; a crash loop ends the session. */
  async #check(): Promise<void> {
    const connection = this.#connection;
    if (this.#fixing || this.#closing !== undefined || connection === undefined) return;
    const state = connection.server.state;
    if (state === 'connected' || state === 'connecting') return;
    if (Date.now() < this.#nextAttempt) return;
    this.#fixing = true;
    try {
      if (this.#restartable) {
        this.#say('the server went away; starting it again');
        await connection.client.connect();
      } else {
        this.#say('the connection was lost; opening it again');
        const fresh = await openConnection(this.#ctx, this.#target);
        this.#connection = fresh;
        this.#ready = Promise.resolve(fresh);
        void connection.client.close().catch(() => undefined);
      }
      this.#failures = 0;
      this.#nextAttempt = 0;
      this.#say('connected again');
    } catch (error) {
      this.#say(`reconnecting failed: ${error instanceof Error ? error.message : String(error)}`);
      if (fatal(error)) return void this.shutdown('the server keeps failing (crash loop); ending the session', 3);
      this.#failures += 1;
      if (!this.#restartable && this.#failures >= MAX_REOPEN_FAILURES)
        return void this.shutdown(`the server stayed unreachable ${this.#failures} times; ending the session`, 3);
      this.#nextAttempt = Date.now() + Math.min(60_000, 1_000 * 2 ** Math.min(this.#failures, 6));
    } finally {
      this.#fixing = false;
    }
  }

  /** (Re)arms the idle timer: no command for `MCPC_SESSION_IDLE_MS` (default 8 h) ends the session. */
  #touch(): void {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
    if (this.#requests.size > 0 || this.#closing !== undefined) return;
    const raw = Number(process.env.MCPC_SESSION_IDLE_MS);
    const ms = Number.isFinite(raw) && raw > 0 ? Math.min(raw, 2 ** 31 - 1) : DEFAULT_IDLE_MS;
    this.#idle = setTimeout(() => void this.shutdown(`idle for ${Math.round(ms / 1000)} s; ending the session`, 0), ms);
  }

  #accept(socket: Socket): void {
    socket.on('error', () => undefined);
    let request: ((frame: Record<string, unknown>) => void) | undefined;
    const read = frameReader(
      (frame) => {
        if (request !== undefined) return request(frame);
        request = this.#open(socket, frame as unknown as CallerFrame);
      },
      (reason) => {
        this.#say(`dropping a caller: ${reason}`);
        socket.destroy();
      },
    );
    socket.on('data', read);
  }

  /** The first frame of a caller: what it asks. Returns the handler of its later frames (stdin). */
  #open(socket: Socket, frame: CallerFrame): (frame: Record<string, unknown>) => void {
    const ignore = (): void => undefined;
    switch (frame.t) {
      case 'status':
        socket.end(
          encode({
            t: 'status',
            state: this.state,
            pid: process.pid,
            target: this.#payload.target,
            started: this.#started,
            requests: this.#requests.size,
          }),
        );
        return ignore;
      case 'close':
        void this.shutdown('closed by `mcpc @name close`', 0, socket);
        return ignore;
      case 'run':
        if (
          !Array.isArray(frame.argv) ||
          !frame.argv.every((w) => typeof w === 'string') ||
          typeof frame.cwd !== 'string'
        ) {
          socket.destroy();
          return ignore;
        }
        return this.#run(socket, frame);
      default:
        socket.destroy();
        return ignore;
    }
  }

  #run(socket: Socket, frame: Extract<CallerFrame, { t: 'run' }>): (frame: Record<string, unknown>) => void {
    const stdin = new PassThrough();
    let stdinBytes = 0;
    const onFrame = (next: Record<string, unknown>): void => {
      if (next.t === 'in' && typeof next.d === 'string' && !stdin.writableEnded) {
        stdinBytes += next.d.length;
        if (stdinBytes > MAX_STDIN) return void socket.destroy();
        stdin.write(next.d);
      } else if (next.t === 'end' && !stdin.writableEnded) stdin.end();
    };
    if (this.#closing !== undefined || this.#requests.size >= MAX_REQUESTS) {
      const why =
        this.#closing !== undefined
          ? 'the session is closing'
          : `the session is running ${MAX_REQUESTS} commands already; try again when one ends`;
      socket.end(encode({ t: 'err', d: `error: ${why}\n` }) + encode({ t: 'exit', code: ExitCode.Error }));
      return () => undefined;
    }
    const stdout = frameStream(socket, 'out');
    const stderr = frameStream(socket, 'err');
    const noColor = frame.noColor === true;
    const abort = new AbortController();
    const onClose = (): void => abort.abort(new Error('the caller went away'));
    socket.once('close', onClose);
    let line: CommandLine | undefined;
    let problem: string | undefined;
    try {
      line = parseCommandLine(frame.argv);
    } catch (error) {
      problem = (error as Error).message;
    }
    const flags = line?.flags ?? {};
    const out = new Output({
      json: flags.json === true,
      verbose: flags.verbose?.length ?? 0,
      noColor: flags['no-color'] === true || noColor,
      stdout,
      stderr,
    });
    const request: Request = { out, abort };
    this.#requests.add(request);
    this.#touch();
    const ctx: CliContext = {
      out,
      flags,
      env: process.env,
      cwd: frame.cwd,
      stdin,
      interactive: false,
      signal: abort.signal,
    };
    void (async () => {
      let code: number;
      let failure: unknown;
      try {
        if (problem !== undefined || line === undefined) throw new UsageError(problem ?? 'bad command line');
        const { info, words } = resolveInSession(line);
        checkFlags(info.name, flags, info.flags);
        // Paths are the caller's: relative ones are taken from its directory, not the daemon's.
        for (const key of ['args-file', 'output'] as const) {
          const value = flags[key];
          if (value !== undefined && value !== '-' && !isAbsolute(value)) flags[key] = resolvePath(frame.cwd, value);
        }
        const [command, connection] = await Promise.all([info.load(), this.#connectionFor(abort.signal)]);
        code = await command.run(ctx, words, { ...connection, target: `@${this.#payload.name}` });
      } catch (error) {
        failure = error;
        const classified = classify(error, this.#payload.target);
        code = classified.code;
        if (code === ExitCode.Interrupted) out.note('interrupted');
        else out.error(error instanceof Error ? error.message : String(error), classified.hint);
      }
      await Promise.all([new Promise((r) => stdout.end(r)), new Promise((r) => stderr.end(r))]);
      socket.off('close', onClose);
      if (!socket.destroyed) socket.end(encode({ t: 'exit', code }));
      this.#requests.delete(request);
      this.#touch();
      if (failure !== undefined && fatal(failure))
        void this.shutdown('the server keeps failing (crash loop); ending the session', 3);
    })();
    return onFrame;
  }

  /** The open connection (waiting for the first connect, bounded by the caller's going away). */
  async #connectionFor(signal: AbortSignal): Promise<Connection> {
    if (this.#connection !== undefined) return this.#connection;
    const ready = this.#ready;
    if (ready === undefined) throw new Error('the session is not connected');
    return Promise.race([
      ready,
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
      ),
    ]);
  }

  /** Ends the session: stops listening, removes socket and record, closes the client (its server process ends), exits. */
  shutdown(reason: string, code: number, closer?: Socket): Promise<void> {
    this.#closing ??= (async () => {
      this.#say(reason);
      if (this.#watch !== undefined) clearInterval(this.#watch);
      if (this.#idle !== undefined) clearTimeout(this.#idle);
      this.#server?.close();
      const { dir, name } = this.#payload;
      // A record that fails the ownership checks is not ours to remove.
      const record = await readRecord(dir, name).catch(() => null);
      if (record === undefined || (record !== null && (record.pid === process.pid || !alive(record.pid))))
        await removeSession(dir, name).catch(() => undefined);
      for (const request of this.#requests) request.abort.abort(new Error('the session is closing'));
      this.#lifetime.abort(new Error('the session is closing'));
      const connection = this.#connection ?? (await this.#ready?.catch(() => undefined));
      if (connection !== undefined)
        await Promise.race([connection.client.close().catch(() => undefined), sleep(5_000)]);
      if (closer !== undefined && !closer.destroyed)
        await Promise.race([new Promise<void>((r) => closer.end(encode({ t: 'closed' }), r)), sleep(1_000)]);
      this.#say(`exit ${code}`);
      process.exit(code);
    })();
    return this.#closing;
  }
}
