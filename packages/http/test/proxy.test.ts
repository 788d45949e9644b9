// Proxies on Node's client: HTTP_PROXY, NO_PROXY, proxy credentials, and CONNECT tunnels for HTTPS.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHttpClient,
  HttpClientUnavailableError,
  ProxyConfigError,
  ProxyConnectError,
  readText,
  type HttpClient,
  type HttpResponse,
} from '@mcpc/http';
import { getJson, startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { proxiesFrom } from '../src/proxy.js';

// Proxy variables on Node's own client (no undici): plain http: targets through the proxy in absolute
// form, https: ones through a CONNECT tunnel and TLS inside it, NO_PROXY as undici reads it.

interface ProxyStats {
  forwarded: number;
  connects: number;
  refused: number;
  targets: string[];
  requests: { kind: string; method: string; target: string; url?: string; host?: string }[];
}

let proxy: Fixture;
let authProxy: Fixture;
let tlsServer: Fixture;
let target: Server;
let targetUrl: URL;
const seen: { url: string; host: string | undefined; proxyAuthorization: string | undefined }[] = [];
const clients: HttpClient[] = [];

beforeAll(async () => {
  [proxy, authProxy, tlsServer] = await Promise.all([
    startFixture('proxy.mjs'),
    startFixture('proxy.mjs', ['--auth', 'alice:s3cr:t']),
    startFixture('tls-server.mjs'),
  ]);
  // The target: records what reached it, and how it was addressed.
  target = createServer((req, res) => {
    seen.push({
      url: req.url ?? '',
      host: req.headers.host,
      proxyAuthorization: req.headers['proxy-authorization'] as string | undefined,
    });
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`target: ${req.method} ${req.url}`);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = new URL(`http://127.0.0.1:${(target.address() as AddressInfo).port}/mcp?x=1`);
});

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  target.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
  await Promise.all([proxy.stop(), authProxy.stop(), tlsServer.stop()]);
});

const nodeClient = (env: Record<string, string>): HttpClient => {
  const client = createHttpClient({ choice: 'node', env });
  clients.push(client);
  return client;
};

const get = (client: HttpClient, url: URL): Promise<HttpResponse> =>
  client.request({
    url,
    method: 'GET',
    headers: {},
    body: undefined,
    signal: AbortSignal.timeout(10_000),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });

const stats = (fixture: Fixture): Promise<ProxyStats> => getJson<ProxyStats>(new URL('/_proxy_stats', fixture.url));

describe("proxies on Node's client, without undici", () => {
  it('sends an http: request to HTTP_PROXY in absolute form, with the Host of the target', async () => {
    const before = await stats(proxy);
    const response = await get(nodeClient({ HTTP_PROXY: proxy.url }), targetUrl);
    expect(response.statusCode).toBe(200);
    expect(await readText(response.body, undefined, 1024)).toBe('target: GET /mcp?x=1');
    const after = await stats(proxy);
    expect(after.forwarded).toBe(before.forwarded + 1);
    expect(after.requests.at(-1)).toMatchObject({ kind: 'forward', url: targetUrl.href, host: targetUrl.host });
    // The target saw an ordinary request, no proxy credentials.
    expect(seen.at(-1)).toMatchObject({ url: '/mcp?x=1', host: targetUrl.host, proxyAuthorization: undefined });
  });

  it('carries every request of one client through the proxy', async () => {
    const client = nodeClient({ http_proxy: proxy.url });
    const before = await stats(proxy);
    for (let i = 0; i < 3; i++) {
      const response = await get(client, targetUrl);
      await readText(response.body, undefined, 1024);
    }
    expect((await stats(proxy)).forwarded).toBe(before.forwarded + 3);
  });

  it('goes direct for a host NO_PROXY names, through the proxy for one it does not', async () => {
    const before = await stats(proxy);
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${targetUrl.port}`, 'localhost, 127.0.0.1', '*']) {
      const response = await get(nodeClient({ HTTP_PROXY: proxy.url, NO_PROXY: noProxy }), targetUrl);
      expect(await readText(response.body, undefined, 1024)).toBe('target: GET /mcp?x=1');
    }
    expect((await stats(proxy)).forwarded).toBe(before.forwarded);
    // Another port, another host: proxied.
    for (const noProxy of ['127.0.0.1:1', 'example.com']) {
      const response = await get(nodeClient({ HTTP_PROXY: proxy.url, no_proxy: noProxy }), targetUrl);
      expect(response.statusCode).toBe(200);
      await readText(response.body, undefined, 1024);
    }
    expect((await stats(proxy)).forwarded).toBe(before.forwarded + 2);
  });

  it('sends the proxy URL’s credentials as Proxy-Authorization: Basic, and only to the proxy', async () => {
    const authUrl = new URL(authProxy.url);
    authUrl.username = 'alice';
    authUrl.password = encodeURIComponent('s3cr:t');
    const response = await get(nodeClient({ HTTP_PROXY: authUrl.href }), targetUrl);
    expect(response.statusCode).toBe(200);
    expect(await readText(response.body, undefined, 1024)).toBe('target: GET /mcp?x=1');
    expect(seen.at(-1)?.proxyAuthorization).toBeUndefined();
    // Without them, the proxy's 407 is the answer.
    const refused = await get(nodeClient({ HTTP_PROXY: authProxy.url }), targetUrl);
    expect(refused.statusCode).toBe(407);
    await readText(refused.body, undefined, 1024);
  });

  it('tunnels an https: request with CONNECT and does the TLS handshake inside the tunnel', async () => {
    const port = new URL(tlsServer.url).port;
    const before = await stats(proxy);
    // `localhost`, so that the ClientHello names it (SNI is never sent for an IP address).
    const failed = await get(nodeClient({ HTTPS_PROXY: proxy.url }), new URL(`https://localhost:${port}/mcp`)).catch(
      (e: unknown) => e,
    );
    // The test certificate is self-signed, and Node's client trusts only the usual CAs: the handshake
    // reached the server and was refused by the client, which is all a tunnel has to prove.
    expect((failed as { code?: string }).code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
    const after = await stats(proxy);
    expect(after.connects).toBe(before.connects + 1);
    expect(after.targets.at(-1)).toBe(`localhost:${port}`);
    expect(after.forwarded).toBe(before.forwarded);
    const tls = await tlsStats();
    expect(tls.servernames).toContain('localhost');
  });

  it('uses HTTP_PROXY for https: targets when HTTPS_PROXY is not set, and NO_PROXY for them too', async () => {
    const port = new URL(tlsServer.url).port;
    const before = await stats(proxy);
    await get(nodeClient({ HTTP_PROXY: proxy.url }), new URL(`https://localhost:${port}/`)).catch(() => undefined);
    expect((await stats(proxy)).connects).toBe(before.connects + 1);
    await get(
      nodeClient({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost' }),
      new URL(`https://localhost:${port}/`),
    ).catch(() => undefined);
    expect((await stats(proxy)).connects).toBe(before.connects + 1);
  });

  it('a refused CONNECT is a ProxyConnectError with the status (an exchange wraps it in NetworkError)', async () => {
    const port = new URL(tlsServer.url).port;
    const failed = await get(nodeClient({ HTTPS_PROXY: authProxy.url }), new URL(`https://localhost:${port}/`)).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(ProxyConnectError);
    expect((failed as ProxyConnectError).code).toBe('MCPC_PROXY_CONNECT_FAILED');
    expect((failed as ProxyConnectError).status).toBe(407);
    expect((failed as Error).message).toContain('credentials');
  });

  it('a proxy variable that is not an http: URL is a ProxyConfigError, and nothing is sent', async () => {
    for (const value of ['not a url', 'socks5://127.0.0.1:1080']) {
      const failed = await get(nodeClient({ HTTP_PROXY: value }), targetUrl).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(ProxyConfigError);
      expect((failed as ProxyConfigError).code).toBe('MCPC_PROXY_CONFIG_INVALID');
      // The value is not repeated: it may hold credentials.
      expect((failed as Error).message).not.toContain(value);
    }
  });
});

describe('NO_PROXY, as undici reads it', () => {
  const proxied = (noProxy: string, url: string, env: Record<string, string> = {}): boolean =>
    proxiesFrom({
      HTTP_PROXY: 'http://127.0.0.1:3128',
      HTTPS_PROXY: 'http://127.0.0.1:3129',
      NO_PROXY: noProxy,
      ...env,
    }).forUrl(new URL(url)) !== undefined;

  it('matches hosts and their subdomains, with or without a leading dot or *.', () => {
    for (const entry of ['example.com', '.example.com', '*.example.com']) {
      expect(proxied(entry, 'http://example.com/')).toBe(false);
      expect(proxied(entry, 'http://api.example.com/')).toBe(false);
      expect(proxied(entry, 'http://badexample.com/')).toBe(true);
    }
  });

  it('compares ports when an entry has one (the scheme default otherwise)', () => {
    expect(proxied('example.com:8080', 'http://example.com:8080/')).toBe(false);
    expect(proxied('example.com:8080', 'http://example.com/')).toBe(true);
    expect(proxied('example.com:443', 'https://example.com/')).toBe(false);
    expect(proxied('example.com:80', 'http://example.com/')).toBe(false);
  });

  it('splits on commas and spaces, ignores case, and * alone exempts every host', () => {
    expect(proxied('a.test, EXAMPLE.com  b.test', 'http://Example.COM/')).toBe(false);
    expect(proxied('*', 'http://anything.test/')).toBe(false);
    expect(proxied('', 'http://anything.test/')).toBe(true);
    expect(proxied('[::1]', 'http://[::1]:8080/')).toBe(false);
  });

  it('lower-case variables win, and https: falls back to the HTTP proxy', () => {
    const proxies = proxiesFrom({ http_proxy: 'http://127.0.0.1:1', HTTP_PROXY: 'http://127.0.0.1:2' });
    expect(proxies.forUrl(new URL('http://x.test/'))?.port).toBe(1);
    expect(proxies.forUrl(new URL('https://x.test/'))?.port).toBe(1);
    expect(
      proxiesFrom({ no_proxy: 'x.test', NO_PROXY: '', HTTP_PROXY: 'http://127.0.0.1:2' }).forUrl(
        new URL('http://x.test/'),
      ),
    ).toBeUndefined();
    expect(proxiesFrom({ HTTPS_PROXY: 'http://127.0.0.1:3' }).forUrl(new URL('http://x.test/'))).toBeUndefined();
  });

  it('an unusable variable fails only the URLs it would carry, with a typed error', () => {
    const proxies = proxiesFrom({ HTTP_PROXY: 'http://127.0.0.1:1', HTTPS_PROXY: 'https://127.0.0.1:2' });
    // Before: the https: proxy (Node's client cannot speak TLS to a proxy) failed http: URLs too.
    expect(proxies.forUrl(new URL('http://x.test/'))?.port).toBe(1);
    expect(() => proxies.forUrl(new URL('https://x.test/'))).toThrow(HttpClientUnavailableError);
    expect(() => proxiesFrom({ http_proxy: 'http://a%zz:b@127.0.0.1:1' }).forUrl(new URL('http://x.test/'))).toThrow(
      ProxyConfigError,
    );
  });

  it('names the variable a proxy came from, and the NO_PROXY entry that exempts a URL (for explanations)', () => {
    const proxies = proxiesFrom({
      https_proxy: 'http://127.0.0.1:1',
      HTTP_PROXY: 'http://127.0.0.1:2',
      NO_PROXY: 'a.test, .b.test:8443',
    });
    expect(proxies.forUrl(new URL('https://x.test/'))?.variable).toBe('https_proxy');
    expect(proxies.forUrl(new URL('http://x.test/'))?.variable).toBe('HTTP_PROXY');
    expect(proxies.exemption(new URL('http://api.a.test/'))).toBe('a.test');
    expect(proxies.exemption(new URL('https://c.b.test:8443/'))).toBe('.b.test:8443');
    expect(proxies.exemption(new URL('https://c.b.test/'))).toBeUndefined();
    expect(proxies.exemption(new URL('http://x.test/'))).toBeUndefined();
    expect(proxiesFrom({ NO_PROXY: '*' }).exemption(new URL('http://x.test/'))).toBeUndefined(); // no proxy to be exempt from
    expect(proxiesFrom({ HTTP_PROXY: 'http://127.0.0.1:2', NO_PROXY: '*' }).exemption(new URL('http://x.test/'))).toBe(
      '*',
    );
  });
});

function tlsStats(): Promise<{ hellos: number; servernames: string[] }> {
  // The test trusts the fixture's certificate; the client under test does not.
  const ca = readFileSync(new URL('../../../tooling/fixtures/http/tls/cert.pem', import.meta.url));
  return new Promise((resolve, reject) => {
    const { port } = new URL(tlsServer.url);
    const req = httpsRequest(
      { hostname: '127.0.0.1', port, path: '/_tls_stats', servername: 'localhost', ca, agent: false, timeout: 5_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(JSON.parse(body) as { hellos: number; servernames: string[] }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
