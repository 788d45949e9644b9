// What a Client checks of its options, and the context its servers share, built from them.
import type { JsonRpcParams, Logger } from '@mcpc/jsonrpc';
import { DEFAULT_MAX_PAGES } from './cache/pagination.js';
import { DEFAULT_LOG_MESSAGE_LIMIT } from './features/logging.js';
import { checkValidationMode } from './features/structured-output.js';
import { checkRoots } from './host/roots.js';
import type { ClientOptions } from './options.js';
import type { HostBridge } from './server/era.js';
import { DEFAULT_MAX_INPUT_REQUESTS, DEFAULT_MAX_REQUEST_STATE_BYTES } from './server/mrtr.js';
import type { Server, ServerContext } from './server/server.js';
import type { Implementation, Root } from './types/protocol.js';
import { VERSION } from './version.js';
import { tracingFactory } from './tracing/tracing.js';
import { SkillApprovals } from './skills/approvals.js';
import { MemorySkillCache } from './skills/memory-cache.js';
import { DEFAULT_MAX_LIST_ITEMS, type SkillsShared } from './skills/server-skills.js';

/**
 * Throws a `TypeError` for the options a Client refuses outright (`requestMeta`, `roots`,
 * `elicitationModes`, in that order); returns the roots, checked.
 */
export function checkClientOptions(options: ClientOptions): readonly Root[] | undefined {
  if (
    options.requestMeta !== undefined &&
    typeof options.requestMeta !== 'function' &&
    (typeof options.requestMeta !== 'object' || options.requestMeta === null || Array.isArray(options.requestMeta))
  ) {
    throw new TypeError('requestMeta must be an object or a function returning one');
  }
  const roots = options.roots === undefined ? undefined : checkRoots(options.roots);
  for (const mode of options.elicitationModes ?? []) {
    if (mode !== 'form' && mode !== 'url') throw new TypeError('elicitationModes may hold only "form" and "url"');
  }
  return roots;
}

/** The context every server of a client shares: the options with their defaults, and the client's callbacks. */
export function serverContext(
  options: ClientOptions,
  logger: Logger,
  host: (server: string) => HostBridge,
  deliver: (server: Server, method: string, params: JsonRpcParams | undefined) => void,
): ServerContext {
  return {
    logger,
    requestTimeout: options.requestTimeout,
    handshakeTimeout: options.handshakeTimeout,
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
    logMessageLimit: options.logMessageLimit ?? DEFAULT_LOG_MESSAGE_LIMIT,
    deprecationNotices: options.deprecationNotices !== false,
    validateStructuredContent:
      checkValidationMode(options.validateStructuredContent, 'validateStructuredContent') ?? 'warn',
    requestMeta: options.requestMeta,
    tracing: tracingFactory(options.tracing),
    onInputRequiredWait: options.onInputRequiredWait,
    inputLimits: {
      maxInputRequests: checkLimit(options.maxInputRequests, 'maxInputRequests') ?? DEFAULT_MAX_INPUT_REQUESTS,
      maxRequestStateBytes:
        checkLimit(options.maxRequestStateBytes, 'maxRequestStateBytes') ?? DEFAULT_MAX_REQUEST_STATE_BYTES,
    },
    extensions: checkExtensions(options.extensions),
    skills: skillsShared(options),
    host,
    deliver,
  };
}

/**
 * The declared extensions as the capabilities object they become: identifiers (`['io.modelcontextprotocol/tasks']`)
 * each with empty settings, or an object of identifier → settings as given.
 */
export function checkExtensions(
  value: ClientOptions['extensions'],
): Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    const out: Record<string, Readonly<Record<string, unknown>>> = {};
    for (const id of value) {
      if (typeof id !== 'string' || id === '') throw new TypeError('extensions must be identifier strings');
      out[id] = {};
    }
    return Object.freeze(out);
  }
  if (typeof value !== 'object' || value === null)
    throw new TypeError('extensions must be an array of identifiers or an object of identifier → settings');
  for (const [id, settings] of Object.entries(value))
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
      throw new TypeError(`extensions["${id}"] must be a settings object ({} for none)`);
  return value as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** What a client's servers share for skills: one approval registry and one verified content cache. */
function skillsShared(options: ClientOptions): SkillsShared {
  const hook = options.onSkillApproval;
  if (hook !== undefined && typeof hook !== 'function') throw new TypeError('onSkillApproval must be a function');
  const cache = options.skills?.cache;
  if (cache !== undefined && (typeof cache.get !== 'function' || typeof cache.set !== 'function'))
    throw new TypeError('skills.cache must have get and set');
  return {
    approvals: new SkillApprovals(hook),
    cache: cache ?? new MemorySkillCache(),
    allowDynamic: options.skills?.allowDynamic === true,
    maxListItems: checkLimit(options.skills?.maxListItems, 'skills.maxListItems') ?? DEFAULT_MAX_LIST_ITEMS,
  };
}

/** A positive integer bound, or undefined for the default. */
function checkLimit(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`);
  return value;
}

export function checkClientInfo(info: Implementation | undefined): Implementation {
  if (info === undefined) return { name: '@mcpc/client', version: VERSION };
  if (
    typeof info !== 'object' ||
    typeof info.name !== 'string' ||
    info.name.length === 0 ||
    typeof info.version !== 'string'
  ) {
    throw new TypeError('clientInfo needs a string name and version');
  }
  return info;
}
