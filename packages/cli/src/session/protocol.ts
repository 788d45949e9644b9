// The session wire: newline-delimited JSON frames over the socket, and a dial with a deadline.
//
// It defines the frames' shapes and their size bound.
import { connect, type Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';

/** What a caller sends: one opening frame (`run`, `status` or `close`), then, for `run`, its stdin. */
export type CallerFrame =
  | {
      readonly t: 'run';
      /** The caller's argv (without node and the script), `@name` included. */
      readonly argv: readonly string[];
      readonly cwd: string;
      /** The caller's NO_COLOR (for the command's colour choice). */
      readonly noColor: boolean;
    }
  | { readonly t: 'status' }
  | { readonly t: 'close' }
  | { readonly t: 'in'; readonly d: string }
  | { readonly t: 'end' };

/** How the daemon's client stands: `connected`, or `reconnecting` (connecting, or restarting the server). */
export type SessionState = 'connected' | 'reconnecting';

/** What the daemon sends back. */
export type DaemonFrame =
  | { readonly t: 'out' | 'err'; readonly d?: string; readonly b?: string }
  | { readonly t: 'exit'; readonly code: number }
  | {
      readonly t: 'status';
      readonly state: SessionState;
      readonly pid: number;
      readonly target: string;
      readonly started: string;
      readonly requests: number;
    }
  | { readonly t: 'closed' };

/** A frame line longer than this ends the connection. */
export const MAX_FRAME = 1024 * 1024;
/** Output is cut into frames of at most this many characters (escaped, a frame stays under MAX_FRAME). */
export const CHUNK = 64 * 1024;

export const encode = (frame: CallerFrame | DaemonFrame): string => `${JSON.stringify(frame)}\n`;

/** Splits a stream into JSON frames; calls `onFrame` with each object, `onBad` on an oversized or broken line. */
export function frameReader(
  onFrame: (frame: Record<string, unknown>) => void,
  onBad: (reason: string) => void,
): (chunk: Buffer | string) => void {
  const decoder = new StringDecoder('utf8');
  let buffered = '';
  let broken = false;
  return (chunk) => {
    if (broken) return;
    buffered += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        broken = true;
        return onBad('a frame is not JSON');
      }
      if (
        typeof value !== 'object' ||
        value === null ||
        Array.isArray(value) ||
        typeof (value as { t?: unknown }).t !== 'string'
      ) {
        broken = true;
        return onBad('a frame has no type');
      }
      onFrame(value as Record<string, unknown>);
      if (broken) return;
    }
    if (buffered.length > MAX_FRAME) {
      broken = true;
      onBad(`a frame is longer than ${MAX_FRAME} characters`);
    }
  };
}

/** Connects to a session socket; rejects with the socket error (ENOENT, ECONNREFUSED, …) or on the deadline. */
export function dial(path: string, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error(`no answer from ${path} within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    });
    const onError = (error: Error): void => {
      clearTimeout(timer);
      reject(error);
    };
    socket.once('error', onError);
  });
}

/** Sends one frame and resolves with the first frame back (status, close), within the deadline. */
export async function ask(path: string, frame: CallerFrame, timeoutMs: number): Promise<Record<string, unknown>> {
  const started = Date.now();
  const socket = await dial(path, timeoutMs);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        socket.destroy();
        reject(Object.assign(new Error(`no answer from ${path} within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
      },
      Math.max(1, timeoutMs - (Date.now() - started)),
    );
    const done = (error: Error | undefined, value?: Record<string, unknown>): void => {
      clearTimeout(timer);
      socket.destroy();
      if (error !== undefined) reject(error);
      else resolve(value!);
    };
    const read = frameReader(
      (value) => done(undefined, value),
      (reason) => done(new Error(reason)),
    );
    socket.on('data', read);
    socket.on('error', (error) => done(error));
    socket.on('close', () =>
      done(Object.assign(new Error('the session closed the connection'), { code: 'ECONNRESET' })),
    );
    socket.write(encode(frame));
  });
}

/** What the starter hands the daemon (in argv, base64url JSON): the session and how to open its target. */
export interface DaemonPayload {
  readonly name: string;
  readonly dir: string;
  /** The target word (undefined when `--stdio` gives it). */
  readonly word: string | undefined;
  /** The starter's flags (headers, auth profile, timeout, era, transport, config, --stdio). */
  readonly flags: Record<string, unknown>;
  readonly cwd: string;
  /** The target as the user gave it, for the record and the listing. */
  readonly target: string;
}

/** The argv word that makes `mcpc` run as a session daemon (never typed by a person). */
export const DAEMON_MARKER = '__session-daemon';

export const encodePayload = (payload: DaemonPayload): string =>
  Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');

export function decodePayload(text: string): DaemonPayload {
  const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<DaemonPayload>;
  if (
    typeof value.name !== 'string' ||
    typeof value.dir !== 'string' ||
    typeof value.cwd !== 'string' ||
    typeof value.target !== 'string' ||
    typeof value.flags !== 'object' ||
    value.flags === null ||
    (value.word !== undefined && typeof value.word !== 'string')
  )
    throw new Error('bad session daemon payload');
  return value as DaemonPayload;
}

/** What the daemon tells its starter over the IPC channel once, before letting go of it. */
export type StartReport =
  | { readonly t: 'ready'; readonly pid: number }
  | { readonly t: 'failed'; readonly message: string; readonly code: number; readonly hint?: string };
