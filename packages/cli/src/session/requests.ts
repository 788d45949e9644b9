// A caller's `run` on a session's daemon: its stdin taken in, its command line dispatched, its exit code sent back.
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { ClientErrorCode } from '@mcpc/client';
import type { CliContext, Connection, Outcome } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import type { Output } from '../output.js';
import { frameStream } from './daemon-io.js';
import { encode, type CallerFrame } from './protocol.js';

/** The stdin a caller may forward to one command. */
const MAX_STDIN = 16 * 1024 * 1024;

/** A caller's request as the dispatcher runs it: the caller's streams and directory, and the session's connection. */
export interface SessionRequest {
  /** The session's name: commands see their connection's target as `@name`. */
  readonly name: string;
  /** What the session opened, as the user gave it: the hints name it (`mcpc login <url>`). */
  readonly target: string;
  readonly cwd: string;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** The caller's NO_COLOR. */
  readonly noColor: boolean;
  /** Fires when the caller goes away or the session closes. */
  readonly signal: AbortSignal;
  /**
   * The session's connection, for the command about to run with `ctx` (the wait is bounded by its signal;
   * while it runs, the client's host handlers speak on its output).
   */
  readonly connection: (ctx: CliContext) => Promise<Connection>;
}

/** How the daemon runs a caller's argv (`@name <command> …`): the dispatcher, handed in by the executable. */
export type SessionRunner = (argv: readonly string[], request: SessionRequest) => Promise<Outcome>;

/** A request the daemon is running: where its command writes (once it has asked for the connection), how to stop it. */
export interface Running {
  out: Output | undefined;
  readonly abort: AbortController;
}

/** The daemon as one request sees it. */
export interface RequestHost {
  readonly name: string;
  readonly target: string;
  readonly running: Set<Running>;
  /** Why no request is taken now (the session is closing, or runs too many), or undefined. */
  refusal(): string | undefined;
  connection(signal: AbortSignal): Promise<Connection>;
  /** A request began or ended (the idle timer is re-armed). */
  touched(): void;
  /** A request failed in a way that ends the session (the server keeps crashing). */
  fatal(error: unknown): void;
}

/** Whether an error (or its causes) says the server keeps dying: the session cannot go on. */
export function isFatal(error: unknown): boolean {
  for (let e: unknown = error, i = 0; e instanceof Error && i < 8; e = e.cause, i++)
    if (e.name === 'CrashLoopError' || (e as { code?: unknown }).code === ClientErrorCode.CrashLoop) return true;
  return false;
}

/** Serves a caller's `run` frame; returns the handler of its later frames (stdin). */
export function serveRun(
  socket: Socket,
  frame: Extract<CallerFrame, { t: 'run' }>,
  host: RequestHost,
  run: SessionRunner,
): (frame: Record<string, unknown>) => void {
  const stdin = new PassThrough();
  let stdinBytes = 0;
  const onFrame = (next: Record<string, unknown>): void => {
    if (next.t === 'in' && typeof next.d === 'string' && !stdin.writableEnded) {
      stdinBytes += next.d.length;
      if (stdinBytes > MAX_STDIN) return void socket.destroy();
      stdin.write(next.d);
    } else if (next.t === 'end' && !stdin.writableEnded) stdin.end();
  };
  const refusal = host.refusal();
  if (refusal !== undefined) {
    socket.end(encode({ t: 'err', d: `error: ${refusal}\n` }) + encode({ t: 'exit', code: ExitCode.Error }));
    return () => undefined;
  }
  const stdout = frameStream(socket, 'out');
  const stderr = frameStream(socket, 'err');
  const abort = new AbortController();
  const onClose = (): void => abort.abort(new Error('the caller went away'));
  socket.once('close', onClose);
  const request: Running = { out: undefined, abort };
  host.running.add(request);
  host.touched();
  const outcome = run(frame.argv, {
    name: host.name,
    target: host.target,
    cwd: frame.cwd,
    stdin,
    stdout,
    stderr,
    noColor: frame.noColor === true,
    signal: abort.signal,
    connection: (ctx) => {
      request.out = ctx.out;
      return host.connection(ctx.signal);
    },
  }).catch((error: unknown): Outcome => ({ code: ExitCode.Error, failure: error }));
  void outcome.then(async ({ code, failure }) => {
    await Promise.all([new Promise((r) => stdout.end(r)), new Promise((r) => stderr.end(r))]);
    socket.off('close', onClose);
    if (!socket.destroyed) socket.end(encode({ t: 'exit', code }));
    host.running.delete(request);
    host.touched();
    if (failure !== undefined && isFatal(failure)) host.fatal(failure);
  });
  return onFrame;
}
