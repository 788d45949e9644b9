#!/usr/bin/env node
// The playground's entry: options, the per-launch token, the demo server, the HTTP server on 127.0.0.1, opening the page.
// @ts-check
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BrowserOAuth, OAuthProvider } from '@mcpc/oauth';
import { createApp } from './app.mjs';
import { DEMO_SCRIPT, demoEndpoints, startDemoHttp } from './demo.mjs';
import { Dialogs } from './dialogs.mjs';
import { EventHub } from './events.mjs';
import { createOAuthDebugger } from './oauth-debugger.mjs';
import { canOpen, openUrl } from './open.mjs';
import { startSandbox } from './sandbox.mjs';
import { Registry } from './servers.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const USAGE = `usage: node apps/playground/server/main.mjs [--port N] [--no-open] [--no-demo] [--host 127.0.0.1] [--verbose]
  --port N     port to listen on (default 0: a free one)
  --no-open    print the URL, do not open a browser
  --no-demo    do not start the embedded demo server
  --host H     127.0.0.1 only (the playground never listens elsewhere)
  --verbose    the servers' stderr and the client's warnings on this terminal
env PLAYGROUND_TOKEN fixes the token (tests); otherwise a new one each launch.`;

/** @param {string[]} argv */
export function parseOptions(argv) {
  const { values } = parseArgs({
    // `pnpm playground -- --port N` hands the script a leading `--`: pnpm's separator, not ours.
    args: argv[0] === '--' ? argv.slice(1) : argv,
    options: {
      port: { type: 'string', default: '0' },
      'no-open': { type: 'boolean', default: false },
      'no-demo': { type: 'boolean', default: false },
      host: { type: 'string', default: '127.0.0.1' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port is 0..65535, not "${values.port}"`);
  if (values.host !== '127.0.0.1') throw new Error('--host is 127.0.0.1 only: the playground listens on loopback');
  return { port, open: !values['no-open'], demo: !values['no-demo'], verbose: values.verbose, help: values.help };
}

/**
 * Starts the playground; resolves once it listens. `stop()` closes everything it started.
 * @param {ReturnType<typeof parseOptions>} options
 */
export async function startPlayground(options) {
  const token = process.env.PLAYGROUND_TOKEN || randomBytes(24).toString('base64url');
  const version = JSON.parse(readFileSync(join(HERE, '..', 'package.json'), 'utf8')).version ?? '0.0.0';
  const warn = (/** @type {string} */ m) => process.stderr.write(`${m}\n`);
  const hub = new EventHub();
  const emit = (/** @type {import('./events.mjs').PlaygroundEvent} */ event) => hub.emit(event);
  const dialogs = new Dialogs(emit);
  const registry = new Registry({
    emit,
    dialogs,
    verbose: options.verbose,
    clientInfo: { name: 'mcpc-playground', version },
  });
  /** @type {import('./oauth-debugger.mjs').OAuthDebugger | undefined} */
  let oauth;
  let sandboxOrigin = '';
  const app = createApp({
    sandboxOrigin: () => sandboxOrigin,
    token,
    webRoot: resolve(HERE, '..', 'dist', 'web'),
    hub,
    dialogs,
    registry,
    oauth: () => {
      if (oauth === undefined) throw Object.assign(new Error('not listening yet'), { status: 503, code: 'starting' });
      return oauth;
    },
  });
  const port = await app.listen(options.port);
  const baseUrl = `http://127.0.0.1:${port}`;
  // MCP Apps' Views are served from a second origin, under their policy as a header (server/sandbox.mjs).
  const sandbox = await startSandbox({ hostOrigin: baseUrl });
  sandboxOrigin = sandbox.origin;
  oauth = createOAuthDebugger({ emit: (event) => hub.emit(event), baseUrl });

  /** @type {(() => void) | undefined} */
  let stopDemo;
  /** Settles once the demo's HTTP leg is registered (or could not start). */
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

  const pageUrl = `${baseUrl}/#token=${encodeURIComponent(token)}`;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    hub.close();
    await registry.closeAll();
    stopDemo?.();
    await sandbox.stop();
    await new Promise((r) => {
      app.server.close(() => r(undefined));
      app.server.closeAllConnections();
    });
  };
  return { port, token, url: pageUrl, baseUrl, stop, demoReady };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  /** @type {ReturnType<typeof parseOptions>} */
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const playground = await startPlayground(options);
  process.stdout.write(`playground: ${playground.url}\n`);
  if (options.open && canOpen()) openUrl(playground.url);
  let exiting = false;
  const exit = () => {
    if (exiting) process.exit(130);
    exiting = true;
    const force = setTimeout(() => process.exit(0), 5_000);
    force.unref();
    playground.stop().finally(() => process.exit(0));
  };
  process.on('SIGINT', exit);
  process.on('SIGTERM', exit);
}
