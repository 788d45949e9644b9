// Starting the playground: the per-launch token, the event hub, the registry, the demo servers, the HTTP server.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserOAuth, OAuthProvider } from '@mcpc/oauth';
import { createApp } from './app.js';
import { DEMO_SCRIPT, demoEndpoints, startDemoHttp } from './demo.js';
import { Dialogs } from './dialogs.js';
import { EventHub } from './events.js';
import { createOAuthDebugger, type OAuthDebugger } from './oauth.js';
import { canOpen, openUrl } from './open.js';
import type { Options } from './options.js';
import { APP_DIR } from './paths.js';
import { startSandbox } from './sandbox.js';
import { Registry } from './servers.js';
import { enableTraceContext } from './timeline.js';

export interface Playground {
  port: number;
  token: string;
  /** `http://127.0.0.1:PORT/#token=TOKEN` */
  url: string;
  baseUrl: string;
  /** Closes everything it started. */
  stop: () => Promise<void>;
  /** Settles once the demo's HTTP leg is registered (or could not start). */
  demoReady: Promise<void>;
}

/** Starts the playground; resolves once it listens. */
export async function startPlayground(options: Options): Promise<Playground> {
  const token = process.env.PLAYGROUND_TOKEN || randomBytes(24).toString('base64url');
  const pkg = JSON.parse(readFileSync(join(APP_DIR, 'package.json'), 'utf8')) as { version?: string };
  const warn = (m: string) => process.stderr.write(`${m}\n`);
  enableTraceContext();
  const hub = new EventHub();
  const dialogs = new Dialogs((event) => hub.emit(event));
  const registry = new Registry({
    emit: (event) => hub.emit(event),
    dialogs,
    verbose: options.verbose,
    clientInfo: { name: 'mcpc-playground', version: pkg.version ?? '0.0.0' },
  });
  let oauth: OAuthDebugger | undefined = undefined;
  let sandboxOrigin = '';
  const app = createApp({
    token,
    webRoot: join(APP_DIR, 'dist', 'web'),
    hub,
    dialogs,
    registry,
    sandboxOrigin: () => sandboxOrigin,
    oauth: () => {
      if (oauth === undefined) throw Object.assign(new Error('not listening yet'), { status: 503, code: 'starting' });
      return oauth;
    },
  });
  const port = await app.listen(options.port);
  const baseUrl = `http://127.0.0.1:${port}`;
  // MCP Apps' Views are served from a second origin, under their policy as a header (server/sandbox.ts).
  const sandbox = await startSandbox({ hostOrigin: baseUrl });
  sandboxOrigin = sandbox.origin;
  oauth = createOAuthDebugger({ emit: (event) => hub.emit(event), baseUrl });

  let stopDemo: (() => void) | undefined;
  let demoReady = Promise.resolve();
  let stopped = false;
  if (options.demo) {
    if (!existsSync(DEMO_SCRIPT)) {
      warn(`playground: no demo server at ${DEMO_SCRIPT}; starting without it`);
    } else {
      registry.add({ kind: 'stdio', name: 'demo', command: process.execPath, args: [DEMO_SCRIPT, 'stdio'] });
      // In the background: the page is usable while the HTTP leg (and its authorization server) starts.
      demoReady = startDemoHttp({ warn, verbose: options.verbose }).then((demo) => {
        if (demo === undefined) return;
        if (stopped) return demo.stop();
        stopDemo = demo.stop;
        const { mcp, protected: protectedUrl } = demoEndpoints(demo.url);
        registry.add({ kind: 'url', name: 'demo-http', url: mcp, transport: 'streamable-http' });
        if (!demo.oauth) return;
        // Registered, not connected: a reconnect signs in (the authorization URL opens, and is announced to the page).
        const entry = registry.add({
          kind: 'url',
          name: 'demo-protected',
          url: protectedUrl,
          transport: 'streamable-http',
          dormant: true,
          auth: new OAuthProvider({
            serverUrl: protectedUrl,
            redirectUri: 'http://127.0.0.1/callback',
            interaction: new BrowserOAuth({
              openUrl: (url) => {
                hub.emit({
                  type: 'notification',
                  serverId: entry.id,
                  method: 'playground/authorize',
                  params: { url: url.href },
                });
                process.stderr.write(`playground: sign in to demo-protected at ${url.href}\n`);
                if (options.open && canOpen()) openUrl(url.href);
              },
            }),
          }),
        });
      });
    }
  }

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    hub.close();
    await registry.closeAll();
    stopDemo?.();
    await sandbox.stop();
    await new Promise<void>((r) => {
      app.server.close(() => r());
      app.server.closeAllConnections();
    });
  };
  return { port, token, url: `${baseUrl}/#token=${encodeURIComponent(token)}`, baseUrl, stop, demoReady };
}
