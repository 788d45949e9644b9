// The MCP Apps sandbox proxy: a second origin (its own port on 127.0.0.1) serving the page that holds a View.
//
// It serves the View's Content-Security-Policy as an HTTP header, which the View's srcdoc document inherits and
// no markup can move.
import { createServer } from 'node:http';

/**
 * A policy as the page builds it (`web/apps-host/csp.ts`): directives of known names whose sources are host
 * sources, `data:` and the two keywords it uses. Anything else is refused, so the URL cannot smuggle in a
 * looser policy (a policy only ever restricts, but the proxy page serves what it is given to no one else).
 */
const DIRECTIVE =
  /^(?:default-src|script-src|style-src|img-src|font-src|media-src|connect-src|frame-src|object-src|base-uri|form-action)(?: (?:'none'|'unsafe-inline'|data:|(?:https?|wss?):\/\/[A-Za-z0-9.*:-]+(?:\/[A-Za-z0-9._~!$&()*+=:@%/-]*)?))+$/;
const MAX_POLICY = 16_384;

/** The policy in `value` when it is one the page could have built, else undefined. */
export function checkPolicy(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_POLICY || !value.startsWith("default-src 'none'"))
    return undefined;
  return value.split('; ').every((d) => DIRECTIVE.test(d)) ? value : undefined;
}

/**
 * The proxy page: it tells the host it is ready, takes the View's HTML in `ui/notifications/sandbox-resource-ready`,
 * puts it in an inner `allow-scripts` frame (an opaque origin), and relays messages between host and View — the
 * host's only when they come from the page that embeds it at `hostOrigin`, the View's only from that inner frame.
 * A second load of the inner frame (the View navigating away) is reported to the host, which closes the View.
 */
function proxyPage(hostOrigin: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP App sandbox</title>
<style>html,body{margin:0;padding:0;background:transparent;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
(() => {
  const HOST = ${JSON.stringify(hostOrigin)};
  let inner;
  let loads = 0;
  const toHost = (message) => window.parent.postMessage(message, HOST);
  window.addEventListener('message', (event) => {
    if (event.source === window.parent && event.origin === HOST) {
      const message = event.data;
      if (!inner && message && message.method === 'ui/notifications/sandbox-resource-ready') {
        const params = message.params || {};
        if (typeof params.html !== 'string') return;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', 'allow-scripts');
        inner.setAttribute('data-testid', 'app-view');
        inner.setAttribute('title', 'MCP App');
        inner.addEventListener('load', () => {
          if (++loads > 1) toHost({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-view-navigated', params: {} });
        });
        inner.srcdoc = params.html;
        document.body.appendChild(inner);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(message, '*');
      return;
    }
    if (inner && event.source === inner.contentWindow) toHost(event.data);
  });
  toHost({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
})();
</script></body></html>`;
}

/** The sandbox origin, listening. */
export interface Sandbox {
  origin: string;
  stop: () => Promise<void>;
}

/**
 * Starts the sandbox origin on 127.0.0.1 (a free port): `GET /proxy?csp=<policy>` serves the proxy page under that
 * policy, framable only by `hostOrigin`. Resolves with its origin and a stop function.
 */
export function startSandbox({ hostOrigin }: { hostOrigin: string }): Promise<Sandbox> {
  const page = Buffer.from(proxyPage(hostOrigin));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    // Only loopback names of this port: a DNS-rebinding page cannot reach it under another name.
    const host = req.headers.host ?? '';
    if (!/^(?:127\.0\.0\.1|localhost):\d+$/.test(host)) {
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end('wrong host');
      return;
    }
    const policy = checkPolicy(url.searchParams.get('csp'));
    if (req.method !== 'GET' || url.pathname !== '/proxy' || policy === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': page.length,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      // The View's policy, inherited by its srcdoc frame; only the playground's page may embed the proxy.
      'Content-Security-Policy': `${policy}; frame-ancestors ${hostOrigin}`,
    });
    res.end(page);
  });
  return new Promise<Sandbox>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
