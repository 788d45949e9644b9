// `mcpc login` / `logout` end to end: the built binary against oidc-provider and a protected MCP server.
//
// Both come from tooling/fixtures/oauth.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { startOAuthFixture, type OAuthFixture } from '../../../tooling/fixtures/oauth/spawn.mjs';

const BIN = process.env.MCPC_TEST_BIN ?? join(import.meta.dirname, '..', 'dist', 'bin.js');

let as: OAuthFixture;
let rs: OAuthFixture;
let home: string;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `mcpc`; `onStderr` sees stderr as it grows and may answer on stdin. */
function mcpc(
  args: string[],
  options: { env?: Record<string, string>; onStderr?: (text: string, stdin: NodeJS.WritableStream) => void } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      options.onStderr?.(stderr, child.stdin);
    });
    if (options.onStderr === undefined) child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * What a person does in a browser with the authorization URL, headless: follow redirects (cookies per
 * host) through oidc-provider's interaction, which logs `user-1` in and consents, and stop at the
 * redirect back to the loopback callback — the URL a person would paste.
 */
async function approve(start: string): Promise<string> {
  const redirectUri = new URL(start).searchParams.get('redirect_uri')!;
  const jar = new Map<string, Map<string, string>>();
  let url = new URL(start);
  for (let hop = 0; hop < 25; hop++) {
    const cookies = jar.get(url.host);
    const headers: Record<string, string> =
      cookies && cookies.size > 0 ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
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
    if (location === null) throw new Error(`no redirect at ${url.href} (HTTP ${res.status})`);
    url = new URL(location, url);
    if (url.href.startsWith(redirectUri)) return url.href;
  }
  throw new Error('too many redirects');
}

/** `login --no-browser`: reads the authorization URL from stderr, approves it, pastes the redirect on stdin. */
function loginPasting(args: string[]): Promise<Ran & { authorizationUrl: string | undefined }> {
  let authorizationUrl: string | undefined;
  return mcpc(['login', ...args, '--no-browser'], {
    onStderr: (text, stdin) => {
      const found = /^(https?:\/\/\S+[?&]state=\S+)$/m.exec(text)?.[1];
      if (found === undefined || authorizationUrl !== undefined) return;
      authorizationUrl = found;
      void approve(found).then((callback) => stdin.write(`${callback}\n`));
    },
  }).then((r) => ({ ...r, authorizationUrl }));
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'mcpc-login-'));
  const m2m = { grant_types: ['client_credentials'], response_types: [], redirect_uris: [] };
  as = await startOAuthFixture(
    'authorization-server.mjs',
    [
      '--config',
      JSON.stringify({
        clients: [
          {
            client_id: 'm2m-basic',
            client_secret: 'basic-secret',
            token_endpoint_auth_method: 'client_secret_basic',
            ...m2m,
          },
        ],
      }),
    ],
    { node: 'lts', timeoutMs: 60_000 },
  );
  rs = await startOAuthFixture('resource-server.mjs', ['--config', JSON.stringify({ authorizationServers: [as.url] })]);
}, 90_000);

afterAll(async () => {
  await rs?.stop();
  await as?.stop();
  await rm(home, { recursive: true, force: true });
});

describe('mcpc login (authorization code + PKCE)', () => {
  it('--no-browser: prints the URL, takes the pasted redirect, stores tokens 0600; later calls need no login', async () => {
    const before = await mcpc([rs.url, 'tools']);
    expect(before.code).toBe(4);
    expect(before.stderr).toContain(`mcpc login ${rs.url}`);

    const login = await loginPasting([rs.url, '--scope', 'mcp']);
    expect(login.stderr).not.toMatch(/error:/);
    expect(login.code).toBe(0);
    expect(login.authorizationUrl).toMatch(/code_challenge_method=S256/);
    expect(new URL(login.authorizationUrl!).searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
    );
    expect(login.stdout).toBe(`logged in to ${rs.url} (profile default)\n`);

    const file = join(home, 'mcpc', 'auth', 'default', 'oauth.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { entries: Record<string, { accessToken?: string }> };
    const tokens = Object.entries(stored.entries).find(([k]) => k.startsWith('["tokens"'))?.[1];
    expect(tokens?.accessToken).toBeTruthy();
    // Never printed.
    expect(login.stdout + login.stderr).not.toContain(tokens!.accessToken!);

    const tools = await mcpc([rs.url, 'tools', '--json']);
    expect(tools.stderr).toBe('');
    expect(tools.code).toBe(0);
    expect(JSON.stringify(JSON.parse(tools.stdout))).toContain('echo');
    const call = await mcpc([rs.url, 'call', 'echo', 'message=hi']);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('Echo: hi');
  }, 120_000);

  it('logout forgets the tokens: the next call exits 4 with the login hint', async () => {
    const out = await mcpc(['logout', rs.url]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(`logged out of ${rs.url} (profile default)\n`);
    const after = await mcpc([rs.url, 'tools']);
    expect(after.code).toBe(4);
    expect(after.stderr).toContain(`mcpc login ${rs.url}`);
    // The CLI's words, not the library's ("pass `auth`").
    expect(after.stderr).toMatch(/^error: the server \S+ needs authorization \(HTTP 401\)/m);
    expect(after.stderr).not.toMatch(/`auth`/);
    const stored = JSON.parse(await readFile(join(home, 'mcpc', 'auth', 'default', 'oauth.json'), 'utf8')) as {
      entries: Record<string, unknown>;
    };
    const keys = Object.keys(stored.entries);
    expect(keys.some((k) => k.startsWith('["tokens"'))).toBe(false);
    expect(keys.some((k) => k.startsWith('["client"'))).toBe(true); // the registration is kept
  }, 60_000);

  it('--json with a profile, the loopback callback receiving the redirect; logout --all removes the profile', async () => {
    let seen = false;
    const login = await mcpc(['login', rs.url, '--no-browser', '--scope', 'mcp', '--profile', 'work.1', '--json'], {
      onStderr: (text) => {
        const found = /^(https?:\/\/\S+[?&]state=\S+)$/m.exec(text)?.[1];
        if (found === undefined || seen) return;
        seen = true;
        // The browser follows the redirect itself, to the loopback listener.
        void approve(found).then((callback) => fetch(callback).then((r) => r.arrayBuffer()));
      },
    });
    expect(login.code).toBe(0);
    const value = JSON.parse(login.stdout) as Record<string, unknown>;
    expect(value).toMatchObject({ url: rs.url, profile: 'work.1', issuer: as.url, tools: 3 });
    expect(typeof value.expiresAt).toBe('string');
    expect((await mcpc([rs.url, 'tools', '--profile', 'work.1'])).code).toBe(0);
    // Another profile has no login.
    expect((await mcpc([rs.url, 'tools', '--profile', 'other'])).code).toBe(4);

    const all = await mcpc(['logout', '--all', '--profile', 'work.1']);
    expect(all.code).toBe(0);
    await expect(stat(join(home, 'mcpc', 'auth', 'work.1'))).rejects.toThrow();
    expect((await mcpc([rs.url, 'tools', '--profile', 'work.1'])).code).toBe(4);
  }, 120_000);

  it('refuses a bad profile name', async () => {
    const r = await mcpc(['login', rs.url, '--profile', '../x']);
    expect(r.code).toBe(2);
  });
});

describe('the scope a login asks for', () => {
  it("is the 401 challenge's scope, not every scope the resource metadata lists", async () => {
    const listed = await startOAuthFixture('resource-server.mjs', [
      '--config',
      JSON.stringify({
        authorizationServers: [as.url],
        challengeScope: 'mcp',
        prmScopes: ['mcp', 'files:read', 'files:write', 'admin'],
      }),
    ]);
    try {
      const login = await loginPasting([listed.url, '--profile', 'scoped']);
      expect(login.code, login.stderr).toBe(0);
      const asked = new URL(login.authorizationUrl!).searchParams.get('scope')!.split(' ').sort();
      // It asked for `mcp files:read files:write admin offline_access` before (mcporter asks for `mcp`).
      expect(asked.filter((s) => s !== 'offline_access')).toEqual(['mcp']);
      // No notice about the library's registration option, which the person at the terminal cannot act on.
      expect(login.stderr).not.toMatch(/deprecated/);
    } finally {
      await listed.stop();
    }
  }, 90_000);
});

describe('client credentials', () => {
  it('login --client-id --client-secret: no browser; later calls carry the machine token', async () => {
    const login = await mcpc([
      'login',
      rs.url,
      '--client-id',
      'm2m-basic',
      '--client-secret',
      'basic-secret',
      '--profile',
      'm2m',
    ]);
    expect(login.stderr).not.toMatch(/error:/);
    expect(login.code).toBe(0);
    expect(login.stdout).toBe(`logged in to ${rs.url} (profile m2m)\n`);
    expect(login.stdout + login.stderr).not.toContain('basic-secret');
    const who = await mcpc([rs.url, 'call', 'whoami', '--profile', 'm2m', '--json']);
    expect(who.code).toBe(0);
    expect(who.stdout).toContain('m2m-basic');
  }, 60_000);

  it('MCPC_CLIENT_ID / MCPC_CLIENT_SECRET: works without a login', async () => {
    const who = await mcpc([rs.url, 'call', 'whoami', '--profile', 'ci'], {
      env: { MCPC_CLIENT_ID: 'm2m-basic', MCPC_CLIENT_SECRET: 'basic-secret' },
    });
    expect(who.stderr).toBe('');
    expect(who.code).toBe(0);
    expect(who.stdout).toContain('m2m-basic');
  }, 60_000);

  it('behind a proxy: the OAuth metadata and token requests go through it, as the MCP requests do', async () => {
    const proxy = await startFixture('proxy.mjs');
    try {
      const who = await mcpc([rs.url, 'call', 'whoami', '--profile', 'ci-proxy'], {
        env: { MCPC_CLIENT_ID: 'm2m-basic', MCPC_CLIENT_SECRET: 'basic-secret', HTTP_PROXY: proxy.url, NO_PROXY: '' },
      });
      expect(who.stderr).toBe('');
      expect(who.code).toBe(0);
      expect(who.stdout).toContain('m2m-basic');
      const stats = (await (await fetch(new URL('/_proxy_stats', proxy.url))).json()) as {
        requests: { kind: string; target: string }[];
      };
      // Forwarded (node:http) or tunnelled (undici tunnels every request): either way, through the proxy.
      const through = (origin: string) =>
        stats.requests.filter((r) => r.kind !== 'refused' && r.target === new URL(origin).host).length;
      expect(through(rs.url)).toBeGreaterThan(0);
      // Before: none, as Node 20's global fetch took OAuth's requests around the proxy.
      expect(through(as.url)).toBeGreaterThan(0);
    } finally {
      await proxy.stop();
    }
  }, 60_000);
});
