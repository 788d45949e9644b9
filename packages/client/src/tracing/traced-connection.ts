// What tracing reads of a connection as each request starts; no OpenTelemetry type, so public types may reach it.

/** What the span attributes need of the connection, read as each request starts (the session changes). */
export interface TracedConnection {
  /** The transport's kind (`'stdio'`, `'streamable-http'`, …) and its label (the URL for HTTP). */
  readonly kind: string;
  readonly label: string;
  readonly protocolVersion: () => string | undefined;
  readonly sessionId: () => string | undefined;
}
