// The process's deprecation notices: which deprecated uses were noted, and whether notices are on at all.
import type { Logger } from './logger.js';

// Module state, not a `globalThis` key: every `@mcpc` package reaches it through its `@mcpc/jsonrpc`
// dependency, so the packages sharing one installed kernel share one record, and nothing outside the
// kernel can reach (or forge) it.
let enabled = true;
/** Features whose notice was delivered: at most one notice per feature per process. */
const noted = new Set<string>();
/** Notices being written right now: a reentrant use (a logger that itself uses the feature) stands down. */
const writing = new Set<string>();

/**
 * Note a use of a deprecated feature: the first use in the process gets one `logger.warn` with
 * `message()`; later uses, and every use while notices are switched off, cost nothing (`message` is not
 * called). A logger that throws, or says warnings are off (`isLevelEnabled('warn') === false`), leaves
 * the notice owed to the next use. Never throws. Returns whether this call delivered the notice.
 *
 * `feature` names the feature process-wide: two packages noting the same name give one notice between
 * them. `@mcpc` packages use the names of MCP's deprecated-features registry (`sse-transport`,
 * `dynamic-client-registration`, …).
 */
export function noteDeprecation(feature: string, logger: Logger, message: () => string): boolean {
  if (!enabled || noted.has(feature) || writing.has(feature)) return false;
  writing.add(feature);
  try {
    if (logger.isLevelEnabled?.('warn') === false) return false;
    logger.warn(message());
    noted.add(feature);
    return true;
  } catch {
    // The host's logger (or the message) failed: the feature goes on, and the notice stays owed.
    return false;
  } finally {
    writing.delete(feature);
  }
}

/** Switch every deprecation notice in the process off (`false`) or back on (`true`, the default). */
export function setDeprecationNotices(on: boolean): void {
  enabled = on;
}

/** Whether deprecation notices are on in this process. */
export function deprecationNoticesEnabled(): boolean {
  return enabled;
}

/** The features whose notice was delivered in this process (a copy: changing it changes nothing). */
export function deprecationsNoted(): ReadonlySet<string> {
  return new Set(noted);
}

/** Forget that the notice for `feature` (default: every feature) was given, so the next use gives it again. For tests. */
export function forgetDeprecations(feature?: string): void {
  if (feature === undefined) noted.clear();
  else noted.delete(feature);
}
