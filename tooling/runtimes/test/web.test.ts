// The libraries where only web APIs exist, and the browser and Worker examples, in Chromium and in workerd.
//
// web-smoke.mjs is bundled as a browser's and a Worker's bundler would (the `browser` / `workerd` conditions), checked
// to hold no Node module and no undici, then run in Debian's Chromium (a page on 127.0.0.1) and in workerd (miniflare),
// against server-everything over Streamable HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { Miniflare } from 'miniflare';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startFixture, type Fixture } from '../../fixtures/http/spawn.mjs';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth/spawn.mjs';
import { LEGACY, MODERN, SCHEMA } from './expected.js';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DEMO = fileURLToPath(new URL('../../../apps/playground/demo-server/server.mjs', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../../apps/examples/', import.meta.url));

/** Debian's Chromium, headless; fails (does not skip) without it: the test command installs it. */
async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM} (the test command installs it)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/** What a bundle must not hold: Node's modules, undici, the stdio transport, the Node-only modules of ours. */
const NODE_ONLY =
  /(^|\/)node:|\/undici\/|transport-stdio|node-client|undici-client|clients-node|decompress-node|platform-node|pattern-worker/;

interface WebSmoke {
  http: Record<string, unknown>;
  stdio: { error?: { name?: string; code?: string; message?: string } };
  schema: boolean[][];
  modern: Record<string, unknown>;
  legacy: Record<string, unknown>;
  clientCredentials: unknown;
  tracing: unknown;
  openTimers: string[];
}

/** A module bundled for a platform (resolved from `dir`), with the inputs the bundler took. */
async function bundle(
  conditions: string[],
  entry: string,
  dir = HERE,
): Promise<{ code: string; inputs: string[]; externals: string[] }> {
  const result = await build({
    stdin: { contents: entry, resolveDir: dir, sourcefile: 'entry.mjs', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // The packages' own tsconfig points the @mcpc packages at their sources: a user bundles the built ones.
    tsconfigRaw: '{}',
  });
  const meta: Metafile = result.metafile;
  const externals = Object.values(meta.inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path));
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(meta.inputs), externals };
}

let fixture: Fixture;
let demo: Fixture;
let url: string;

beforeAll(async () => {
  [fixture, demo] = await Promise.all([
    startFixture('everything.mjs', ['streamableHttp']),
    startFixture(DEMO, ['http', '--oauth'], { timeoutMs: 60_000 }),
  ]);
  url = fixture.url;
}, 60_000);
afterAll(() => Promise.all([fixture?.stop(), demo?.stop()]));

/** What every runtime without processes must give (Node gives the same http result: see runtimes.test.ts). */
function expectWebSmoke(smoke: WebSmoke): void {
  expect(smoke.http).toMatchObject({
    protocolVersion: '2025-11-25',
    transport: 'streamable-http',
    echo: 'Echo: hello from a runtime',
    sum: 'The sum of 2 and 40 is 42.',
  });
  expect(smoke.http.tools).toBeGreaterThan(5);
  expect(smoke.stdio.error).toMatchObject({ name: 'TransportUnavailableError', code: 'MCPC_TRANSPORT_UNAVAILABLE' });
  expect(smoke.stdio.error?.message).toContain('cannot start processes');
  expect(smoke.schema).toEqual(SCHEMA);
  expect(smoke.modern).toEqual(MODERN);
  expect(smoke.legacy).toEqual(LEGACY);
  expect(smoke.clientCredentials).toEqual({ sum: 42 });
  expect(smoke.tracing).toEqual({
    given: [
      ['tools/list', 'CLIENT', 'tcp'],
      ['tools/call echo', 'CLIENT', 'tcp'],
    ],
    absent: [],
  });
  // close() leaves no timer scheduled (the census counts every timer the libraries set).
  expect(smoke.openTimers).toEqual([]);
}

describe('in a browser (Chromium)', () => {
  let page: { code: string; inputs: string[]; externals: string[] };
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    page = await bundle(['browser'], "import { webSmoke } from './web-smoke.mjs'; globalThis.webSmoke = webSmoke;");
    server = createServer((req, res) => {
      if (req.url === '/smoke.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return void res.end(page.code);
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>mcpc</title><script type="module" src="/smoke.js"></script>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(() => server?.close());

  it("the browser bundle holds no Node module, no undici, no stdio transport (the packages' browser condition)", () => {
    expect(page.inputs.filter((i) => NODE_ONLY.test(i))).toEqual([]);
    expect(page.externals).toEqual([]);
  });

  it('connects over fetch, lists, calls, validates; a stdio server is a typed error', async () => {
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(String(e)));
      // Every request the page makes to a server, until it has finished or failed (a stream the client
      // cancels fails): none may be left open once the clients have closed.
      const open = new Set<Request>();
      tab.on('request', (r) => {
        if (!r.url().startsWith(origin)) open.add(r);
      });
      tab.on('requestfinished', (r) => open.delete(r));
      tab.on('requestfailed', (r) => open.delete(r));
      await tab.goto(`${origin}/`);
      await tab.waitForFunction(() => typeof (globalThis as { webSmoke?: unknown }).webSmoke === 'function');
      // A page on one origin, the servers on others: their CORS headers let it read Mcp-Session-Id and the
      // OAuth challenge, and reach the authorization server's metadata and token endpoint.
      const smoke = (await tab.evaluate(
        ([u, d, p]) =>
          (globalThis as unknown as { webSmoke: (...urls: string[]) => Promise<unknown> }).webSmoke(u, d, p),
        [url, demo.url, demo.url.replace(/\/mcp$/, '/mcp-protected')] as const,
      )) as WebSmoke;
      expectWebSmoke(smoke);
      expect(errors).toEqual([]);
      await expect.poll(() => [...open].map((r) => `${r.method()} ${r.url()}`), { timeout: 5_000 }).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});

describe('in a Worker (workerd, through miniflare)', () => {
  it('the Worker bundle holds no Node module, and the smoke run gives what the browser gives', async () => {
    const worker = await bundle(
      ['workerd', 'worker', 'browser'],
      `import { webSmoke } from './web-smoke.mjs';
       export default { async fetch(request) {
         const query = new URL(request.url).searchParams;
         return Response.json(await webSmoke(query.get('url'), query.get('demo'), query.get('protected')));
       } };`,
    );
    expect(worker.inputs.filter((i) => NODE_ONLY.test(i))).toEqual([]);
    expect(worker.externals).toEqual([]);
    const mf = new Miniflare({ modules: true, script: worker.code, compatibilityDate: '2026-07-01' });
    try {
      const response = await mf.dispatchFetch(
        `http://worker.invalid/?url=${encodeURIComponent(url)}&demo=${encodeURIComponent(demo.url)}` +
          `&protected=${encodeURIComponent(demo.url.replace(/\/mcp$/, '/mcp-protected'))}`,
      );
      expect(response.status).toBe(200);
      expectWebSmoke((await response.json()) as WebSmoke);
    } finally {
      await mf.dispose();
    }
  }, 120_000);
});

describe('a Worker takes a token by exchange (Enterprise-Managed Authorization)', () => {
  const SSO = 'https://sso.example';
  const stack: OAuthFixture[] = [];
  afterAll(() => Promise.all(stack.map((f) => f.stop())));

  it('exchanges an ID token at the IdP for an ID-JAG, presents it as a JWT bearer grant, and calls the tool', async () => {
    const sso = await generateKeyPair('ES256', { extractable: true });
    const idp = await startOAuthFixture('scripted-as.mjs', [
      '--config',
      JSON.stringify({
        tokenExchange: {
          subjectIssuers: { [SSO]: { ...(await exportJWK(sso.publicKey)), alg: 'ES256' } },
          clientIdAtAudience: 'ema-client',
        },
      }),
    ]);
    stack.push(idp);
    const as = await startOAuthFixture('scripted-as.mjs', [
      '--config',
      JSON.stringify({
        clients: { 'ema-client': { secret: 'ema-secret' } },
        jwtBearer: { issuers: { [idp.url]: 'jwks' } },
      }),
    ]);
    stack.push(as);
    const rs = await startOAuthFixture('resource-server.mjs', [
      '--config',
      JSON.stringify({ authorizationServers: [as.url] }),
    ]);
    stack.push(rs);
    const idToken = await new SignJWT({ email: 'ada@example.com' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(SSO)
      .setSubject('ada')
      .setAudience('idp-client')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(sso.privateKey);

    const worker = await bundle(
      ['workerd', 'worker', 'browser'],
      `import { tokenExchange } from './web-smoke.mjs';
       export default { async fetch(request) {
         return Response.json(await tokenExchange(JSON.parse(new URL(request.url).searchParams.get('stack'))));
       } };`,
    );
    expect(worker.inputs.filter((i) => NODE_ONLY.test(i))).toEqual([]);
    const mf = new Miniflare({ modules: true, script: worker.code, compatibilityDate: '2026-07-01' });
    try {
      const query = JSON.stringify({ serverUrl: rs.url, issuer: as.url, idp: idp.url, idToken });
      const response = await mf.dispatchFetch(`http://worker.invalid/?stack=${encodeURIComponent(query)}`);
      expect(await response.json()).toBe('Echo: from a Worker');
      // The IdP saw one token exchange, the authorization server one JWT bearer grant carrying its ID-JAG.
      const grants = async (f: OAuthFixture) =>
        (
          (await (await fetch(new URL('/_stats', f.url))).json()) as { tokens: { params: Record<string, string> }[] }
        ).tokens.map((t) => t.params.grant_type);
      expect(await grants(idp)).toEqual(['urn:ietf:params:oauth:grant-type:token-exchange']);
      expect(await grants(as)).toEqual(['urn:ietf:params:oauth:grant-type:jwt-bearer']);
    } finally {
      await mf.dispose();
    }
  }, 90_000);
});

describe('the examples', () => {
  /** The browser example, bundled and served from a loopback origin (every path is its page: the redirect URI). */
  async function serveExample(): Promise<{ origin: string; close: () => void }> {
    const app = await bundle(['browser'], "import './app.mjs';", join(EXAMPLES, 'browser'));
    expect(app.inputs.filter((i) => NODE_ONLY.test(i))).toEqual([]);
    const html = readFileSync(join(EXAMPLES, 'browser', 'index.html'));
    const pages = createServer((req, res) => {
      if (req.url === '/dist/app.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        return void res.end(app.code);
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html);
    });
    await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
    return { origin: `http://127.0.0.1:${(pages.address() as AddressInfo).port}`, close: () => pages.close() };
  }

  it('apps/examples/browser/app.mjs: a page that connects, lists, calls, and answers a question in a form', async () => {
    const pages = await serveExample();
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      await tab.goto(`${pages.origin}/`);
      await tab.fill('#url', demo.url);
      await tab.click('#connect button');
      await tab.waitForSelector('button[data-tool="ask-name"]', { timeout: 15_000 });
      expect(await tab.textContent('#status')).toMatch(/^Connected to .+ \(MCP 2026-07-28\)\.$/);
      await tab.click('button[data-tool="ask-name"]');
      await tab.waitForSelector('#question form input[name="name"]', { timeout: 15_000 });
      expect(await tab.textContent('#question form strong')).toBe('Who are you?');
      await tab.fill('#question form input[name="name"]', 'Ada');
      await tab.click('#question form button');
      await tab.waitForFunction(() => document.querySelector('#result')?.textContent?.startsWith('Hello') === true);
      expect(await tab.textContent('#result')).toMatch(/^Hello, Ada/);
    } finally {
      await browser.close();
      pages.close();
    }
  }, 60_000);

  describe('apps/examples/browser/sign-in.mjs: OAuth from the page (DCR, PKCE, DPoP) against the demo', () => {
    let pages: { origin: string; close: () => void };
    let browser: Browser;
    const protectedUrl = () => demo.url.replace(/\/mcp$/, '/mcp-protected');

    beforeAll(async () => {
      pages = await serveExample();
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      pages?.close();
    });

    /** What the example keeps in IndexedDB, summarised in the page (values never leave it whole). */
    const stored = (tab: Page) =>
      tab.evaluate(
        () =>
          new Promise<{ key: string; refreshToken: boolean; tokenType?: string; privateExtractable?: boolean }[]>(
            (resolve, reject) => {
              const open = indexedDB.open('mcpc-browser-example');
              open.onerror = () => reject(open.error);
              open.onsuccess = () => {
                const store = open.result.transaction('records').objectStore('records');
                const keys = store.getAllKeys();
                const values = store.getAll();
                values.onsuccess = () =>
                  resolve(
                    values.result.map((v: Record<string, unknown>, i: number) => ({
                      key: String(keys.result[i]),
                      refreshToken: 'refreshToken' in v,
                      tokenType: v.tokenType as string | undefined,
                      privateExtractable: (v.privateKey as CryptoKey | undefined)?.extractable,
                    })),
                  );
              };
            },
          ),
      );

    const statusOf = async (tab: Page, id: string, prefix: string) => {
      await tab.waitForFunction(
        ([i, p]) => {
          const text = document.getElementById(i!)?.textContent ?? '';
          return text.startsWith(p!) || text.startsWith('Sign-in failed') || text.startsWith('Could not');
        },
        [id, prefix],
        { timeout: 30_000 },
      );
      return tab.textContent(`#${id}`);
    };

    it('by redirect: back on the page, signed in with a DPoP token, the code off the address bar; a reload stays signed in', async () => {
      const context = await browser.newContext();
      try {
        const tab = await context.newPage();
        await tab.goto(`${pages.origin}/`);
        await tab.fill('#protected-url', protectedUrl());
        await tab.click('#sign-in-redirect');
        expect(await statusOf(tab, 'auth-status', 'Signed in')).toMatch(
          /^Signed in \(DPoP, scope [^)]*\bmcp\b[^)]*, refreshable\)/,
        );
        expect(new URL(tab.url()).search).toBe('');
        const records = await stored(tab);
        // The request's record is gone once redeemed; the tokens are kept without their refresh token; the
        // DPoP key pair is kept with its private key not extractable.
        expect(records.filter((r) => r.key.startsWith('["pending"'))).toEqual([]);
        expect(records.filter((r) => r.key.startsWith('["tokens"'))).toEqual([
          expect.objectContaining({ tokenType: 'DPoP', refreshToken: false }),
        ]);
        expect(records.filter((r) => r.key.startsWith('["dpop-key"'))).toEqual([
          expect.objectContaining({ privateExtractable: false }),
        ]);

        await tab.reload();
        await tab.click('#connect-protected');
        expect(await statusOf(tab, 'protected-status', 'Connected')).toMatch(/^Connected with a token: \d+ tools\.$/);
        // Still one key pair: the reload found it, the stored token is bound to it.
        expect((await stored(tab)).filter((r) => r.key.startsWith('["dpop-key"'))).toHaveLength(1);
      } finally {
        await context.close();
      }
    }, 90_000);

    it('with a Client ID Metadata Document: the authorization server fetches it, nothing is registered', async () => {
      const metadata = new URL('/.well-known/oauth-protected-resource/mcp-protected', protectedUrl());
      const issuer = ((await (await fetch(metadata)).json()) as { authorization_servers: string[] })
        .authorization_servers[0]!;
      const asStats = async () =>
        (await (await fetch(new URL('/_stats', issuer))).json()) as {
          registrations: number;
          cimdFetches: number;
          authorizations: { clientId: string }[];
        };
      const before = await asStats();
      const clientId = `https://pages.mcpc.test/${new URL(pages.origin).port}/client.json`;
      const context = await browser.newContext();
      try {
        const tab = await context.newPage();
        await tab.goto(`${pages.origin}/`);
        await tab.fill('#protected-url', protectedUrl());
        await tab.fill('#client-id-url', clientId);
        await tab.click('#sign-in-redirect');
        expect(await statusOf(tab, 'auth-status', 'Signed in')).toMatch(/^Signed in \(DPoP, scope [^)]*\bmcp\b/);
        await tab.click('#connect-protected');
        expect(await statusOf(tab, 'protected-status', 'Connected')).toMatch(/^Connected with a token: \d+ tools\.$/);
      } finally {
        await context.close();
      }
      const after = await asStats();
      expect(after.registrations).toBe(before.registrations);
      expect(after.cimdFetches).toBeGreaterThan(before.cimdFetches);
      expect(after.authorizations.at(-1)?.clientId).toBe(clientId);
    }, 90_000);

    it('in a popup: the popup hands the callback back and closes, the page is signed in and connects', async () => {
      const context = await browser.newContext();
      try {
        const tab = await context.newPage();
        await tab.goto(`${pages.origin}/`);
        await tab.fill('#protected-url', protectedUrl());
        const [popup] = await Promise.all([context.waitForEvent('page'), tab.click('#sign-in-popup')]);
        expect(await statusOf(tab, 'auth-status', 'Signed in')).toMatch(/^Signed in \(DPoP, scope [^)]*\bmcp\b/);
        await expect.poll(() => popup.isClosed(), { timeout: 10_000 }).toBe(true);
        await tab.click('#connect-protected');
        expect(await statusOf(tab, 'protected-status', 'Connected')).toMatch(/^Connected with a token: \d+ tools\.$/);
      } finally {
        await context.close();
      }
    }, 90_000);

    it('a popup the user closes ends the sign-in with AuthorizationAbandonedError', async () => {
      const context = await browser.newContext();
      try {
        const metadata = new URL('/.well-known/oauth-protected-resource/mcp-protected', protectedUrl());
        const issuer = ((await (await fetch(metadata)).json()) as { authorization_servers: string[] })
          .authorization_servers[0]!;
        // The authorization endpoint never answers: the user is still looking at it when they close the popup.
        let reached!: () => void;
        const atAuthorizationServer = new Promise<void>((r) => (reached = r));
        await context.route(
          (u) => u.href.startsWith(`${issuer}/auth`),
          () => reached(),
        );
        const tab = await context.newPage();
        await tab.goto(`${pages.origin}/`);
        await tab.fill('#protected-url', protectedUrl());
        const [popup] = await Promise.all([context.waitForEvent('page'), tab.click('#sign-in-popup')]);
        await atAuthorizationServer;
        await popup.close();
        expect(await statusOf(tab, 'auth-status', 'Signed in')).toBe(
          'Sign-in failed: AuthorizationAbandonedError MCPC_OAUTH_AUTHORIZATION_ABANDONED: the authorization popup was closed before it redirected back',
        );
      } finally {
        await context.close();
      }
    }, 60_000);
  });

  it("apps/examples/worker/worker.mjs: a Worker calls the remote server's tool per request", async () => {
    const worker = await bundle(
      ['workerd', 'worker', 'browser'],
      "export { default } from './worker.mjs';",
      join(EXAMPLES, 'worker'),
    );
    expect(worker.inputs.filter((i) => NODE_ONLY.test(i))).toEqual([]);
    const mf = new Miniflare({
      modules: true,
      script: worker.code,
      compatibilityDate: '2026-07-01',
      bindings: { MCP_URL: demo.url },
    });
    try {
      for (const [a, b] of [
        [2, 40],
        [1, 1],
      ]) {
        const response = await mf.dispatchFetch(`http://worker.invalid/?a=${a}&b=${b}`);
        expect(await response.json()).toEqual({ result: { sum: a + b }, isError: false });
      }
    } finally {
      await mf.dispose();
    }
  }, 60_000);
});
