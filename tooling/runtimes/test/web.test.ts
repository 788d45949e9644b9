// The libraries where only web APIs exist, and the browser and Worker examples: web-smoke.mjs bundled as a browser's and a Worker's bundler would
// (the `browser` / `workerd` conditions), checked to hold no Node module and no undici, then run in Debian's
// Chromium (a page on 127.0.0.1) and in workerd (miniflare), against server-everything over Streamable HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { Miniflare } from 'miniflare';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../fixtures/http/spawn.mjs';
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

describe('the examples', () => {
  it('apps/examples/browser/app.mjs: a page that connects, lists, calls, and answers a question in a form', async () => {
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
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      await tab.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`);
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
