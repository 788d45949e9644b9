import type { Logger } from '@mcpc/jsonrpc';

interface State {
  enabled: boolean;
  readonly spent: Set<string>;
  readonly writing: Set<string>;
}

// The same process-wide record @mcpc/client keeps its notices in (same key, same shape), so "once per
// process" holds across both packages, and `deprecations.enabled = false` there silences this one too.
const STATE_KEY = Symbol.for('@mcpc/client.deprecations');
const state = (): State => ((globalThis as { [STATE_KEY]?: State })[STATE_KEY] ??= { enabled: true, spent: new Set(), writing: new Set() });

const FEATURE = 'dynamic-client-registration';

/**
 * The one notice for Dynamic Client Registration: deprecated by MCP 2026-07-28 (PR #2858). A logger that
 * throws, or has warnings off, leaves the notice owed to the next use.
 */
export function noteDynamicRegistration(logger: Logger): void {
  const s = state();
  if (!s.enabled || s.spent.has(FEATURE) || s.writing.has(FEATURE)) return;
  s.writing.add(FEATURE);
  try {
    if (logger.isLevelEnabled?.('warn') === false) return;
    logger.warn(
      '[mcpc] deprecated: dynamic-client-registration (OAuth Dynamic Client Registration) is deprecated since MCP 2026-07-28 (PR #2858); ' +
        'earliest removal: the first MCP revision released on or after 2027-07-28. Migration: use Client ID Metadata Documents or pre-registered credentials.',
    );
    s.spent.add(FEATURE);
  } catch {
    // The host's logger failed; registration goes on and the notice stays owed.
  } finally {
    s.writing.delete(FEATURE);
  }
}

/** Whether the notice was given in this process (for tests). */
export const dynamicRegistrationNoticed = (): boolean => state().spent.has(FEATURE);
/** Forget that it was (for tests). */
export const resetDynamicRegistrationNotice = (): void => void state().spent.delete(FEATURE);
