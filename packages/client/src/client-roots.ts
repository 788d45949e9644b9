// Telling a client's servers that its roots changed: the notification, and the notices and warnings around it.
//
// What it sends: the deprecation notice where a session's revision deprecates roots, a warning for a server that was
// never told of roots, and the notification itself.
import { escapeForLog, type Logger } from '@mcpc/jsonrpc';
import { noteDeprecatedUse } from './deprecations.js';
import { ROOTS_CHANGED, type Server } from './server/server.js';
import type { Root } from './types/protocol.js';

/** Before the roots change: a use of roots, noted for each connected server whose revision deprecates them. */
export function noteRootsUse(
  servers: Iterable<Server>,
  roots: readonly Root[],
  logger: Logger,
  notices: boolean,
): void {
  if (roots.length === 0) return;
  for (const server of servers) {
    if (server.state === 'connected') noteDeprecatedUse('roots', logger, notices, server.protocolVersion);
  }
}

/** After the roots changed: each server is told (`notifications/roots/list_changed` where it declared roots). */
export function announceRoots(servers: Iterable<Server>, warn: (message: string) => void): void {
  for (const server of servers) {
    if (server.state === 'connected' && server.clientCapabilities?.roots === undefined) {
      warn(
        `server "${server.name}" connected before roots were configured, so it was not told of them; pass roots (even []) to the Client to declare them`,
      );
    }
    server[ROOTS_CHANGED]().catch((e: unknown) =>
      warn(`could not tell server "${server.name}" that roots changed: ${messageOf(e)}`),
    );
  }
}

const messageOf = (e: unknown): string => escapeForLog(e instanceof Error ? e.message : String(e), 500);
