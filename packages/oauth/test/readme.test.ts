// The README's example is exactly the example file that runs, and it signs in and calls a tool.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signInAndCall } from '../examples/browser-login.mjs';
import { walkOAuthSteps } from '../examples/steps.mjs';
import { browser, startAuthorizationServer, startResourceServer, stats, stopAll, type Fixture } from './helpers.js';

// The README's example is examples/browser-login.mjs, verbatim, and it runs: against oidc-provider and
// a protected MCP server, with the browser step driven through BrowserOAuth's openUrl hook.

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');

interface AsStats {
  grants: { grantType: string; resource: string | null }[];
  authorizations: { codeChallengeMethod: string | null; redirectUri: string }[];
}

let as: Fixture;
let rs: Fixture;
beforeAll(async () => {
  as = await startAuthorizationServer();
  rs = await startResourceServer({ authorizationServers: [as.url] });
});
afterEach(() => vi.restoreAllMocks());
afterAll(stopAll);

describe('README', () => {
  it('shows exactly the example that examples/browser-login.mjs runs', () => {
    const block = /## Example: sign in, call a tool, refresh[\s\S]*?```js\n([\s\S]*?)```/.exec(
      read('../README.md'),
    )?.[1];
    const example = read('../examples/browser-login.mjs');
    expect(block).toBe(example.slice(example.indexOf('import ')));
  });

  it('signs in through BrowserOAuth, calls a tool on the protected server, and refreshes', async () => {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
    const visited: URL[] = [];
    await signInAndCall(rs.url, { openUrl: browser(visited) });
    expect(printed[0]).toBe('Echo: signed in');
    expect(printed[1]).toMatch(/^refreshed: valid until \d{4}-\d\d-\d\dT.*, refreshable: true$/);
    expect(printed[2]).toBe('Echo: still signed in');
    // The browser went to oidc-provider's authorization endpoint first, and was sent back to the loopback listener.
    expect(visited[0]?.origin).toBe(new URL(as.url).origin);
    expect(visited.at(-1)?.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    const s = await stats<AsStats>(as);
    expect(s.authorizations.at(-1)?.codeChallengeMethod).toBe('S256');
    expect(s.grants.map((g) => g.grantType)).toEqual(['authorization_code', 'refresh_token']);
    expect(s.grants.every((g) => g.resource === rs.url)).toBe(true);
  });

  it('shows exactly the step-by-step example that examples/steps.mjs runs', () => {
    const block = /## Step by step: `@mcpc\/oauth\/steps`[\s\S]*?```js\n([\s\S]*?)```/.exec(read('../README.md'))?.[1];
    const example = read('../examples/steps.mjs');
    expect(block).toBe(example.slice(example.indexOf('import ')));
  });

  it('walks the flow step by step, printing each step and its exchanges', async () => {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
    await walkOAuthSteps(rs.url, { openUrl: browser() });
    const steps = printed.filter((l) => !l.startsWith('  '));
    expect(steps).toEqual([
      'challenge: HTTP 401',
      `resource metadata: ${rs.url}`,
      `authorization server: ${as.url}`,
      'client: dynamic-registration',
      expect.stringMatching(/^authorization: scope .*\bmcp\b/),
      expect.stringMatching(new RegExp(`^callback: iss ${as.url}, code .{4}….{4}$`)),
      'token: Bearer, refreshable: true',
      'refresh: a new access token: true',
    ]);
    expect(printed).toContain(`  GET ${rs.url} → 401`);
    expect(printed.filter((l) => /^ {2}POST .* → 201$/.test(l))).toHaveLength(1);
    expect(printed.filter((l) => /^ {2}POST .* → 200$/.test(l))).toHaveLength(2);
  });
});
