// The deprecated features this client knows (MCP's registry), their notices, and when a use counts as deprecated.
import {
  deprecationNoticesEnabled,
  deprecationsNoted,
  forgetDeprecations,
  noteDeprecation,
  setDeprecationNotices,
  type Logger,
} from '@mcpc/jsonrpc';

/** The features MCP's deprecated-features registry lists (as of 2026-07-28) that this client implements or will. */
export type DeprecatedFeature =
  'roots' | 'sampling' | 'logging' | 'sse-transport' | 'sampling-include-context' | 'dynamic-client-registration';

export interface Deprecation {
  readonly feature: DeprecatedFeature;
  /** What counts as using it. */
  readonly use: string;
  readonly deprecatedSince: string;
  /**
   * For a protocol feature, the revision that deprecates it: a session on an older revision uses it as
   * that revision defines it, and gets no notice. Undefined for what is deprecated whatever the session
   * negotiates (a transport, an authorization mechanism).
   */
  readonly deprecatedIn: string | undefined;
  /** A revision, not a date: the feature may not go before the first revision released on or after it. */
  readonly earliestRemoval: string;
  readonly migration: string;
}

const NEXT_YEAR = 'the first MCP revision released on or after 2027-07-28';

export const DEPRECATIONS: readonly Deprecation[] = Object.freeze(
  [
    {
      feature: 'roots',
      use: 'the roots option, client.roots = […] with a root in it, or answering roots/list with a root',
      deprecatedSince: '2026-07-28 (SEP-2577)',
      deprecatedIn: '2026-07-28',
      earliestRemoval: NEXT_YEAR,
      migration: 'pass directories or files through tool parameters, resource URIs or server configuration',
    },
    {
      feature: 'sampling',
      use: 'the onSampling option',
      deprecatedSince: '2026-07-28 (SEP-2577)',
      deprecatedIn: '2026-07-28',
      earliestRemoval: NEXT_YEAR,
      migration: 'integrate directly with the LLM provider API',
    },
    {
      feature: 'logging',
      use: 'setLogLevel() on the client or a server',
      deprecatedSince: '2026-07-28 (SEP-2577)',
      deprecatedIn: '2026-07-28',
      earliestRemoval: NEXT_YEAR,
      migration: 'log to stderr (stdio) or use OpenTelemetry',
    },
    {
      feature: 'sse-transport',
      use: 'connecting over the HTTP+SSE transport',
      deprecatedSince: '2025-03-26 (reclassified by SEP-2596)',
      deprecatedIn: undefined,
      earliestRemoval: 'three months after SEP-2596 reaches Final',
      migration: 'migrate the server to Streamable HTTP',
    },
    {
      feature: 'sampling-include-context',
      use: 'serving a sampling request whose includeContext is "thisServer" or "allServers"',
      deprecatedSince: '2025-11-25 (reclassified by SEP-2596)',
      deprecatedIn: '2025-11-25',
      earliestRemoval: 'follows Sampling (SEP-2577)',
      migration: 'servers omit includeContext or send "none"',
    },
    {
      feature: 'dynamic-client-registration',
      use: 'OAuth Dynamic Client Registration',
      deprecatedSince: '2026-07-28 (PR #2858)',
      deprecatedIn: undefined,
      earliestRemoval: NEXT_YEAR,
      migration: 'use Client ID Metadata Documents or pre-registered credentials',
    },
  ].map((d) => Object.freeze(d)) as Deprecation[],
);

// Keyed by name: a server config (the kernel's) names its feature as a string; a name not listed is no use.
const byFeature: ReadonlyMap<string, Deprecation> = new Map(DEPRECATIONS.map((d) => [d.feature, d]));

/**
 * The deprecation notices: one per feature per process, through the logger of the client that used the
 * feature, on its first use.
 */
export const deprecations = {
  /** The registry. */
  registry: DEPRECATIONS,
  /**
   * `false` silences every notice in this process (a client's `deprecationNotices: false` silences its
   * own). The switch is the kernel's (`setDeprecationNotices` of `@mcpc/jsonrpc`), so it silences the
   * notices other `@mcpc` packages give too (`@mcpc/oauth`'s Dynamic Client Registration).
   */
  get enabled(): boolean {
    return deprecationNoticesEnabled();
  },
  set enabled(value: boolean) {
    setDeprecationNotices(value);
  },
  /** Whether the notice for `feature` has been given in this process (by this package or another). */
  noticed(feature: DeprecatedFeature): boolean {
    return deprecationsNoted().has(feature);
  },
  /** Forget which notices were given (for tests). */
  reset(): void {
    for (const d of DEPRECATIONS) forgetDeprecations(d.feature);
  },
};

/**
 * Whether `feature` is deprecated in a session on `revision` (a revision date; undefined: none
 * negotiated yet). A protocol feature is deprecated only from the revision that deprecates it on: roots
 * on a 2025-11-25 session are plain 2025-11-25 roots.
 */
export function isDeprecatedIn(feature: DeprecatedFeature | string, revision: string | undefined): boolean {
  const since = byFeature.get(feature)?.deprecatedIn;
  if (since === undefined) return true;
  // Revisions are ISO dates, so their order is the strings' order.
  return revision !== undefined && revision >= since;
}

/**
 * Note a use of a deprecated feature in a session on `revision` (the negotiated protocol revision; a
 * protocol feature used with no session, or in one on a revision that does not deprecate it, is no
 * deprecated use). Costs the caller at most one `logger.warn`: a logger that throws is swallowed and the
 * notice stays owed to a later use, as it does when the logger says warnings are off; a reentrant use
 * (a logger that itself reaches a deprecated feature) stands down.
 */
export function noteDeprecatedUse(
  feature: DeprecatedFeature | string,
  logger: Logger,
  enabled = true,
  revision?: string,
): void {
  if (!enabled) return;
  const d = byFeature.get(feature);
  if (d === undefined || !isDeprecatedIn(feature, revision)) return;
  // Once per process, switchable, logger failures swallowed: the kernel's registry, which every @mcpc
  // package notes its deprecated uses in.
  noteDeprecation(
    feature,
    logger,
    () =>
      `[mcpc] deprecated: ${d.feature} (${d.use}) is deprecated since MCP ${d.deprecatedSince}; ` +
      `earliest removal: ${d.earliestRemoval}. Migration: ${d.migration}.`,
  );
}
