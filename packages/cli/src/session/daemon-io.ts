// A session daemon's byte paths: its log file (mode 0600, cut at 1 MiB), and a caller's output as socket frames.
import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { CHUNK, encode, type DaemonFrame } from './protocol.js';

/** The log is cut at this size. */
const MAX_LOG = 1024 * 1024;

/** The daemon's log: `<dir>/<name>.log`, mode 0600, cut at {@link MAX_LOG}. */
export function openLog(file: string): Writable {
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
export function frameStream(socket: Socket, t: 'out' | 'err'): Writable {
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
