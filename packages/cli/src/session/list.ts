// The open sessions, with their health, for `mcpc` alone.
import type { CliContext } from '../context.js';

export interface SessionSummary {
  readonly name: string;
  readonly target: string;
  /** `connected`, `reconnecting`, `unreachable`, … */
  readonly health: string;
}

/** The sessions this user has open. */
export async function listSessions(ctx: CliContext): Promise<SessionSummary[]> {
  void ctx;
  return [];
}
