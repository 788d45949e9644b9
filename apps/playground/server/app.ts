// The playground's HTTP server: the security checks (Host, Origin, token), then the route table, else static files.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApiError, errorJson, readJson, sendError, sendJson, statusOf } from './http.js';
import { Router } from './router.js';
import { ROUTES, type Route, type RouteContext } from './routes.js';
import { serveStatic } from './static.js';

export interface AppOptions extends RouteContext {
  token: string;
  /** dist/web */
  webRoot: string;
}

export interface App {
  server: Server;
  /** Listens on 127.0.0.1; resolves with the port. */
  listen(port: number): Promise<number>;
}

const router = new Router<Route>(ROUTES);

export function createApp(options: AppOptions): App {
  const { token, webRoot } = options;
  const tokenBytes = Buffer.from(token);
  /** Set once listening: the Host and Origin values accepted. */
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const tokenMatches = (given: unknown) => {
    if (typeof given !== 'string') return false;
    const g = Buffer.from(given);
    return g.length === tokenBytes.length && timingSafeEqual(g, tokenBytes);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // ApiError (and a helper's error carrying an HTTP status) say their status; a server's failure is a 502.
      sendJson(res, statusOf(error), { error: errorJson(error) });
    });
  });
  server.on('listening', () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: only our own names, with our port.
    const host = String(req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host))
      return sendError(res, 421, 'bad_host', 'this server answers only 127.0.0.1 and localhost');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(String(origin).toLowerCase()))
      return sendError(res, 403, 'bad_origin', 'requests from another origin are refused');
    const url = new URL(req.url ?? '/', `http://${host}`);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const isApi = path === '/api' || path.startsWith('/api/');
    const found = router.match(method, path);
    if (isApi) {
      const given =
        found?.route.kind === 'raw' && found.route.token === 'query'
          ? url.searchParams.get('token')
          : req.headers['x-playground-token'];
      if (!tokenMatches(given)) return sendError(res, 401, 'unauthorized', 'a valid X-Playground-Token is required');
    }
    if (found !== undefined) {
      const { route, params } = found;
      if (route.kind === 'raw') return route.handle(req, res, options);
      const body = method === 'POST' || method === 'PUT' ? await readJson(req) : undefined;
      return sendJson(res, 200, await route.handle({ params, body, query: url.searchParams }, options));
    }
    if (isApi) throw new ApiError(404, 'not_found', `no API route ${method} ${path}`);
    if (method !== 'GET' && method !== 'HEAD') return sendError(res, 405, 'method_not_allowed', 'GET only');
    return serveStatic(res, webRoot, path, method === 'HEAD');
  }

  return {
    server,
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
