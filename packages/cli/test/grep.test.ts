// `mcpc grep` end to end: the built binary searches the tools of every configured server.
//
// The servers are server-everything twice and one broken server.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN as BUILT, EVERYTHING, NODE, testEnv } from './helpers.js';

const BIN = process.env.MCPC_TEST_BIN ?? BUILT;

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface Match {
  server: string;
  tool: string;
  title?: string;
  description?: string;
}

let root: string;
let home: string;
let project: string;

function run(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [BIN, ...args], { cwd: project, env: testEnv(home, env), stdio: 'pipe' });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const stdio = { command: NODE, args: [EVERYTHING, 'stdio'] };

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mcpc-grep-')));
  home = join(root, 'home');
  project = join(root, 'project');
  mkdirSync(join(home, '.config', 'mcpc'), { recursive: true });
  mkdirSync(project);
  // mcpc's own config: two copies of server-everything and one that dies at once.
  writeFileSync(
    join(home, '.config', 'mcpc', 'config.json'),
    JSON.stringify({
      mcpServers: {
        alpha: stdio,
        beta: stdio,
        broken: { command: NODE, args: ['-e', 'process.exit(3)'] },
      },
    }),
  );
  writeFileSync(
    join(project, 'only-broken.json'),
    JSON.stringify({ mcpServers: { broken: { command: NODE, args: ['-e', 'process.exit(3)'] } } }),
  );
  writeFileSync(join(project, 'none.json'), JSON.stringify({ mcpServers: {} }));
});

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe('mcpc grep', () => {
  it('finds matches across every configured server and reports the one that fails', async () => {
    const r = await run(['grep', 'sum|^echo$', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const matches = JSON.parse(r.stdout) as Match[];
    expect(matches.map((m) => `${m.server}/${m.tool}`).sort()).toEqual([
      'alpha/echo',
      'alpha/get-sum',
      'beta/echo',
      'beta/get-sum',
    ]);
    expect(matches.find((m) => m.tool === 'get-sum')).toEqual({
      server: 'alpha',
      tool: 'get-sum',
      title: 'Get Sum Tool',
      description: 'Returns the sum of two numbers',
    });
    // One line for the broken server, and the command still succeeds.
    const lines = r.stderr.split('\n').filter((l) => l.includes('broken'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warning: .*"broken"/);
  }, 60_000);

  it('prints `server  tool  description` lines, case-insensitively, a bad regex taken literally', async () => {
    const r = await run(['grep', 'ECHOES']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^alpha\s+echo\s+Echoes back the input string$/),
      expect.stringMatching(/^beta\s+echo\s+Echoes back the input string$/),
    ]);
    expect(r.stdout).not.toContain('\u001b[');

    // "(elicitation/create" is no regex (an open group): it is searched for as written.
    const literal = await run(['grep', '(elicitation/create', '--json']);
    expect(literal.code, literal.stderr).toBe(0);
    expect((JSON.parse(literal.stdout) as Match[]).map((m) => m.tool)).toEqual([
      'trigger-url-elicitation',
      'trigger-url-elicitation',
    ]);
    // A long description is cut around the match.
    const cut = await run(['grep', 'UrlElicitationRequiredError']);
    expect(cut.stdout).toMatch(/^alpha\s+trigger-url-elicitation\s+….*UrlElicitationRequiredError.*…$/m);
  }, 60_000);

  it('exits 1 when nothing matches, 2 on a usage error, 3 when no server could be searched', async () => {
    const none = await run(['grep', 'no-tool-is-called-this', '--json']);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout)).toEqual([]);

    const human = await run(['grep', 'no-tool-is-called-this']);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe('');

    expect((await run(['grep'])).code).toBe(2);
    expect((await run(['grep', 'a', 'b'])).code).toBe(2);

    const dead = await run(['grep', 'echo', '--config', 'only-broken.json']);
    expect(dead.code).toBe(3);
    expect(dead.stderr).toMatch(/^warning: .*"broken"/m);

    const empty = await run(['grep', 'echo', '--config', 'none.json']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no servers are configured/);
  }, 60_000);
});
