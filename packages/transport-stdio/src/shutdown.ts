// The MCP stdio shutdown's escalation once stdin is closed: SIGTERM, then SIGKILL, to the whole process tree.
import { signalTree } from './process-tree.js';

// Past SIGKILL only an uninterruptible sleep keeps a process alive; close() stops waiting on it.
const SIGKILL_WAIT_MS = 5_000;

export interface Escalation {
  readonly pid: number;
  /** How long the process has to exit after its stdin was closed, before SIGTERM. */
  readonly stdinCloseMs: number;
  /** How long it has after SIGTERM, before SIGKILL. */
  readonly sigtermMs: number;
  /** Resolves true once the process has exited, false after `ms`. */
  readonly waitForExit: (ms: number) => Promise<boolean>;
  readonly log: (level: 'info' | 'warn' | 'error', message: string) => void;
}

/** Waits for the process (whose stdin was just closed) to exit, signalling its tree harder at each deadline. */
export async function escalateUntilExit(e: Escalation): Promise<void> {
  if (await e.waitForExit(e.stdinCloseMs)) return;
  e.log('info', `pid ${e.pid} still running ${e.stdinCloseMs} ms after stdin closed; sending SIGTERM`);
  signalTree(e.pid, 'SIGTERM');
  if (await e.waitForExit(e.sigtermMs)) return;
  e.log('warn', `pid ${e.pid} still running ${e.sigtermMs} ms after SIGTERM; sending SIGKILL`);
  signalTree(e.pid, 'SIGKILL');
  if (await e.waitForExit(SIGKILL_WAIT_MS)) return;
  e.log('error', `pid ${e.pid} still running ${SIGKILL_WAIT_MS} ms after SIGKILL; giving up on it`);
}
