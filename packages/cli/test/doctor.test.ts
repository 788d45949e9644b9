// `mcpc doctor` end to end: the built binary against real servers, a closed port and a missing command.
//
// The servers: server-everything over Streamable HTTP (direct and through a proxy), the OAuth resource server, and TLS
// in a CONNECT tunnel.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { startOAuthFixture, type OAuthFixture } from '../../../tooling/fixtures/oauth/spawn.mjs';

const BIN = process.env.MCPC_TEST_BIN ?? join(import.meta.dirname, '..', 'dist', 'bin.js');

let home: string;
let everything: Fixture;
let as: OAuthFixture;
let rs: OAuthFixture;
let proxy: Fixture;
let tlsServer: Fixture;
const CERT = join(import.meta.dirname, '..', '..', '..', 'tooling', 'fixtures', 'http', 'tls', 'cert.pem');

interface Doctor {
  target: string;
  steps: { name: string; ok: boolean; detail: string }[];
  problems: { problem: string; fix: string }[];
}

const withoutProxies = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(https?|no|all)_proxy$/i.test(name)),
);

function mcpc(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      // No proxy variable of this shell's: a test that wants one sets it.
      env: { ...withoutProxies, HOME: home, XDG_CONFIG_HOME: home, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const step = (d: Doctor, name: string) => d.steps.find((s) => s.name === name);

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'mcpc-doctor-'));
  everything = await startFixture('everything.mjs', ['streamableHttp']);
  proxy = await startFixture('proxy.mjs');
  tlsServer = await startFixture('tls-server.mjs');
  as = await startOAuthFixture('authorization-server.mjs', ['--config', '{}'], { node: 'lts', timeoutMs: 60_000 });
  rs = await startOAuthFixture('resource-server.mjs', ['--config', JSON.stringify({ authorizationServers: [as.url] })]);
}, 90_000);

afterAll(async () => {
  await everything?.stop();
  await proxy?.stop();
  await tlsServer?.stop();
  await rs?.stop();
  await as?.stop();
  await rm(home, { recursive: true, force: true });
});

describe('mcpc doctor', () => {
  it('server-everything over Streamable HTTP: every step ok, legacy era, capabilities, exit 0', async () => {
    const human = await mcpc(['doctor', everything.url]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^ok {3}target: URL /m);
    expect(human.stdout).toMatch(/^ok {3}tcp: connected to 127\.0\.0\.1:\d+/m);
    expect(human.stdout).toMatch(/^ok {3}era: legacy \(initialize\), protocol \d{4}-\d{2}-\d{2}/m);
    expect(human.stdout).not.toMatch(/^fail/m);
    expect(human.stdout).not.toContain('✓'); // not a TTY

    const r = await mcpc(['doctor', everything.url, '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as Doctor;
    expect(d.target).toBe(everything.url);
    expect(d.steps.every((s) => s.ok)).toBe(true);
    expect(step(d, 'proxy')?.detail).toContain('direct');
    expect(step(d, 'http')?.detail).toMatch(/^POST .* → 200/);
    expect(step(d, 'detection')?.detail).toContain('streamable-http');
    expect(step(d, 'capabilities')?.detail).toContain('tools');
    expect(step(d, 'tools')?.detail).toMatch(/^\d+ tools$/);
    expect(d.problems).toEqual([]);
  }, 60_000);

  it('behind a proxy: DNS and TCP reach the proxy, the probe and the connection go through it, exit 0', async () => {
    const proxyPort = new URL(proxy.url).port;
    const r = await mcpc(['doctor', everything.url, '--json'], { http_proxy: proxy.url });
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as Doctor;
    expect(step(d, 'proxy')?.detail).toBe(`http_proxy applies to this URL: through 127.0.0.1:${proxyPort}`);
    expect(step(d, 'dns')?.detail).toMatch(/^proxy 127\.0\.0\.1 → /);
    // Before: the target's own port, probed around the proxy.
    expect(step(d, 'tcp')?.detail).toMatch(new RegExp(`^connected to the proxy at 127\\.0\\.0\\.1:${proxyPort} `));
    expect(step(d, 'http')?.detail).toMatch(
      new RegExp(`→ 200 .*\\(through the proxy 127\\.0\\.0\\.1:${proxyPort}\\)$`),
    );
    expect(d.steps.every((s) => s.ok)).toBe(true);
    // NO_PROXY sends it direct, and says which entry did.
    const direct = JSON.parse(
      (await mcpc(['doctor', everything.url, '--json'], { HTTP_PROXY: proxy.url, NO_PROXY: 'example.test, 127.0.0.1' }))
        .stdout,
    ) as Doctor;
    expect(step(direct, 'proxy')?.detail).toBe('NO_PROXY matches 127.0.0.1: direct');
    expect(step(direct, 'tcp')?.detail).toContain(`:${new URL(everything.url).port} `);
    // A proxy variable the transport could not use fails the step, before anything is sent.
    const bad = await mcpc(['doctor', everything.url, '--json'], { HTTP_PROXY: 'socks5://127.0.0.1:1080' });
    expect(bad.code).toBe(3);
    const b = JSON.parse(bad.stdout) as Doctor;
    expect(step(b, 'proxy')?.ok).toBe(false);
    expect(step(b, 'proxy')?.detail).toContain('MCPC_PROXY_CONFIG_INVALID');
  }, 60_000);

  it('an https: proxy, which the transport uses through undici (installed here): the route is the proxy’s', async () => {
    const url = `https://localhost:${new URL(tlsServer.url).port}/mcp`;
    const r = await mcpc(['doctor', url, '--json'], { HTTPS_PROXY: `https://127.0.0.1:${await closedPort()}` });
    const d = JSON.parse(r.stdout) as Doctor;
    // Before: the proxy step failed ("needs undici installed") although the transport would use it.
    expect(step(d, 'proxy')?.ok).toBe(true);
    expect(step(d, 'proxy')?.detail).toMatch(
      /^HTTPS_PROXY names an https: proxy, which the transport uses through undici/,
    );
    expect(step(d, 'tcp')).toBeUndefined();
    expect(step(d, 'http')?.ok).toBe(false); // nothing listens there
    expect(r.code).toBe(3);
  }, 60_000);

  it('https behind a proxy: TLS inside a CONNECT tunnel, the certificate judged as the transport would', async () => {
    const url = `https://localhost:${new URL(tlsServer.url).port}/mcp`;
    const untrusted = JSON.parse((await mcpc(['doctor', url, '--json'], { HTTPS_PROXY: proxy.url })).stdout) as Doctor;
    expect(step(untrusted, 'tls')?.ok).toBe(false);
    expect(step(untrusted, 'tls')?.detail).toMatch(/self[- ]signed/i);
    expect(untrusted.problems.map((p) => p.fix).join(' ')).toContain('NODE_EXTRA_CA_CERTS');
    const stats = (await (await fetch(new URL('/_proxy_stats', proxy.url))).json()) as {
      requests: { kind: string; target: string }[];
    };
    expect(stats.requests).toContainEqual(
      expect.objectContaining({ kind: 'connect', target: `localhost:${new URL(url).port}` }),
    );

    const trusted = await mcpc(['doctor', url, '--json'], { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: CERT });
    const t = JSON.parse(trusted.stdout) as Doctor;
    expect(step(t, 'tls')?.ok).toBe(true);
    expect(step(t, 'tls')?.detail).toMatch(/^TLSv1\.[23] through the proxy, certificate for localhost/);
    expect(step(t, 'http')?.detail).toMatch(/→ 200 \(text\/plain\) \(through the proxy /);
  }, 60_000);

  it('behind a proxy that accepts and never answers: the proxy named within its step bound, exit 3', async () => {
    const silent = createServer((socket) => {
      socket.on('error', () => {});
      socket.resume();
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const at = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      const started = Date.now();
      const r = await mcpc(['doctor', 'http://127.0.0.1:9/mcp'], { HTTP_PROXY: at, HTTPS_PROXY: at });
      // It used to say nothing for 60 s and more (the helper kills at 60 s): now one step's bound and a verdict.
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(/^fail http: /m);
      expect(r.stdout).toContain(
        `fix: the proxy ${at.slice('http://'.length)} accepted the connection but did not answer`,
      );
    } finally {
      silent.close();
    }
  }, 60_000);

  it('a closed port: the TCP step fails, exit 3, with what to do', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const r = await mcpc(['doctor', url]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^fail tcp: .*ECONNREFUSED/m);
    expect(r.stdout).toMatch(/^fix: nothing accepts connections on 127\.0\.0\.1:\d+ — start the server/m);
    const d = JSON.parse((await mcpc(['doctor', url, '--json'])).stdout) as Doctor;
    expect(step(d, 'tcp')?.ok).toBe(false);
    expect(d.problems[0]?.fix).toContain('start the server');
  }, 60_000);

  it('the OAuth resource server without a login: exit 4, the metadata found and the login fix', async () => {
    const r = await mcpc(['doctor', rs.url, '--json']);
    expect(r.code).toBe(4);
    const d = JSON.parse(r.stdout) as Doctor;
    expect(step(d, 'http')?.detail).toContain('→ 401');
    expect(step(d, 'auth challenge')?.detail).toContain('resource_metadata=');
    const prm = step(d, 'protected resource metadata');
    expect(prm?.ok).toBe(true);
    expect(prm?.detail).toContain(`${new URL(rs.url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(prm?.detail).toContain(as.url);
    const asm = step(d, 'authorization server metadata');
    expect(asm?.ok).toBe(true);
    expect(asm?.detail).toContain(`issuer ${as.url}`);
    expect(step(d, 'registration')?.detail).toContain('dynamic client registration');
    expect(step(d, 'login')?.ok).toBe(false);
    expect(d.problems).toContainEqual({
      problem: 'the server requires authorization',
      fix: `run \`mcpc login ${rs.url}\``,
    });
  }, 60_000);

  it('a stdio command that does not exist: the PATH fact, exit 3', async () => {
    const r = await mcpc(['doctor', '--stdio', 'no-such-cmd-xyz']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^fail command: `no-such-cmd-xyz` is not on PATH/m);
    expect(r.stdout).toContain('install it, or give its full path');
    const d = JSON.parse((await mcpc(['doctor', '--stdio', 'no-such-cmd-xyz', '--json'])).stdout) as Doctor;
    expect(step(d, 'command')?.ok).toBe(false);
  }, 30_000);

  it('a stdio server: the command on PATH, the era and the capabilities', async () => {
    const server = join(
      import.meta.dirname,
      '..',
      '..',
      '..',
      'tooling/fixtures/node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    );
    // The server after `--`, as any command takes it.
    const r = await mcpc(['doctor', '--json', '--', process.execPath, server, 'stdio']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout) as Doctor;
    expect(step(d, 'command')?.detail).toBe(process.execPath);
    expect(step(d, 'era')?.detail).toMatch(/^legacy/);
  }, 60_000);
});
