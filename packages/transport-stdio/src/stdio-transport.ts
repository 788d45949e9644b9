// The stdio transport: the server's lifecycle as a child process and the newline-delimited JSON-RPC over its pipes.
//
// The lifecycle is start, exit and shutdown. Spawning, escalation and waiting live beside it.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  AbortError,
  ConnectionClosedError,
  MessageTooLargeError,
  TransportError,
  decodeMessage,
  escapeForLog,
  safeLog,
  warningsToConsole,
  type JsonRpcId,
  type JsonRpcMessage,
  type Logger,
  type Transport,
  type TransportSendOptions,
  type TransportSink,
} from '@mcpc/jsonrpc';
import { StdioErrorCode } from './codes.js';
import { ProcessExitError, StdinWriteError } from './errors.js';
import { LineDecoder } from './line-decoder.js';
import { LineWriter } from './line-writer.js';
import { killGroupSurvivors, killOnProcessExit } from './process-tree.js';
import { escalateUntilExit } from './shutdown.js';
import { spawnChild } from './spawn-child.js';
import { StderrTail } from './stderr-tail.js';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_SIGTERM_MS,
  DEFAULT_STDERR_TAIL_BYTES,
  DEFAULT_STDIN_CLOSE_MS,
  count,
  type StdioTransportOptions,
} from './stdio-options.js';
import { Waiters } from './waiters.js';

export {
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_STDERR_TAIL_BYTES,
  type ShutdownTimeouts,
  type StdioTransportOptions,
} from './stdio-options.js';

// A process's exit and the end of its pipes arrive in either order; this is how long one waits for
// the other, so a last response written just before exiting is still delivered.
const EXIT_GRACE_MS = 1_000;
// A write that fails because the process is dying is followed by its exit at once; this long is given
// to the exit, whose error (with the stderr tail) says more than the broken pipe does.
const WRITE_FAILURE_GRACE_MS = 100;

type State = 'new' | 'starting' | 'open' | 'closing' | 'closed';

/**
 * The MCP stdio transport: runs the server as a child process and exchanges newline-delimited
 * JSON-RPC over its stdin and stdout. Implements the `Transport` contract of `@mcpc/jsonrpc`.
 */
export class StdioTransport implements Transport {
  readonly #command: string;
  readonly #args: readonly string[];
  readonly #env: Readonly<Record<string, string>> | undefined;
  readonly #cwd: string | undefined;
  readonly #logger: Logger;
  readonly #maxMessageBytes: number;
  readonly #stdinCloseMs: number;
  readonly #sigtermMs: number;
  readonly #stderr: StderrTail;
  readonly #decoder: LineDecoder;

  #state: State = 'new';
  #child: ChildProcessWithoutNullStreams | undefined;
  #writer: LineWriter | undefined;
  #sink: TransportSink | undefined;
  #sinkClosed = false;
  /** Why the connection ended, when it was not asked to. */
  #closeCause: Error | undefined;
  #starting: Promise<void> | undefined;
  /** The one shutdown in progress, whoever began it; resolves once everything is released. */
  #teardown: Promise<void> | undefined;
  #closeCall: Promise<void> | undefined;
  #exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null } | undefined;
  #stdoutDone = false;
  #stderrDone = false;
  readonly #waiters = new Waiters();
  #unwatchHostExit: (() => void) | undefined;

  constructor(options: StdioTransportOptions) {
    if (typeof options.command !== 'string' || options.command.length === 0)
      throw new TypeError('command must be a non-empty string');
    this.#command = options.command;
    this.#args = [...(options.args ?? [])];
    this.#env = options.env;
    this.#cwd = options.cwd;
    this.#logger = options.logger ?? warningsToConsole;
    this.#maxMessageBytes = count('maxMessageBytes', options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES, 1);
    this.#stdinCloseMs = count(
      'shutdownTimeouts.stdinCloseMs',
      options.shutdownTimeouts?.stdinCloseMs,
      DEFAULT_STDIN_CLOSE_MS,
      0,
    );
    this.#sigtermMs = count('shutdownTimeouts.sigtermMs', options.shutdownTimeouts?.sigtermMs, DEFAULT_SIGTERM_MS, 0);
    const onStderr = options.onStderr;
    this.#stderr = new StderrTail(
      count('stderrTailBytes', options.stderrTailBytes, DEFAULT_STDERR_TAIL_BYTES, 0),
      onStderr === undefined ? undefined : (text) => this.#guard('onStderr', () => onStderr(text)),
    );
    this.#decoder = new LineDecoder(this.#maxMessageBytes, {
      line: (content, frameBytes) => this.#onLine(content, frameBytes),
      overflow: () => this.#fail(new MessageTooLargeError(this.#maxMessageBytes)),
    });
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The last `stderrTailBytes` the server wrote to stderr, as text (untrusted). */
  get stderrTail(): string {
    return this.#stderr.text;
  }

  start(sink: TransportSink): Promise<void> {
    if (this.#state !== 'new')
      return Promise.reject(new TransportError('start() was already called', { code: StdioErrorCode.AlreadyStarted }));
    this.#state = 'starting';
    this.#starting = this.#spawn(sink);
    return this.#starting;
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#state === 'new' || this.#state === 'starting') {
      return Promise.reject(new TransportError('the transport is not started', { code: StdioErrorCode.NotStarted }));
    }
    if (this.#state !== 'open' || this.#writer === undefined)
      return Promise.reject(new ConnectionClosedError(undefined, this.#closeCause));
    let json: string | undefined;
    try {
      json = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(
        new TransportError('the message cannot be serialized as JSON', {
          code: StdioErrorCode.EncodeFailed,
          cause: error,
        }),
      );
    }
    if (typeof json !== 'string')
      return Promise.reject(
        new TransportError('the message is not a JSON value', { code: StdioErrorCode.EncodeFailed }),
      );
    // JSON.stringify escapes every newline inside strings, so the frame holds exactly one. The options
    // go down unread: a request's signal is made only if its frame has to wait (see LineWriter).
    return this.#writer.write(`${json}\n`, options, 'method' in message && 'id' in message ? message.id : undefined);
  }

  /** The engine gave up on request `id`: its frame is withdrawn if it is still waiting for the pipe. */
  abandon(id: JsonRpcId, reason: Error): void {
    this.#writer?.withdraw(id, new AbortError(undefined, reason));
  }

  close(): Promise<void> {
    this.#closeCall ??= this.#close();
    return this.#closeCall;
  }

  // ── starting ────────────────────────────────────────────────────────────────────────────────────

  async #spawn(sink: TransportSink): Promise<void> {
    const platform = process.platform;
    let child: ChildProcessWithoutNullStreams;
    try {
      child = await spawnChild(
        { command: this.#command, args: this.#args, env: this.#env, cwd: this.#cwd, platform },
        {
          stdoutError: (error) =>
            this.#fail(
              new TransportError(`reading the server's stdout failed: ${escapeForLog(error.message)}`, {
                code: StdioErrorCode.ReadFailed,
                cause: error,
              }),
            ),
          debug: (message) => this.#debug(message),
        },
      );
    } catch (error) {
      this.#state = 'closed';
      throw error;
    }

    this.#child = child;
    this.#sink = sink;
    this.#writer = new LineWriter(
      child.stdin,
      (cause) => this.#writeError(cause),
      (cause) => this.#onWriteFailed(cause),
    );
    child.on('error', (error) => this.#log('warn', `the server process reported: ${escapeForLog(error.message)}`));
    child.on('exit', (code, signal) => this.#onExit(code, signal));
    child.stdout.on('data', (chunk: Buffer) => this.#decoder.push(chunk));
    child.stdout.on('end', () => this.#onStdoutEnd());
    child.stdout.on('close', () => this.#streamDone('stdout'));
    // Always read stderr, listener or not: a full pipe would block the server on its next log line.
    child.stderr.on('data', (chunk: Buffer) => this.#stderr.push(chunk));
    child.stderr.on('end', () => this.#stderr.end());
    child.stderr.on('close', () => this.#streamDone('stderr'));
    this.#unwatchHostExit = killOnProcessExit(child.pid!, platform);
    this.#state = 'open';
    this.#debug(`started pid ${child.pid}`);
  }

  // ── receiving ───────────────────────────────────────────────────────────────────────────────────

  #onLine(content: string | Buffer, frameBytes: number): void {
    const sink = this.#sink;
    if (sink === undefined || this.#sinkClosed) return;
    const decoded = decodeMessage(content);
    if (!decoded.ok) return this.#guard('sink.error', () => sink.error(decoded.error));
    // #guard inlined: this runs once per message, and its closure was a per-message allocation.
    try {
      sink.message(decoded.message, { byteLength: frameBytes });
    } catch (error) {
      this.#log('error', `sink.message threw: ${escapeForLog(error instanceof Error ? error.message : String(error))}`);
    }
  }

  #onStdoutEnd(): void {
    this.#decoder.end();
    this.#streamDone('stdout');
    if (this.#state !== 'open') return;
    // The server closed its output: the connection is over, whether or not the process has exited yet.
    this.#state = 'closing';
    this.#teardown = this.#run(async () => {
      if (await this.#waitUntil(() => this.#exit !== undefined, EXIT_GRACE_MS)) {
        await this.#waitUntil(() => this.#stderrDone, EXIT_GRACE_MS);
        return this.#finalize(this.#exitError());
      }
      const cause = new TransportError(
        `the server process "${escapeForLog(this.#command, 100)}" closed its stdout but kept running`,
        {
          code: StdioErrorCode.StdoutClosed,
        },
      );
      this.#closeCause = cause;
      this.#closeSink(cause);
      await this.#terminate(new ConnectionClosedError(undefined, cause));
      this.#finalize(cause);
    });
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exit = { code, signal };
    const pid = this.#child?.pid;
    // A wrapper that exits without waiting for its child leaves it running in the group; nothing
    // can talk to it any more.
    if (pid !== undefined && killGroupSurvivors(pid)) this.#debug(`killed what was left of process group ${pid}`);
    this.#unwatchHostExit?.();
    this.#waiters.wake();
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    this.#teardown = this.#run(async () => {
      await this.#waitUntil(() => this.#stdoutDone && this.#stderrDone, EXIT_GRACE_MS);
      this.#finalize(this.#exitError());
    });
  }

  /**
   * Writing to the server failed (it closed its stdin: a broken pipe). Nothing sent from now on can
   * reach it, so the connection is lost even if the process runs on with stdout open: the transport
   * closes with the write error as the cause, and the engine fails what is pending with it, rather
   * than each request waiting out its timeout. A process that is exiting is given a moment to, so
   * that its exit is what gets reported.
   */
  #onWriteFailed(cause: unknown): void {
    if (this.#state !== 'open') return;
    const error = new StdinWriteError(this.#command, cause);
    this.#debug(escapeForLog(error.message));
    void this.#waitUntil(() => this.#exit !== undefined || this.#stdoutDone, WRITE_FAILURE_GRACE_MS).then((ended) => {
      if (!ended) this.#fail(error);
    });
  }

  // ── closing ─────────────────────────────────────────────────────────────────────────────────────

  async #close(): Promise<void> {
    if (this.#state === 'starting') await this.#starting?.catch(() => {});
    if (this.#state === 'new') {
      this.#state = 'closed';
      return;
    }
    if (this.#state === 'open') {
      this.#state = 'closing';
      this.#teardown = this.#run(async () => {
        await this.#terminate(new ConnectionClosedError(undefined));
        this.#finalize(undefined);
      });
    }
    await this.#teardown;
  }

  /** A fatal problem on our side of the pipe: the consumer hears of it at once, the process is stopped. */
  #fail(cause: Error): void {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    this.#closeCause = cause;
    this.#decoder.stop();
    // Stop reading: a server stuck writing an oversized line gets EPIPE instead of filling our memory.
    this.#child?.stdout.destroy();
    this.#teardown = this.#run(async () => {
      await this.#terminate(new ConnectionClosedError(undefined, cause));
      this.#finalize(cause);
    });
    // After the teardown exists: a sink that calls close() from here must wait for it.
    this.#closeSink(cause);
  }

  /** The MCP stdio shutdown: close stdin, then SIGTERM, then SIGKILL, each to the whole process group. */
  async #terminate(abandoned: Error): Promise<void> {
    const pid = this.#child?.pid;
    this.#writer?.end(abandoned);
    if (pid === undefined) return;
    await escalateUntilExit({
      pid,
      stdinCloseMs: this.#stdinCloseMs,
      sigtermMs: this.#sigtermMs,
      waitForExit: (ms) => this.#waitForExit(ms),
      log: (level, message) => this.#log(level, message),
    });
  }

  #finalize(cause: Error | undefined): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    if (cause !== undefined) this.#closeCause ??= cause;
    this.#writer?.abandon(new ConnectionClosedError(undefined, cause));
    this.#decoder.stop();
    this.#child?.stdin.destroy();
    this.#child?.stdout.destroy();
    this.#child?.stderr.destroy();
    this.#closeSink(cause);
  }

  #closeSink(cause: Error | undefined): void {
    const sink = this.#sink;
    if (sink === undefined || this.#sinkClosed) return;
    this.#sinkClosed = true;
    this.#guard('sink.close', () => (cause === undefined ? sink.close() : sink.close(cause)));
  }

  #exitError(): ProcessExitError {
    return new ProcessExitError(this.#command, this.#exit?.code ?? null, this.#exit?.signal ?? null, this.#stderr.text);
  }

  #writeError(cause: unknown): Error {
    if (this.#state !== 'open') return new ConnectionClosedError(undefined, this.#closeCause ?? cause);
    return new StdinWriteError(this.#command, cause);
  }

  // ── waiting ─────────────────────────────────────────────────────────────────────────────────────

  #streamDone(stream: 'stdout' | 'stderr'): void {
    if (stream === 'stdout') this.#stdoutDone = true;
    else this.#stderrDone = true;
    this.#waiters.wake();
  }

  #waitForExit(ms: number): Promise<boolean> {
    return this.#waitUntil(() => this.#exit !== undefined, ms);
  }

  /** Resolves true once `done()` holds (re-checked on every exit and stream end), false after `ms`. */
  #waitUntil(done: () => boolean, ms: number): Promise<boolean> {
    return this.#waiters.until(done, ms);
  }

  // ── plumbing ────────────────────────────────────────────────────────────────────────────────────

  #run(task: () => Promise<void>): Promise<void> {
    return task().catch((error: unknown) => {
      this.#log('error', `shutdown failed: ${escapeForLog(error instanceof Error ? error.message : String(error))}`);
      this.#finalize(error instanceof Error ? error : undefined);
    });
  }

  /** Runs consumer code; its exception is the consumer's bug and must not unwind the stream handler. */
  #guard(what: string, call: () => void): void {
    try {
      call();
    } catch (error) {
      this.#log('error', `${what} threw: ${escapeForLog(error instanceof Error ? error.message : String(error))}`);
    }
  }

  #log(level: 'info' | 'warn' | 'error', message: string): void {
    safeLog(this.#logger, level, `[mcpc] stdio "${escapeForLog(this.#command, 100)}": ${message}`);
  }

  #debug(message: string): void {
    if (this.#logger.isLevelEnabled?.('debug') === false) return;
    safeLog(this.#logger, 'debug', `[mcpc] stdio "${escapeForLog(this.#command, 100)}": ${message}`);
  }
}
