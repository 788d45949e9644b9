// A session daemon's lifecycle: connect, serve callers on its socket, reconnect, end when told, idle or dead.
import { chmod } from 'node:fs/promises';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { Flags } from '../args.js';
import type { CliContext, Connection } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { classify } from '../failure.js';
import { openConnection, splitCommandLine } from '../open.js';
import { Output } from '../output.js';
import { targetOf, type Target } from '../target.js';
import { openLog } from './daemon-io.js';
import { alive, ensureDir, logPath, readRecord, removeSession, socketPath, writeRecord } from './paths.js';
import {
  decodePayload,
  dial,
  encode,
  frameReader,
  type CallerFrame,
  type DaemonPayload,
  type StartReport,
} from './protocol.js';
import { isFatal, serveRun, type RequestHost, type Running, type SessionRunner } from './requests.js';

/** Commands running at once; more are refused. */
const MAX_REQUESTS = 16;
/** Callers connected at once (requests, status pings). */
const MAX_SOCKETS = 64;
const DEFAULT_IDLE_MS = 8 * 60 * 60 * 1000;
/** A URL server that stays unreachable this many attempts in a row (backing off to a minute) ends the session. */
const MAX_REOPEN_FAILURES = 20;

/**
 * Runs the daemon for the payload the starter put in argv; never returns while the session is open. Each
 * caller's command line is run by `run` (the dispatcher, handed in by the executable: no session module imports it).
 */
export async function runDaemon(encoded: string, run: SessionRunner): Promise<void> {
  const payload = decodePayload(encoded);
  process.umask(0o077);
  await ensureDir(payload.dir);
  const daemon = new Daemon(payload, run);
  await daemon.start();
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

class Daemon implements RequestHost {
  readonly #payload: DaemonPayload;
  readonly #socketPath: string;
  readonly #log: Output;
  readonly #lifetime = new AbortController();
  readonly #started = new Date().toISOString();
  readonly running = new Set<Running>();
  readonly #run: SessionRunner;
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

  constructor(payload: DaemonPayload, run: SessionRunner) {
    this.#payload = payload;
    this.#run = run;
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
    const running = this.running;
    const fallback = this.#log;
    // The client's host handlers (elicitation, sampling: declined here) tell the newest caller, else the log.
    this.#ctx = {
      get out() {
        let latest: Output = fallback;
        for (const r of running) latest = r.out ?? latest;
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
    // The starter returns as soon as it hears, so the session's record and socket go first: nothing is left behind.
    this.#server?.close();
    await this.#forget();
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
      if (isFatal(error)) return void this.shutdown('the server keeps failing (crash loop); ending the session', 3);
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
    if (this.running.size > 0 || this.#closing !== undefined) return;
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
            requests: this.running.size,
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
        return serveRun(socket, frame, this, this.#run);
      default:
        socket.destroy();
        return ignore;
    }
  }

  get name(): string {
    return this.#payload.name;
  }

  get target(): string {
    return this.#payload.target;
  }

  refusal(): string | undefined {
    if (this.#closing !== undefined) return 'the session is closing';
    if (this.running.size >= MAX_REQUESTS)
      return `the session is running ${MAX_REQUESTS} commands already; try again when one ends`;
    return undefined;
  }

  touched(): void {
    this.#touch();
  }

  fatal(): void {
    void this.shutdown('the server keeps failing (crash loop); ending the session', 3);
  }

  /** The open connection (waiting for the first connect, bounded by the caller's going away). */
  async connection(signal: AbortSignal): Promise<Connection> {
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

  /** Removes the session's record and socket, when the record is this process's (or its owner is gone). */
  async #forget(): Promise<void> {
    const { dir, name } = this.#payload;
    // A record that fails the ownership checks is not ours to remove.
    const record = await readRecord(dir, name).catch(() => null);
    if (record === undefined || (record !== null && (record.pid === process.pid || !alive(record.pid))))
      await removeSession(dir, name).catch(() => undefined);
  }

  /** Ends the session: stops listening, removes socket and record, closes the client (its server process ends), exits. */
  shutdown(reason: string, code: number, closer?: Socket): Promise<void> {
    this.#closing ??= (async () => {
      this.#say(reason);
      if (this.#watch !== undefined) clearInterval(this.#watch);
      if (this.#idle !== undefined) clearTimeout(this.#idle);
      this.#server?.close();
      await this.#forget();
      for (const request of this.running) request.abort.abort(new Error('the session is closing'));
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
