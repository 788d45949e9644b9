// Every route of the playground in one table: `METHOD /path` → its handler, typed by the API in contract/api.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { declaredAnnotations, type Client, type ResourceContents } from '@mcpc/client';
import type { ContentsView, PathParams, ResponseOf, RouteKey, UiResource } from '../contract/api.js';
import { callBody, completeBody, dialogAnswer, promptBody, uriBody } from './bodies.js';
import type { Dialogs } from './dialogs.js';
import type { EventHub } from './events.js';
import { ApiError, isRecord, need } from './http.js';
import type { OAuthDebugger } from './oauth.js';
import type { Registry } from './servers.js';
import { getSkill, listSkills, loadBody, loadSkill, readSkillDirectory, readSkillFile } from './skills.js';
import { specsFromBody } from './specs.js';
import { validate } from './validate.js';

/** What the handlers work with. */
export interface RouteContext {
  registry: Registry;
  dialogs: Dialogs;
  hub: EventHub;
  /** The OAuth debugger (made once the port is known). */
  oauth: () => OAuthDebugger;
  /** The MCP Apps sandbox proxy's origin (server/sandbox.ts). */
  sandboxOrigin: () => string;
}

/** A JSON route's input: its path parameters, its body (untrusted JSON: checked in bodies.ts), its query. */
export interface RouteInput<K extends RouteKey> {
  params: PathParams<K>;
  body: unknown;
  query: URLSearchParams;
}

export type JsonHandler<K extends RouteKey> = (
  input: RouteInput<K>,
  app: RouteContext,
) => ResponseOf<K> | Promise<ResponseOf<K>>;

/** A route that writes its own answer: the event stream, the OAuth redirect. */
export interface RawRoute {
  /** `query`: the token in `?token=` (EventSource sends no headers); `none`: a browser navigation. */
  token: 'query' | 'none';
  handle: (req: IncomingMessage, res: ServerResponse, app: RouteContext) => void | Promise<void>;
}

/** Each declared route, exactly once, with a handler whose answer is the declared one. */
const api: { readonly [K in RouteKey]: JsonHandler<K> } = {
  'GET /api/sandbox': (_, app) => ({ origin: app.sandboxOrigin() }),
  'GET /api/servers': (_, { registry }) => registry.views(),
  'POST /api/servers': ({ body }, { registry }) => specsFromBody(body).map((spec) => registry.add(spec).view()),
  'POST /api/servers/:id/reconnect': async ({ params }, { registry }) => {
    await registry.reconnect(registry.get(params.id));
    return {};
  },
  'DELETE /api/servers/:id': async ({ params }, { registry }) => {
    await registry.remove(registry.get(params.id));
    return {};
  },

  // Each tool with the hints its server declared, apart from the defaults the client fills in.
  'GET /api/servers/:id/tools': async ({ params }, app) =>
    (await client(app, params.id).listTools()).map((t) => ({
      ...t,
      declaredAnnotations: declaredAnnotations(t) ?? {},
    })),
  'POST /api/servers/:id/call': ({ params, body }, { registry }) => {
    const entry = registry.get(params.id);
    const request = callBody(body);
    return { callId: registry.calls.start(entry, registry.clientOf(entry), request) };
  },
  'POST /api/calls/:callId/cancel': async ({ params }, { registry }) => {
    await registry.calls.cancel(params.callId);
    return {};
  },
  'GET /api/servers/:id/tasks': ({ params }, { registry }) => registry.calls.tasks(registry.get(params.id)),
  'POST /api/servers/:id/tasks/:taskId/cancel': ({ params }, { registry }) => {
    const entry = registry.get(params.id);
    return registry.calls.cancelTask(entry, registry.clientOf(entry), params.taskId);
  },
  'POST /api/validate': ({ body }) => validate(body),
  'GET /api/servers/:id/ui': ({ params, query }, app) => uiResource(client(app, params.id), query.get('uri') ?? ''),

  'GET /api/servers/:id/prompts': ({ params }, app) => client(app, params.id).listPrompts(),
  'POST /api/servers/:id/prompt': ({ params, body }, app) => {
    const c = client(app, params.id);
    const { name, arguments: args } = promptBody(body);
    return c.getPrompt(name, args);
  },
  'POST /api/servers/:id/complete': ({ params, body }, app) => {
    const c = client(app, params.id);
    return c.complete(completeBody(body));
  },
  'GET /api/servers/:id/resources': ({ params }, app) => client(app, params.id).listResources(),
  'GET /api/servers/:id/templates': ({ params }, app) => client(app, params.id).listResourceTemplates(),
  'POST /api/servers/:id/read': async ({ params, body }, app) => {
    const c = client(app, params.id);
    const { uri } = uriBody(body);
    return { contents: (await c.readResource(uri)).map(contentsJson) };
  },
  'POST /api/servers/:id/subscribe': async ({ params, body }, app) => {
    const server = serverOf(client(app, params.id));
    await server.subscribeResource(uriBody(body).uri);
    return {};
  },
  'POST /api/servers/:id/unsubscribe': async ({ params, body }, app) => {
    const server = serverOf(client(app, params.id));
    await server.unsubscribeResource(uriBody(body).uri);
    return {};
  },

  'GET /api/servers/:id/logs': ({ params }, { registry }) => registry.logs(registry.get(params.id)),
  'POST /api/servers/:id/log-level': async ({ params, body }, { registry }) => {
    await registry.setLogLevel(registry.get(params.id), isRecord(body) ? body.level : undefined);
    return {};
  },
  'GET /api/roots': (_, { registry }) => registry.roots(),
  'PUT /api/roots': ({ body }, { registry }) => {
    need(isRecord(body), 'a JSON object { roots } is required');
    return registry.setRoots(body.roots);
  },
  'GET /api/servers/:id/frames': ({ params }, { registry }) => registry.get(params.id).frames.toArray(),
  'GET /api/servers/:id/http': ({ params }, { registry }) => registry.get(params.id).exchanges.toArray(),
  'GET /api/servers/:id/timeline': ({ params }, { registry }) => registry.get(params.id).timeline.views(),
  'POST /api/servers/:id/request': ({ params, body }, { registry }) => {
    const entry = registry.get(params.id);
    const { method, params: requestParams } = isRecord(body) ? body : {};
    return registry.request(entry, method, requestParams);
  },

  'GET /api/servers/:id/skills': ({ params }, app) => listSkills(client(app, params.id)),
  'GET /api/servers/:id/skill': ({ params, query }, app) => getSkill(client(app, params.id), query.get('uri') ?? ''),
  'POST /api/servers/:id/skills/load': ({ params, body }, app) => loadSkill(client(app, params.id), loadBody(body)),
  'POST /api/servers/:id/skills/file': ({ params, body }, app) => readSkillFile(client(app, params.id), body),
  'POST /api/servers/:id/skills/directory': ({ params, body }, app) => readSkillDirectory(client(app, params.id), body),

  'POST /api/dialogs/:dialogId': ({ params, body }, { dialogs }) => {
    const dialog = dialogs.get(params.dialogId);
    if (dialog === undefined) throw new ApiError(404, 'unknown_dialog', `no open dialog "${params.dialogId}"`);
    const answer = dialogAnswer(dialog, body);
    // The checker answered for this dialog's kind, so the answer is the kind it settles.
    (dialog.settle as (a: typeof answer) => void)(answer);
    return {};
  },
  'POST /api/oauth/runs': async ({ body }, app) => ({ runId: await app.oauth().start(body) }),
  'POST /api/oauth/runs/:runId/continue': async ({ params }, app) => {
    await app.oauth().continue(params.runId);
    return {};
  },
};

const raw: Readonly<Record<string, RawRoute>> = {
  // The whole list as one event first: the page's view of the servers is then the stream alone, in order,
  // with no GET /api/servers response to arrive late and put back a state the events moved past.
  'GET /api/events': {
    token: 'query',
    handle: (req, res, { hub, registry, dialogs }) =>
      hub.attach(req, res, [{ type: 'servers', servers: registry.views() }, ...dialogs.pending()]),
  },
  'GET /oauth/callback': { token: 'none', handle: (req, res, app) => app.oauth().callback(req, res) },
};

/**
 * The routes that ask a server something, with the operation their span is named after (`playground call
 * prompts/get greeting`): each runs inside that span, so the Timeline shows the client's requests under it.
 * (Tool calls run in theirs in server/calls.ts; a route that reads what the playground keeps makes none.)
 */
const TRACED: Partial<Record<RouteKey, (body: unknown) => string>> = {
  'GET /api/servers/:id/tools': () => 'tools/list',
  'GET /api/servers/:id/ui': () => 'resources/read',
  'GET /api/servers/:id/prompts': () => 'prompts/list',
  'POST /api/servers/:id/prompt': (body) => named('prompts/get', body, 'name'),
  'POST /api/servers/:id/complete': () => 'completion/complete',
  'GET /api/servers/:id/resources': () => 'resources/list',
  'GET /api/servers/:id/templates': () => 'resources/templates/list',
  'POST /api/servers/:id/read': () => 'resources/read',
  'POST /api/servers/:id/subscribe': () => 'resources/subscribe',
  'POST /api/servers/:id/unsubscribe': () => 'resources/unsubscribe',
  'POST /api/servers/:id/log-level': () => 'logging/setLevel',
  'POST /api/servers/:id/request': (body) => named('request', body, 'method'),
  'GET /api/servers/:id/skills': () => 'skills list',
  'GET /api/servers/:id/skill': () => 'skills get',
  'POST /api/servers/:id/skills/load': () => 'skills load',
  'POST /api/servers/:id/skills/file': () => 'skills file',
  'POST /api/servers/:id/skills/directory': () => 'skills directory',
};

/** `<operation> <name>` when the body names one (a prompt, a raw request's method), else the operation. */
function named(operation: string, body: unknown, key: string): string {
  const name = isRecord(body) ? body[key] : undefined;
  if (typeof name !== 'string' || name === '') return operation;
  return key === 'method' ? name : `${operation} ${name}`;
}

/** The handler, run inside its server's span when the route is one of TRACED. */
function traced(key: RouteKey, handle: Handle): Handle {
  const operation = TRACED[key];
  if (operation === undefined) return handle;
  return (input, app) => {
    // An unknown server is the handler's 404 (no timeline to record it on).
    const entry = app.registry.get((input.params as { id: string }).id);
    return entry.timeline.run(`call ${operation(input.body)}`, {}, async (span) => {
      const answer = await handle(input, app);
      span.addEvent('answer', { 'playground.answer': 'result' });
      return answer;
    });
  };
}

/** A route of the table, as the router holds it. */
export type Route =
  { kind: 'json'; handle: (input: RouteInput<RouteKey>, app: RouteContext) => unknown } | ({ kind: 'raw' } & RawRoute);

type Handle = (input: RouteInput<RouteKey>, app: RouteContext) => unknown;

/** The table: the JSON routes (their types checked above, one by one) and the raw ones. */
export const ROUTES: Readonly<Record<string, Route>> = {
  ...Object.fromEntries(
    Object.entries(api).map(([key, handle]) => [
      key,
      // The router fills `params` from the key's own pattern, which is what PathParams<key> reads.
      { kind: 'json', handle: traced(key as RouteKey, handle as Handle) },
    ]),
  ),
  ...Object.fromEntries(Object.entries(raw).map(([key, route]) => [key, { kind: 'raw', ...route }])),
};

function client(app: RouteContext, id: string): Client {
  return app.registry.clientOf(app.registry.get(id));
}

function serverOf(c: Client) {
  const server = c.servers[0];
  if (server === undefined) throw new ApiError(409, 'not_open', 'the server is not open');
  return server;
}

/** A `ui://` resource for the MCP Apps host: its HTML, and the policy its `_meta.ui.csp` declares. */
async function uiResource(c: Client, uri: string): Promise<UiResource> {
  need(uri.startsWith('ui://'), '"uri" must be a ui:// resource');
  const [first] = await c.readResource(uri);
  if (first === undefined) throw new ApiError(502, 'empty_resource', `${uri} has no contents`);
  const { mimeType, _meta: meta } = first;
  const html = first.isText() ? first.text : Buffer.from(first.bytes()).toString('utf8');
  const ui: unknown = meta?.ui;
  const csp: unknown = isRecord(ui) ? ui.csp : undefined;
  return {
    html,
    mimeType: mimeType ?? 'text/html',
    ...(csp !== undefined && { csp }),
    ...(meta !== undefined && { meta }),
  };
}

/** A resource's contents as JSON: text as is, bytes base64. */
function contentsJson(c: ResourceContents): ContentsView {
  const common = {
    uri: c.uri,
    ...(c.mimeType !== undefined && { mimeType: c.mimeType }),
    ...(c._meta !== undefined && { _meta: c._meta }),
  };
  return c.isText() ? { ...common, text: c.text } : { ...common, blob: Buffer.from(c.bytes()).toString('base64') };
}
