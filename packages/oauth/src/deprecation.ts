// The Dynamic Client Registration deprecation notice, noted in the kernel's process-wide registry.
import { noteDeprecation, type Logger } from '@mcpc/jsonrpc';

// The name in MCP's deprecated-features registry, the one `@mcpc/client` lists too: noted under one name
// in the one kernel registry, the notice is given once per process whichever package meets the use
// first, and `deprecations.enabled = false` there (`setDeprecationNotices(false)`) silences it.
const FEATURE = 'dynamic-client-registration';

/**
 * The one notice for Dynamic Client Registration: deprecated by MCP 2026-07-28 (PR #2858). A logger that
 * throws, or has warnings off, leaves the notice owed to the next use.
 */
export function noteDynamicRegistration(logger: Logger): void {
  noteDeprecation(
    FEATURE,
    logger,
    () =>
      '[mcpc] deprecated: dynamic-client-registration (OAuth Dynamic Client Registration) is deprecated since MCP 2026-07-28 (PR #2858); ' +
      'earliest removal: the first MCP revision released on or after 2027-07-28. Migration: use Client ID Metadata Documents or pre-registered credentials.',
  );
}
