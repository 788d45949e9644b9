// The open sessions, with their health, for `mcpc` alone (a stale record is cleaned up on the way).
import type { CliContext } from '../context.js';
import { redactText } from '../discovery/redact.js';
import { UnsafeSessionError } from '../errors.js';
import { safe } from '../output.js';
import { probe } from './client.js';
import { readRecord, recordNames, removeSession, sessionDir } from './paths.js';

export interface SessionSummary {
  readonly name: string;
  readonly target: string;
  /** `connected`, `reconnecting` (the daemon is connecting or restarting its server), `unreachable`. */
  readonly health: string;
  readonly pid: number;
  /** ISO time the session started. */
  readonly started: string;
}

/** The sessions this user has open (each asked for its health, 1 s at most, all at once). */
export async function listSessions(ctx: CliContext): Promise<SessionSummary[]> {
  const dir = sessionDir(ctx.env);
  let names: string[];
  try {
    names = await recordNames(dir);
  } catch (error) {
    // An unsafe directory lists nothing (and deletes nothing), and says why.
    if (!(error instanceof UnsafeSessionError)) throw error;
    ctx.out.warn(`${safe(error.message, 1_000)}; its sessions are not listed (${safe(error.hint, 1_000)})`);
    return [];
  }
  const found = await Promise.all(
    names.map(async (name): Promise<SessionSummary | undefined> => {
      let record;
      try {
        record = await readRecord(dir, name);
      } catch (error) {
        if (!(error instanceof UnsafeSessionError)) throw error;
        ctx.out.warn(`${safe(error.message, 1_000)}; skipped (${safe(error.hint, 1_000)})`);
        return undefined;
      }
      if (record === undefined) return undefined;
      const state = await probe(record, 1_000);
      // A daemon that is gone is shown once as unreachable, and its leftovers removed.
      if (!state.live && state.stale) await removeSession(dir, name).catch(() => undefined);
      const health = state.live ? state.state : 'unreachable';
      return { name, target: redactText(record.target), health, pid: record.pid, started: record.started };
    }),
  );
  return found.filter((s): s is SessionSummary => s !== undefined);
}
