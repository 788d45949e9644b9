// What tracing reads of a connection as each request starts; no OpenTelemetry type, and loaded with the client.

/** What the span attributes need of the connection, read as each request starts (the session changes). */
export interface TracedConnection {
  /** The transport's kind (`'stdio'`, `'streamable-http'`, …) and its label (the URL for HTTP). */
  readonly kind: string;
  readonly label: string;
  readonly protocolVersion: () => string | undefined;
  readonly sessionId: () => string | undefined;
}

/** The transport's session id, where it has one (Streamable HTTP's `Mcp-Session-Id`). */
export function sessionIdOf(transport: object): string | undefined {
  const id = (transport as { sessionId?: unknown }).sessionId;
  return typeof id === 'string' ? id : undefined;
}
