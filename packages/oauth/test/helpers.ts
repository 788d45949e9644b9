// Shared helpers of the OAuth tests: fixture servers started and stopped, a headless browser, an engine.
import { JsonRpcEngine, type Logger } from '@mcpc/jsonrpc';
import { StreamableHttpTransport } from '@mcpc/transport-streamable-http';
import { getJson } from '../../../tooling/fixtures/http/spawn.mjs';
import { startOAuthFixture, type OAuthFixture as Fixture } from '../../../tooling/fixtures/oauth/spawn.mjs';

export type { Fixture };
import type { OAuthProvider } from '../src/index.js';

export const started: Fixture[] = [];
export const engines: JsonRpcEngine[] = [];

/** Stop everything a test started (afterEach/afterAll). */
export async function cleanup(): Promise<void> {
  for (const e of engines.splice(0)) await e.close().catch(() => {});
}
export async function stopAll(): Promise<void> {
  await cleanup();
  await Promise.all(started.splice(0).map((f) => f.stop()));
}

/** oidc-provider (tooling/fixtures/oauth/authorization-server.mjs). */
export async function startAuthorizationServer(config: object = {}): Promise<Fixture> {
  // oidc-provider refuses Node 20 ("Unsupported runtime"): it runs on an LTS of 22 or later.
  const f = await startOAuthFixture('authorization-server.mjs', ['--config', JSON.stringify(config)], {
    node: 'lts',
    timeoutMs: 30_000,
  });
  started.push(f);
  return f;
}

/** The protected MCP server (tooling/fixtures/oauth/resource-server.mjs). */
export async function startResourceServer(config: object): Promise<Fixture> {
  const f = await startOAuthFixture('resource-server.mjs', ['--config', JSON.stringify(config)]);
  started.push(f);
  return f;
}

/** Any fixture of tooling/fixtures/oauth on this process's Node, stopped by stopAll. */
export async function startOAuthFixtureTracked(script: string, args: string[] = []): Promise<Fixture> {
  const f = await startOAuthFixture(script, args);
  started.push(f);
  return f;
}

/** The scriptable (and, on request, hostile) authorization server. */
export async function startScriptedAs(config: object = {}): Promise<Fixture> {
  const f = await startOAuthFixture('scripted-as.mjs', ['--config', JSON.stringify(config)]);
  started.push(f);
  return f;
}

export const stats = <T = Record<string, unknown>>(f: Fixture): Promise<T> => getJson<T>(new URL('/_stats', f.url));

export async function control(f: Fixture, body: object): Promise<void> {
  const r = await fetch(new URL('/_control', f.url), {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  if (!r.ok) throw new Error(`control: HTTP ${r.status}`);
  await r.arrayBuffer();
}

/**
 * What a browser does with an authorization URL, with fetch: follow redirects (bounded), keeping
 * cookies per host, until a page that does not redirect — the loopback callback's page — or, with
 * `stopAt`, until a URL that starts with it (a redirect URI nothing listens on), which is not fetched.
 * `visited` records every URL, the authorization URL first.
 */
export function browser(visited: URL[] = [], stopAt?: string): (url: URL) => Promise<void> {
  return async (start: URL) => {
    const jar = new Map<string, Map<string, string>>();
    let url = start;
    for (let hop = 0; hop < 25; hop++) {
      visited.push(url);
      if (stopAt !== undefined && url.href.startsWith(stopAt)) return;
      const cookies = jar.get(url.host);
      const headers: Record<string, string> = {};
      if (cookies !== undefined && cookies.size > 0)
        headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(url, { redirect: 'manual', headers });
      for (const line of res.headers.getSetCookie()) {
        const [pair = '', ...attrs] = line.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        const expired = attrs.some(
          (a) =>
            /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1] ?? '') < Date.now()),
        );
        const hostJar = jar.get(url.host) ?? new Map<string, string>();
        jar.set(url.host, hostJar);
        if (expired || value === '') hostJar.delete(name);
        else hostJar.set(name, value);
      }
      await res.arrayBuffer();
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location !== null) {
        url = new URL(location, url);
        continue;
      }
      return;
    }
    throw new Error('too many redirects');
  };
}

export interface Recorded extends Logger {
  readonly lines: string[];
}

export function recordingLogger(): Recorded {
  const lines: string[] = [];
  const push = (level: string) => (m: string) => void lines.push(`${level}: ${m}`);
  return { lines, debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/** An MCP session over Streamable HTTP with `auth: provider`, initialized. */
export async function connect(url: string, provider: OAuthProvider, logger?: Logger): Promise<JsonRpcEngine> {
  const transport = new StreamableHttpTransport({
    url,
    auth: provider,
    listen: false,
    retries: 0,
    ...(logger === undefined ? {} : { logger }),
  });
  const engine = new JsonRpcEngine(transport, { requestTimeout: 20_000, ...(logger === undefined ? {} : { logger }) });
  engines.push(engine);
  await engine.start();
  await engine.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'mcpc-oauth-test', version: '0.0.0' },
  });
  await engine.notify('notifications/initialized');
  return engine;
}

export const callTool = async (engine: JsonRpcEngine, name: string, args: object = {}): Promise<string> => {
  const r = (await engine.request('tools/call', { name, arguments: args })) as { content: { text: string }[] };
  return r.content[0]?.text ?? '';
};
