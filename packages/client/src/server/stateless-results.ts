// Reading the stateless era's answers: a result's `resultType`, a `server/discover` result, a -32022 error's revisions.
import { TransportErrorCode, escapeForLog, safeLog, type Logger } from '@mcpc/jsonrpc';
import { NotModernError, ValidationError } from '../errors.js';
import type { Implementation, ServerCapabilities } from '../types/protocol.js';
import type { SessionFacts } from './era.js';
import { META } from './meta.js';
import { MRTR_METHODS } from './mrtr.js';
import { MODERN_PROTOCOL_VERSIONS, isModernVersion } from './versions.js';

/** What a `server/discover` result told the client, with when it stops being fresh. */
export interface DiscoverFacts extends SessionFacts {
  readonly supportedVersions: readonly string[];
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
  readonly receivedAt: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every result of this era has a `resultType`: absent (a server of an earlier draft) is `"complete"`;
 * `"input_required"` is handled by the round trips of the three methods that may return it; `"task"` is
 * a tools/call's when the request declared the tasks extension; anything else is invalid, as the spec
 * requires.
 */
export function checkResult(
  raw: unknown,
  method: string,
  server: string,
  tasksDeclared = false,
): Record<string, unknown> {
  if (!isObject(raw))
    throw new ValidationError(`server "${server}" answered ${method} with something that is not an object`, {
      server,
      method,
    });
  const type = raw.resultType;
  if (type === undefined || type === 'complete') return raw;
  if (type === 'input_required' && MRTR_METHODS.has(method)) return raw;
  // A task only where the tasks extension supports one, and only to a request that declared it.
  if (type === 'task' && method === 'tools/call' && tasksDeclared) return raw;
  const why =
    type === 'task'
      ? method === 'tools/call'
        ? 'a request that did not declare the tasks extension may not get'
        : 'the tasks extension does not allow on this method'
      : type === 'input_required'
        ? 'this method may not return'
        : 'this client does not know';
  throw new ValidationError(
    `server "${server}" answered ${method} with resultType ${typeof type === 'string' ? `"${escapeForLog(type, 64)}"` : typeof type}, which ${why}`,
    { server, method, issues: ['resultType'] },
  );
}

/** Checks a `server/discover` result; one that is not a discovery result means the server is not modern. */
export function readDiscoverResult(raw: Record<string, unknown>, server: string, logger: Logger): DiscoverFacts {
  const versions = raw.supportedVersions;
  if (!Array.isArray(versions) || !versions.every((v) => typeof v === 'string'))
    throw new NotModernError('its answer to server/discover has no supportedVersions');
  let capabilities = raw.capabilities;
  if (!isObject(capabilities)) {
    warn(logger, server, 'its server/discover result has no capabilities object; treating it as offering none');
    capabilities = {};
  }
  const info = isObject(raw._meta) ? raw._meta[META.serverInfo] : undefined;
  let serverInfo: Implementation;
  if (isObject(info) && typeof info.name === 'string') {
    serverInfo =
      typeof info.version === 'string'
        ? (info as unknown as Implementation)
        : { ...info, name: info.name, version: '' };
  } else {
    serverInfo = { name: server, version: '' };
  }
  const ttl = raw.ttlMs;
  return {
    protocolVersion: '',
    supportedVersions: versions as string[],
    serverInfo,
    capabilities: capabilities as ServerCapabilities,
    instructions: typeof raw.instructions === 'string' ? raw.instructions : undefined,
    // Absent, negative or malformed is 0: stale at once (SEP-2549).
    ttlMs: typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : 0,
    cacheScope: raw.cacheScope === 'public' ? 'public' : 'private',
    receivedAt: Date.now(),
  };
}

export const isBrokenStream = (e: unknown): boolean =>
  e instanceof Error && (e as { code?: unknown }).code === TransportErrorCode.ResponseStreamClosed;

export function stringList(data: unknown, key: string): string[] | undefined {
  const list = isObject(data) ? data[key] : undefined;
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : undefined;
}

/**
 * The newest modern revision we share with a -32022's `supported` list. It may be the one just refused
 * (a server listing it anyway is retried once with it: the caller's attempt bound stops any loop).
 */
export function sharedModern(data: unknown): string | undefined {
  const theirs = stringList(data, 'supported');
  return theirs === undefined
    ? undefined
    : MODERN_PROTOCOL_VERSIONS.find((v) => theirs.includes(v) && isModernVersion(v));
}

const warn = (logger: Logger, server: string, message: string): void =>
  safeLog(logger, 'warn', `[mcpc] server "${escapeForLog(server, 100)}": ${message}`);
