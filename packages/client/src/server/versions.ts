/**
 * The classic (initialize-handshake) protocol revisions this client speaks, newest first. The first is
 * the one offered; any of them is accepted when the server answers with it.
 */
export const CLASSIC_PROTOCOL_VERSIONS = Object.freeze(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const);

export type ClassicProtocolVersion = (typeof CLASSIC_PROTOCOL_VERSIONS)[number];

export const LATEST_CLASSIC_VERSION: ClassicProtocolVersion = CLASSIC_PROTOCOL_VERSIONS[0];

export const isClassicVersion = (v: unknown): v is ClassicProtocolVersion =>
  typeof v === 'string' && (CLASSIC_PROTOCOL_VERSIONS as readonly string[]).includes(v);
