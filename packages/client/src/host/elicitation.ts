// `elicitation/create`: the request checked against the declared modes, the handler's answer normalized.
import { escapeForLog, safeLog, type JsonRpcParams, type Logger, type RequestContext } from '@mcpc/jsonrpc';
import type {
  ElicitationAction,
  ElicitationAnswer,
  ElicitationHandler,
  ElicitationMode,
  ElicitationRequest,
  ElicitationResult,
  ElicitationValue,
} from '../types/host.js';
import { respondWith } from './respond.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ACTIONS: ReadonlySet<unknown> = new Set<ElicitationAction>(['accept', 'decline', 'cancel']);

/** Checks an `elicitation/create` request: a mode the client did not declare is refused (-32602), as the spec requires. */
export function checkElicitation(
  params: JsonRpcParams | undefined,
  modes: readonly ElicitationMode[],
  stateless = false,
): ElicitationRequest | string {
  if (params === undefined) return 'no params';
  const mode = params.mode ?? 'form';
  if (mode !== 'form' && mode !== 'url') return 'unknown elicitation mode';
  if (!modes.includes(mode)) return `the client did not declare ${mode}-mode elicitation`;
  if (typeof params.message !== 'string') return '"message" must be a string';
  const meta = isObject(params._meta) ? { _meta: params._meta } : {};
  if (mode === 'url') {
    if (typeof params.url !== 'string' || !URL.canParse(params.url)) return '"url" must be a valid URL';
    // MCP 2026-07-28 removed elicitationId: the outcome is learned by retrying the original request.
    if (stateless) return { mode, message: params.message, url: params.url, ...meta };
    if (typeof params.elicitationId !== 'string') return '"elicitationId" must be a string';
    return { mode, message: params.message, url: params.url, elicitationId: params.elicitationId, ...meta };
  }
  const schema = params.requestedSchema;
  if (!isObject(schema) || !isObject(schema.properties))
    return '"requestedSchema" must be an object schema with "properties"';
  return { mode, message: params.message, requestedSchema: schema as never, ...meta };
}

const isValue = (v: unknown): v is ElicitationValue =>
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  (Array.isArray(v) && v.every((i) => typeof i === 'string'));

/**
 * The wire answer for what a handler returned. Form mode: content alone counts as accept. URL mode: only
 * an explicit action (or `true`) is consent, and content is dropped (form mode only). Any other action is
 * answered `cancel`, since it is not consent the user gave.
 */
export function normalizeElicitationAnswer(
  answer: ElicitationAnswer,
  request: ElicitationRequest,
  warn: (m: string) => void,
): ElicitationResult {
  if (answer === true) return { action: request.mode === 'url' ? 'accept' : 'cancel' };
  if (!isObject(answer)) return { action: 'cancel' };
  const meta = isObject(answer._meta) ? { _meta: answer._meta } : {};
  if (!Object.hasOwn(answer, 'action')) {
    if (request.mode === 'url') return { action: 'cancel' };
    return { action: 'accept', content: checkContent(answer, warn), ...meta };
  }
  if (!ACTIONS.has(answer.action)) {
    warn('the elicitation handler returned an action other than accept, decline or cancel; answered cancel');
    return { action: 'cancel', ...meta };
  }
  const action = answer.action as ElicitationAction;
  if (action !== 'accept' || request.mode === 'url' || answer.content === undefined) return { action, ...meta };
  if (!isObject(answer.content)) {
    warn('the elicitation handler accepted with content that is not an object; answered cancel');
    return { action: 'cancel', ...meta };
  }
  return { action, content: checkContent(answer.content, warn), ...meta };
}

function checkContent(content: Record<string, unknown>, warn: (m: string) => void): Record<string, ElicitationValue> {
  const out: Record<string, ElicitationValue> = {};
  for (const [key, value] of Object.entries(content)) {
    if (key === '_meta') continue;
    if (isValue(value))
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else
      warn(
        `dropped elicitation field "${escapeForLog(key, 64)}": a value must be a string, number, boolean or string array`,
      );
  }
  return out;
}

export function elicitationResponder(
  handler: ElicitationHandler,
  modes: readonly ElicitationMode[],
  server: string,
  logger: Logger,
) {
  const warn = (m: string): void => safeLog(logger, 'warn', `[mcpc] server "${escapeForLog(server, 100)}": ${m}`);
  const respond = (stateless: boolean) =>
    respondWith<ElicitationRequest, ElicitationAnswer>({
      server,
      method: 'elicitation/create',
      logger,
      check: (params) => checkElicitation(params, modes, stateless),
      handle: handler,
      answer: (result, request) => normalizeElicitationAnswer(result, request, warn),
    });
  const classic = respond(false);
  const stateless = respond(true);
  return (
    params: JsonRpcParams | undefined,
    context: RequestContext,
    options?: { readonly stateless?: boolean },
  ): Promise<unknown> => (options?.stateless === true ? stateless : classic)(params, context);
}
