// The page's static files from dist/web: index.html, assets/*, top-level styles and icons; nothing else.
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { sendError } from './http.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export async function serveStatic(res: ServerResponse, webRoot: string, path: string, head: boolean): Promise<void> {
  const rel = path === '/' || path === '/index.html' ? 'index.html' : decodeURIComponent(path.slice(1));
  const allowed = rel === 'index.html' || rel.startsWith('assets/') || /^[\w.-]+\.(css|svg|ico|png)$/.test(rel);
  const file = normalize(join(webRoot, rel));
  if (!allowed || !file.startsWith(webRoot + sep) || rel.includes('\0'))
    return sendError(res, 404, 'not_found', 'no such file');
  let body: Buffer;
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
