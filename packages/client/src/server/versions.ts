// The protocol revisions this client speaks, legacy and modern, and the checks for each.
/**
 * The legacy (initialize-handshake) protocol revisions this client speaks, newest first. The first is
 * the one offered; any of them is accepted when the server answers with it.
 */
export const LEGACY_PROTOCOL_VERSIONS = Object.freeze([
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
] as const);

export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

export const LATEST_LEGACY_VERSION: LegacyProtocolVersion = LEGACY_PROTOCOL_VERSIONS[0];

export const isClassicVersion = (v: unknown): v is LegacyProtocolVersion =>
  typeof v === 'string' && (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(v);

/**
 * The stateless (per-request metadata) revisions this client speaks, newest first. Such a server is
 * found by its answer to `server/discover`; every request then carries the revision in its `_meta`.
 */
export const MODERN_PROTOCOL_VERSIONS = Object.freeze(['2026-07-28'] as const);

export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

export const LATEST_MODERN_VERSION: ModernProtocolVersion = MODERN_PROTOCOL_VERSIONS[0];

export const isModernVersion = (v: unknown): v is ModernProtocolVersion =>
  typeof v === 'string' && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(v);

/** Every revision this client speaks, newest first. */
export const PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  ...MODERN_PROTOCOL_VERSIONS,
  ...LEGACY_PROTOCOL_VERSIONS,
]);
