// The playground's HTTP server: the security checks (token, Host, Origin), the JSON API, the event stream, static files.
// @ts-check
import { timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { declaredAnnotations } from '@mcpc/client';
import { compile } from '@mcpc/schema-validator';
import { ApiError, errorJson, need, readJson, sendError, sendJson } from './http.mjs';

const TYPES = /** @type {Record<string, string>} */ ({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
});

/**
 * @typedef {object} AppOptions
 * @property {string} token
 * @property {string} webRoot dist/web
 * @property {import('./events.mjs').EventHub} hub
 * @property {import('./dialogs.mjs').Dialogs} dialogs
 * @property {import('./servers.mjs').Registry} registry
 * @property {() => { start(body: unknown): unknown, continue(runId: string): unknown,
 *   callback(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): unknown }} oauth
 *   the OAuth debugger (made once the port is known)
 * @property {() => string} [sandboxOrigin] the MCP Apps sandbox proxy's origin (server/sandbox.mjs)
 */

/** @param {AppOptions} options */
export function createApp(options) {
  const { token, webRoot, hub, dialogs, registry } = options;
  const tokenBytes = Buffer.from(token);
  /** Set once listening: the Host and Origin values accepted. */
  let allowedHosts = new Set(/** @type {string[]} */ ([]));
  let allowedOrigins = new Set(/** @type {string[]} */ ([]));

  const tokenMatches = (/** @type {unknown} */ given) => {
    if (typeof given !== 'string') return false;
    const g = Buffer.from(given);
    return g.length === tokenBytes.length && timingSafeEqual(g, tokenBytes);
  };

  const server = createServer(async (req, res) => {
    try {
      await handle(req, res);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const { status } = /** @type {{ status?: unknown }} */ (error ?? {});
      const { code, message } = errorJson(error);
      // ApiError (and a helper's error carrying an HTTP status) say their status; a server's failure is a 502.
      sendError(res, typeof status === 'number' && status >= 400 && status < 600 ? status : 502, code, message);
    }
  });
  server.on('listening', () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`));
  });

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function handle(req, res) {
    // DNS rebinding: only our own names, with our port.
    const host = String(req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host))
      return sendError(res, 421, 'bad_host', 'this server answers only 127.0.0.1 and localhost');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(String(origin).toLowerCase()))
      return sendError(res, 403, 'bad_origin', 'requests from another origin are refused');
    const url = new URL(req.url ?? '/', `http://${host}`);
    const path = url.pathname;

    if (path === '/oauth/callback' && req.method === 'GET') {
      await options.oauth().callback(req, res);
      return;
    }
    if (path === '/api' || path.startsWith('/api/')) {
      const given =
        path === '/api/events' && req.method === 'GET'
          ? url.searchParams.get('token')
          : req.headers['x-playground-token'];
      if (!tokenMatches(given)) return sendError(res, 401, 'unauthorized', 'a valid X-Playground-Token is required');
      return api(req, res, url);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'method_not_allowed', 'GET only');
    return serveStatic(res, path, req.method === 'HEAD');
  }

  /** @param {import('node:http').ServerResponse} res @param {string} path @param {boolean} head */
  async function serveStatic(res, path, head) {
    const rel = path === '/' || path === '/index.html' ? 'index.html' : decodeURIComponent(path.slice(1));
    const allowed = rel === 'index.html' || rel.startsWith('assets/') || /^[\w.-]+\.(css|svg|ico|png)$/.test(rel);
    const file = normalize(join(webRoot, rel));
    if (!allowed || !file.startsWith(webRoot + sep) || rel.includes('\0'))
      return sendError(res, 404, 'not_found', 'no such file');
    let body;
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      body = await readFile(file);
    } catch {
      if (rel === 'index.html') {
        res.writeHead(503, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(
          '<!doctype html><meta charset="utf-8"><title>mcpc playground</title>' +
            '<p>The page is not built: run <code>npx -y pnpm@10.34.8 playground</code> (or <code>pnpm --filter @mcpc/playground build</code>).</p>',
        );
        return;
      }
      return sendError(res, 404, 'not_found', 'no such file');
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': body.length,
      'Cache-Control': rel === 'index.html' ? 'no-store' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': "frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
      'X-Frame-Options': 'DENY',
    });
    res.end(head ? undefined : body);
  }

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res @param {URL} url */
  async function api(req, res, url) {
    const method = req.method ?? 'GET';
    const parts = url.pathname.split('/').slice(2).map(decodeURIComponent); // after /api
    const [head, id, sub, subId, action] = parts;
    const route = `${method} ${head}${id !== undefined ? '/:id' : ''}${sub !== undefined ? `/${sub}` : ''}${subId !== undefined ? '/:sub' : ''}${action !== undefined ? `/${action}` : ''}`;
    const body = method === 'POST' || method === 'PUT' ? await readJson(req) : undefined;

    switch (route) {
      case 'GET events':
        // The whole list as one event first: the page's view of the servers is then the stream alone, in order,
        // with no GET /api/servers response to arrive late and put back a state the events moved past.
        hub.attach(req, res, [
          { type: 'servers', servers: registry.list().map((e) => registry.view(e)) },
          ...dialogs.pending(),
        ]);
        return;
      case 'GET sandbox':
        return sendJson(res, 200, { origin: options.sandboxOrigin?.() ?? '' });
      case 'GET servers':
        return sendJson(
          res,
          200,
          registry.list().map((e) => registry.view(e)),
        );
      case 'POST servers':
        return sendJson(
          res,
          200,
          addServers(body).map((e) => registry.view(e)),
        );
      case 'POST servers/:id/reconnect':
        await registry.reconnect(registry.get(/** @type {string} */ (id)));
        return sendJson(res, 200, {});
      case 'DELETE servers/:id':
        await registry.remove(registry.get(/** @type {string} */ (id)));
        return sendJson(res, 200, {});
      case 'GET roots':
        return sendJson(res, 200, registry.roots());
      case 'PUT roots':
        need(isObject(body), 'a JSON object { roots } is required');
        return sendJson(res, 200, registry.setRoots(body.roots));
      case 'POST validate':
        return sendJson(res, 200, validate(body));
      case 'POST calls/:id/cancel':
        await registry.cancelCall(/** @type {string} */ (id));
        return sendJson(res, 200, {});
      case 'POST dialogs/:id':
        return sendJson(res, 200, answerDialog(/** @type {string} */ (id), body));
    }
    if (head === 'oauth' && id === 'runs' && method === 'POST') {
      if (sub === undefined) {
        const runId = await options.oauth().start(body);
        return sendJson(res, 200, { runId });
      }
      if (subId === 'continue' && action === undefined) {
        await options.oauth().continue(sub);
        return sendJson(res, 200, {});
      }
    }
    if (head === 'servers' && id !== undefined && sub !== undefined) {
      const entry = registry.get(id);
      return sendJson(res, 200, await serverRoute(method, entry, sub, subId, action, body, url));
    }
    throw new ApiError(404, 'not_found', `no API route ${method} ${url.pathname}`);
  }

  /**
   * @param {string} method
   * @param {ReturnType<typeof registry.get>} entry
   * @param {string} sub @param {string | undefined} subId @param {string | undefined} action
   * @param {any} body @param {URL} url
   */
  async function serverRoute(method, entry, sub, subId, action, body, url) {
    const key = `${method} ${sub}${subId !== undefined ? '/:sub' : ''}${action !== undefined ? `/${action}` : ''}`;
    switch (key) {
      case 'GET frames':
        return entry.frames.toArray();
      case 'GET http':
        return entry.exchanges.toArray();
      case 'GET tasks':
        return registry.tasks(entry);
      case 'GET logs':
        return registry.logs(entry);
      case 'POST log-level':
        await registry.setLogLevel(entry, body?.level);
        return {};
      case 'POST request':
        return registry.request(entry, body?.method, body?.params);
      case 'POST tasks/:sub/cancel':
        return registry.cancelTask(entry, /** @type {string} */ (subId));
    }
    if (subId !== undefined) throw new ApiError(404, 'not_found', `no API route ${method} ${url.pathname}`);
    const client = () => registry.clientOf(entry);
    switch (key) {
      case 'GET tools':
        // Each with what its server declared, apart from the defaults the client fills in.
        return (await client().listTools()).map((t) => ({ ...t, declaredAnnotations: declaredAnnotations(t) ?? {} }));
      case 'GET prompts':
        return client().listPrompts();
      case 'GET resources':
        return client().listResources();
      case 'GET templates':
        return client().listResourceTemplates();
      case 'POST call':
        need(typeof body?.tool === 'string', '"tool" (a string) is required');
        need(body.arguments === undefined || isObject(body.arguments), '"arguments" must be an object');
        return { callId: registry.call(entry, body) };
      case 'POST prompt':
        need(typeof body?.name === 'string', '"name" (a string) is required');
        need(body.arguments === undefined || isObject(body.arguments), '"arguments" must be an object');
        return client().getPrompt(body.name, body.arguments ?? {});
      case 'POST complete':
        need(isObject(body?.ref) && isObject(body?.argument), '"ref" and "argument" are required');
        return client().complete({
          ref: body.ref,
          argument: body.argument,
          ...(body.context !== undefined && { context: body.context }),
        });
      case 'POST read':
        need(typeof body?.uri === 'string', '"uri" (a string) is required');
        return { contents: (await client().readResource(body.uri)).map(contentsJson) };
      case 'POST subscribe':
        need(typeof body?.uri === 'string', '"uri" (a string) is required');
        await serverOf(client()).subscribeResource(body.uri);
        return {};
      case 'POST unsubscribe':
        need(typeof body?.uri === 'string', '"uri" (a string) is required');
        await serverOf(client()).unsubscribeResource(body.uri);
        return {};
      case 'GET ui': {
        const uri = url.searchParams.get('uri') ?? '';
        need(uri.startsWith('ui://'), '"uri" must be a ui:// resource');
        const [first] = await client().readResource(uri);
        if (first === undefined) throw new ApiError(502, 'empty_resource', `${uri} has no contents`);
        const meta = /** @type {{ _meta?: any, mimeType?: string }} */ (first);
        const html = first.isText() ? first.text : Buffer.from(first.bytes()).toString('utf8');
        return {
          html,
          mimeType: meta.mimeType ?? 'text/html',
          ...(meta._meta?.ui?.csp !== undefined && { csp: meta._meta.ui.csp }),
          ...(meta._meta !== undefined && { meta: meta._meta }),
        };
      }
    }
    throw new ApiError(404, 'not_found', `no API route ${method} ${url.pathname}`);
  }

  /** @param {any} body */
  function addServers(body) {
    need(isObject(body), 'a JSON object is required');
    switch (body.kind) {
      case 'stdio':
        need(typeof body.command === 'string' && body.command.length > 0, '"command" (a string) is required');
        need(body.args === undefined || isStringArray(body.args), '"args" must be an array of strings');
        need(body.env === undefined || isObject(body.env), '"env" must be an object');
        return [
          registry.add({
            kind: 'stdio',
            command: body.command,
            ...(body.args !== undefined && { args: body.args }),
            ...(body.env !== undefined && { env: stringValues(body.env) }),
            ...(typeof body.name === 'string' && { name: body.name }),
          }),
        ];
      case 'url': {
        need(typeof body.url === 'string' && /^https?:\/\//i.test(body.url), '"url" (http or https) is required');
        const transport = body.transport ?? 'auto';
        need(
          ['auto', 'streamable-http', 'http', 'sse'].includes(transport),
          '"transport" is auto, streamable-http, http or sse',
        );
        need(body.headers === undefined || isObject(body.headers), '"headers" must be an object');
        return [
          registry.add({
            kind: 'url',
            url: body.url,
            transport,
            ...(body.headers !== undefined && { headers: stringValues(body.headers) }),
            ...(typeof body.name === 'string' && { name: body.name }),
          }),
        ];
      }
      case 'config':
        need(body.document !== undefined, '"document" is required');
        return registry.addConfig(body.document);
      default:
        throw new ApiError(400, 'bad_request', '"kind" is stdio, url or config');
    }
  }

  /** @param {string} dialogId @param {any} body */
  function answerDialog(dialogId, body) {
    const dialog = dialogs.get(dialogId);
    if (dialog === undefined) throw new ApiError(404, 'unknown_dialog', `no open dialog "${dialogId}"`);
    const answer = body?.answer;
    need(isObject(answer), '"answer" (an object) is required');
    if (dialog.kind === 'elicitation') {
      need(['accept', 'decline', 'cancel'].includes(answer.action), 'answer.action is accept, decline or cancel');
      need(answer.content === undefined || isObject(answer.content), 'answer.content must be an object');
      dialog.settle({ action: answer.action, ...(answer.content !== undefined && { content: answer.content }) });
    } else {
      need(answer.action === 'accept' || answer.action === 'reject', 'answer.action is accept or reject');
      need(answer.action === 'reject' || typeof answer.text === 'string', 'answer.text (a string) is required');
      dialog.settle(answer.action === 'accept' ? { action: 'accept', text: answer.text } : { action: 'reject' });
    }
    return {};
  }

  return {
    server,
    /** Listens on 127.0.0.1; resolves with the port. @param {number} port */
    listen(port) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          const address = server.address();
          resolve(typeof address === 'object' && address !== null ? address.port : port);
        });
      });
    },
  };
}

/** @type {Map<string, import('@mcpc/schema-validator').Validator>} */
const validators = new Map();

/** `POST /api/validate`: a value against a JSON Schema, through @mcpc/schema-validator. @param {any} body */
function validate(body) {
  need(isObject(body) && 'schema' in body, '"schema" and "value" are required');
  const key = JSON.stringify(body.schema);
  let validator = validators.get(key);
  if (validator === undefined) {
    try {
      validator = compile(body.schema);
    } catch (error) {
      throw new ApiError(400, errorJson(error).code, errorJson(error).message);
    }
    if (validators.size >= 200) validators.delete(/** @type {string} */ (validators.keys().next().value));
    validators.set(key, validator);
  }
  const { valid, errors } = validator.validate(body.value);
  return {
    valid,
    issues: errors.map((e) => ({
      instancePath: e.instancePath,
      message: e.message,
      keyword: e.keyword,
      schemaPath: e.schemaPath,
    })),
  };
}

/** A resource's contents as JSON: text as is, bytes base64. @param {import('@mcpc/client').ResourceContents} c */
function contentsJson(c) {
  const raw = /** @type {{ mimeType?: string, _meta?: unknown }} */ (c);
  return {
    uri: c.uri,
    ...(raw.mimeType !== undefined && { mimeType: raw.mimeType }),
    ...(c.isText() ? { text: c.text } : { blob: Buffer.from(c.bytes()).toString('base64') }),
    ...(raw._meta !== undefined && { _meta: raw._meta }),
  };
}

/** @param {import('@mcpc/client').Client} client */
function serverOf(client) {
  const server = client.servers[0];
  if (server === undefined) throw new ApiError(409, 'not_open', 'the server is not open');
  return server;
}

/** @param {unknown} v @returns {v is Record<string, any>} */
function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** @param {unknown} v @returns {v is string[]} */
function isStringArray(v) {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** @param {Record<string, unknown>} record */
function stringValues(record) {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));
}
