// Config discovery end to end: fixture homes in each host's format, read by the built `mcpc`.
//
// It checks sources, ${VAR}, problems and precedence.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN as BUILT, EVERYTHING, NODE, testEnv } from './helpers.js';
import { Pty, TMUX_MISSING, tmuxAvailable } from './pty.js';

const BIN = process.env.MCPC_TEST_BIN ?? BUILT;

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface Listed {
  readonly servers: { name: string; source: string; [k: string]: unknown }[];
  readonly problems: string[];
}

/** A home directory and a project directory, both fresh; `write` fills either with a host's file. */
class Machine {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), 'mcpc-disc-')));
  readonly home = join(this.root, 'home');
  readonly project = join(this.root, 'project');
  constructor() {
    mkdirSync(this.home);
    mkdirSync(this.project);
  }
  write(path: string, content: unknown): string {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return path;
  }
  /** Claude Desktop's file on this platform (the home's `.config` is XDG_CONFIG_HOME in the tests). */
  get claudeDesktop(): string {
    return process.platform === 'darwin'
      ? join(this.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
      : join(this.home, '.config', 'Claude', 'claude_desktop_config.json');
  }
  get vscodeUser(): string {
    return process.platform === 'darwin'
      ? join(this.home, 'Library', 'Application Support', 'Code', 'User')
      : join(this.home, '.config', 'Code', 'User');
  }
  run(args: readonly string[], env: Record<string, string | undefined> = {}, timeoutMs = 20_000): Promise<Ran> {
    return new Promise((resolve, reject) => {
      const child = spawn(NODE, [BIN, ...args], {
        cwd: this.project,
        env: testEnv(this.home, env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }
  async list(env: Record<string, string | undefined> = {}, extra: readonly string[] = []): Promise<Listed> {
    const r = await this.run(['--json', ...extra], env);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Listed;
  }
}

let machines: Machine[] = [];
const machine = (): Machine => {
  const m = new Machine();
  machines.push(m);
  return m;
};
afterEach(() => {
  for (const m of machines) rmSync(m.root, { recursive: true, force: true });
  machines = [];
});

const byName = (listed: Listed): Record<string, Listed['servers'][number]> =>
  Object.fromEntries(listed.servers.map((s) => [s.name, s]));

describe.skipIf(process.platform === 'win32')('config discovery', () => {
  it("finds each host's file, in its format, and says where each server came from", async () => {
    const m = machine();
    const { home, project } = m;
    m.write(join(home, '.config', 'mcpc', 'config.json'), { mcpServers: { own: { command: 'own-server' } } });
    m.write(join(project, '.mcp.json'), { mcpServers: { 'cc-project': { command: 'npx', args: ['-y', 'a'] } } });
    m.write(join(project, '.cursor', 'mcp.json'), {
      mcpServers: { 'cursor-project': { url: 'https://c.example/mcp' } },
    });
    m.write(
      join(project, '.vscode', 'mcp.json'),
      `{
  // VS Code: "servers", with a type word; "inputs" are prompts mcpc does not show
  "inputs": [],
  "servers": {
    "vs-project": { "type": "sse", "url": "https://v.example/sse", },
    "vs-stdio": { "type": "stdio", "command": "uvx", "args": ["tool"], "envFile": "\${workspaceFolder}/.env" },
  },
}`,
    );
    m.write(join(home, '.claude.json'), {
      numStartups: 3,
      mcpServers: { 'cc-user': { type: 'http', url: 'https://u.example/mcp', headers: { 'X-Key': 'k' } } },
      projects: {
        [project]: { mcpServers: { 'cc-local': { type: 'stdio', command: 'local-server', env: { A: '1' } } } },
        '/some/other/project': { mcpServers: { 'cc-elsewhere': { command: 'nope' } } },
      },
    });
    m.write(m.claudeDesktop, { mcpServers: { desktop: { command: 'desktop-server', args: ['--x'] } } });
    m.write(join(home, '.cursor', 'mcp.json'), { mcpServers: { 'cursor-user': { command: 'cursor-server' } } });
    m.write(join(home, '.codeium', 'windsurf', 'mcp_config.json'), {
      mcpServers: { windsurf: { serverUrl: 'https://w.example/mcp' }, off: { command: 'x', disabled: true } },
    });
    m.write(
      join(m.vscodeUser, 'settings.json'),
      `{
  /* user settings are JSONC */
  "editor.fontSize": 13, // trailing comment with "quotes" and // slashes
  "url.like": "http://not-a-comment.example/a//b",
  "mcp": {
    "servers": {
      "vs-user": { "type": "http", "url": "https://s.example/mcp" },
    },
  },
}`,
    );
    m.write(join(m.vscodeUser, 'mcp.json'), { servers: { 'vs-user-mcp': { command: 'vs-user-server' } } });
    m.write(
      join(home, '.codex', 'config.toml'),
      `model = "o3"

[mcp_servers.codex]
command = "codex-server"
args = ["-y", "pkg"]

[mcp_servers.codex.env]
API_KEY = "k"

[mcp_servers.codex-http]
url = "https://x.example/mcp"
http_headers = { "X-Team" = "t" }
`,
    );

    // The project's files are trusted for this run (their trust is the subject of the tests below).
    const listed = await m.list({}, ['--trust-project']);
    expect(listed.problems).toEqual([]);
    const found = byName(listed);
    const sources = Object.fromEntries(listed.servers.map((s) => [s.name, s.source]));
    const desktop = process.platform === 'darwin' ? 'Library/Application Support' : '.config';
    const code = process.platform === 'darwin' ? 'Library/Application Support/Code/User' : '.config/Code/User';
    expect(sources).toEqual({
      own: 'mcpc (~/.config/mcpc/config.json)',
      'cc-project': `Claude Code (${project}/.mcp.json)`,
      'cursor-project': `Cursor (${project}/.cursor/mcp.json)`,
      'vs-project': `VS Code (${project}/.vscode/mcp.json)`,
      'vs-stdio': `VS Code (${project}/.vscode/mcp.json)`,
      'cc-local': 'Claude Code, this project (~/.claude.json)',
      'cc-user': 'Claude Code (~/.claude.json)',
      desktop: `Claude Desktop (~/${desktop}/Claude/claude_desktop_config.json)`,
      'cursor-user': 'Cursor (~/.cursor/mcp.json)',
      windsurf: 'Windsurf (~/.codeium/windsurf/mcp_config.json)',
      'vs-user-mcp': `VS Code (~/${code}/mcp.json)`,
      'vs-user': `VS Code (~/${code}/settings.json)`,
      codex: 'Codex (~/.codex/config.toml)',
      'codex-http': 'Codex (~/.codex/config.toml)',
    });
    // The order is the precedence order.
    expect(listed.servers.map((s) => s.name).slice(0, 5)).toEqual([
      'own',
      'cc-project',
      'cursor-project',
      'vs-project',
      'vs-stdio',
    ]);
    // Normalized: stdio entries typed, host "http" left to detection, "sse" kept, Windsurf's serverUrl as url.
    expect(found['vs-project']).toMatchObject({ url: 'https://v.example/sse', type: 'sse' });
    expect(found['vs-stdio']).toMatchObject({ command: 'uvx', args: ['tool'], type: 'stdio' });
    expect(found['vs-stdio']).not.toHaveProperty('envFile');
    expect(found['cc-user']).toEqual({
      name: 'cc-user',
      source: 'Claude Code (~/.claude.json)',
      url: 'https://u.example/mcp',
      // A credential-named header is never listed (X-Key: *key*).
      headers: { 'X-Key': '<redacted>' },
      file: join(home, '.claude.json'),
    });
    expect(found['cc-local']).toMatchObject({ command: 'local-server', env: { A: '1' } });
    expect(found.windsurf).toMatchObject({ url: 'https://w.example/mcp' });
    expect(found).not.toHaveProperty('off');
    expect(found).not.toHaveProperty('cc-elsewhere');
    expect(found.codex).toMatchObject({ command: 'codex-server', args: ['-y', 'pkg'], env: { API_KEY: '<redacted>' } });
    expect(found['codex-http']).toMatchObject({ url: 'https://x.example/mcp', headers: { 'X-Team': 't' } });

    // The human listing says the same, home shown as ~.
    const human = await m.run(['--trust-project']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/desktop\s+desktop-server --x\s+\(Claude Desktop \(~\//);
    expect(human.stderr).toBe('');
  });

  it('expands ${VAR} and ${env:VAR} from the process environment only, never from the file', async () => {
    const m = machine();
    m.write(join(m.project, '.mcp.json'), {
      mcpServers: {
        local: {
          command: '${TOOL_BIN}',
          args: ['--token=${MY_TOKEN}', '${env:MY_B}', '${FROM_FILE}', '${WITH_DEFAULT:-fallback}', '$MY_TOKEN'],
          // FROM_FILE is set here, for the server: it must not feed the expansion of the args above.
          env: { FROM_FILE: 'file-secret', PASSED: '${MY_TOKEN}' },
        },
        remote: {
          type: 'http',
          url: 'https://${API_HOST}/mcp',
          headers: { Authorization: 'Bearer ${env:MY_TOKEN}' },
        },
      },
    });
    const vars = { TOOL_BIN: '/usr/bin/tool', MY_TOKEN: 'abc', MY_B: 'bee', API_HOST: 'api.example' };
    const listed = await m.list(vars, ['--trust-project']);
    const found = byName(listed);
    // Expanded (credential-named values are redacted in the listing; the server gets them).
    expect(found.local).toMatchObject({
      command: '/usr/bin/tool',
      args: ['--token=<redacted>', 'bee', '', 'fallback', '$MY_TOKEN'],
      env: { FROM_FILE: 'file-secret', PASSED: 'abc' },
    });
    expect(found.remote).toMatchObject({
      url: 'https://api.example/mcp',
      headers: { Authorization: '<redacted>' },
    });
    expect(JSON.stringify(listed)).not.toContain('Bearer abc');
    expect(listed.problems).toHaveLength(1);
    expect(listed.problems[0]).toMatch(/"local" in Claude Code .*\$\{FROM_FILE\} is not set/);
  });

  it('notes a VS Code ${input:…} value as a problem and still lists the server', async () => {
    const m = machine();
    m.write(join(m.project, '.vscode', 'mcp.json'), {
      inputs: [{ type: 'promptString', id: 'api-key', password: true }],
      servers: { gh: { type: 'http', url: 'https://g.example/mcp', headers: { Authorization: '${input:api-key}' } } },
    });
    const listed = await m.list({}, ['--trust-project']);
    expect(byName(listed).gh).toMatchObject({ url: 'https://g.example/mcp', headers: { Authorization: '' } });
    expect(listed.problems).toEqual([expect.stringMatching(/"gh" in VS Code .*\$\{input:api-key\}/)]);
  });

  it('reports a file that does not parse as a problem (stderr, --json) and exits 0', async () => {
    const m = machine();
    m.write(join(m.home, '.cursor', 'mcp.json'), '{ "mcpServers": { "a": { "command": "x" }, \n  oops } }');
    m.write(join(m.home, '.codex', 'config.toml'), '[mcp_servers.a\ncommand = "x"\n');
    m.write(join(m.home, '.claude.json'), '[1, 2');
    m.write(m.claudeDesktop, { mcpServers: { fine: { command: 'fine-server' }, odd: 'not an object', nothing: {} } });
    const listed = await m.list();
    expect(listed.servers.map((s) => s.name)).toEqual(['fine']);
    const text = listed.problems.join('\n');
    expect(text).toMatch(/Cursor config ~\/\.cursor\/mcp\.json is not valid JSON: .*line 2/);
    expect(text).toMatch(/Codex config ~\/\.codex\/config\.toml is not valid TOML/);
    expect(text).toMatch(/Claude Code config ~\/\.claude\.json is not valid JSON/);
    expect(text).toMatch(/"odd" in Claude Desktop .* is not an object/);
    expect(text).toMatch(/"nothing" in Claude Desktop .* has neither a "command" nor a "url"/);

    const human = await m.run([]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('fine');
    expect(human.stderr).toMatch(/^warning: Cursor config ~\/\.cursor\/mcp\.json is not valid JSON/m);
    expect(human.stderr).toMatch(/^warning: Codex config/m);
  });

  it('lists both servers that claim one name, with their sources, and refuses to pick one', async () => {
    const m = machine();
    m.write(join(m.home, '.config', 'mcpc', 'config.json'), { mcpServers: { dup: { command: 'from-mcpc' } } });
    m.write(m.claudeDesktop, {
      mcpServers: { dup: { command: 'from-desktop' }, same: { command: 'same-server', args: ['1'] } },
    });
    m.write(join(m.home, '.cursor', 'mcp.json'), { mcpServers: { same: { command: 'same-server', args: ['1'] } } });
    const listed = (await m.list()) as Listed & { conflicts: string[] };
    // The same server in two hosts is no conflict (listed once); a different one under the same name is.
    expect(listed.servers.map((s) => [s.name, s.command, s.conflict ?? false])).toEqual([
      ['dup', 'from-mcpc', true],
      ['dup', 'from-desktop', true],
      ['same', 'same-server', false],
    ]);
    expect(listed.conflicts).toEqual(['dup']);
    expect(listed.problems).toEqual([
      expect.stringMatching(/^"dup" is configured 2 times, differently: mcpc \(.*\); Claude Desktop \(/),
    ]);
    const named = await m.run(['dup', 'tools']);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(
      /"dup" is configured 2 times, differently — mcpc \(.*\): from-mcpc; Claude Desktop \(.*\): from-desktop/,
    );
    expect(named.stderr).toContain(
      `hint: use one file with \`mcpc --config ${join(m.home, '.config', 'mcpc', 'config.json')} dup\``,
    );

    // $MCPC_CONFIG moves mcpc's own file.
    const moved = m.write(join(m.root, 'elsewhere.json'), { mcpServers: { moved: { command: 'm' } } });
    const again = await m.list({ MCPC_CONFIG: moved });
    expect(byName(again).moved!.source).toBe(`mcpc (${moved})`);
    expect(byName(again).dup!.command).toBe('from-desktop');
  });

  it('reads only the --config file when one is given (JSON or Codex TOML)', async () => {
    const m = machine();
    m.write(m.claudeDesktop, { mcpServers: { desktop: { command: 'desktop-server' } } });
    m.write(join(m.project, 'servers.json'), { mcpServers: { mine: { command: 'mine-server', args: ['${X}'] } } });
    const listed = await m.list({ X: 'ex' }, ['--config', 'servers.json']);
    expect(listed.servers).toEqual([
      {
        name: 'mine',
        source: `--config (${m.project}/servers.json)`,
        command: 'mine-server',
        type: 'stdio',
        args: ['ex'],
        file: join(m.project, 'servers.json'),
      },
    ]);
    expect(listed.problems).toEqual([]);

    m.write(join(m.project, 'vscode.json'), { servers: { v: { type: 'sse', url: 'https://v.example/sse' } } });
    expect((await m.list({}, ['--config', 'vscode.json'])).servers).toMatchObject([{ name: 'v', type: 'sse' }]);

    m.write(join(m.project, 'codex.toml'), '[mcp_servers.t]\ncommand = "t-server"\nenv = { K = "v" }\n');
    expect((await m.list({}, ['--config', 'codex.toml'])).servers).toMatchObject([
      { name: 't', command: 't-server', env: { K: 'v' } },
    ]);

    const missing = await m.run(['--config', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: no such file/);
  });

  it('runs `mcpc <name> tools` through a configured stdio server', async () => {
    const m = machine();
    m.write(m.claudeDesktop, {
      mcpServers: { everything: { command: NODE, args: [EVERYTHING, 'stdio'], env: { EV_TOKEN: '${EV_TOKEN}' } } },
    });
    const r = await m.run(['everything', 'tools', '--json'], { EV_TOKEN: 't' }, 30_000);
    expect(r.code, r.stderr).toBe(0);
    const tools = JSON.parse(r.stdout) as { name: string }[];
    expect(tools.map((t) => t.name)).toContain('echo');

    const unknown = await m.run(['nothing-like-it', 'tools']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no server is configured as "nothing-like-it"; configured: everything/);
  }, 40_000);
});

describe.skipIf(process.platform === 'win32')(
  "a project's config files are untrusted until the user trusts them",
  () => {
    /** A stdio "server" that only leaves a mark that it was started. */
    const marking = (marker: string) => ({
      command: NODE,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'started')`],
    });

    it('starts nothing a project file defines — by name or by grep — until `mcpc trust`, and asks again after a change', async () => {
      const m = machine();
      const marker = join(m.root, 'started');
      const file = m.write(join(m.project, '.mcp.json'), { mcpServers: { evil: marking(marker) } });

      const listed = (await m.list()) as Listed & { untrusted: { path: string; names: string[]; changed: boolean }[] };
      expect(byName(listed).evil).toMatchObject({ untrusted: true, file });
      expect(listed.untrusted).toMatchObject([{ path: file, names: ['evil'], changed: false }]);
      const human = await m.run([]);
      expect(human.stdout).toMatch(/evil .*\[untrusted\]/);
      expect(human.stderr).toContain(`run \`mcpc trust ${file}\``);

      const named = await m.run(['evil', 'tools']);
      expect(named.code).toBe(2);
      expect(named.stderr).toMatch(/"evil" is defined in .*\.mcp\.json, a project config file you have not trusted/);
      expect(named.stderr).toContain(`hint: read it, then run \`mcpc trust ${file}\``);
      const grep = await m.run(['grep', 'x']);
      expect(grep.stderr).toMatch(/skipped 1 server\(s\) of .*\.mcp\.json, a project config file you have not trusted/);
      const doctor = await m.run(['doctor', 'evil']);
      expect(doctor.stdout + doctor.stderr).toMatch(/not trusted/);
      expect(existsSync(marker)).toBe(false);

      // The hint is a command that runs; then the server starts.
      const trusted = await m.run(['trust', file]);
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(trusted.stdout).toMatch(/Trusted .*\.mcp\.json as it is now \(sha256:.*\): evil/);
      expect(JSON.parse((await m.run(['trust', '--json'])).stdout)).toMatchObject({
        files: [{ path: file, state: 'trusted' }],
      });
      await m.run(['evil', 'tools']);
      expect(existsSync(marker)).toBe(true);
      rmSync(marker);

      // A changed file asks again.
      m.write(file, { mcpServers: { evil: marking(marker), more: marking(marker) } });
      const changed = await m.run(['evil', 'tools']);
      expect(changed.code).toBe(2);
      expect(changed.stderr).toMatch(/in this version \(it changed since you trusted it\)/);
      expect(existsSync(marker)).toBe(false);
      // --trust-project runs it once and records nothing; --remove forgets.
      await m.run(['evil', 'tools', '--trust-project']);
      expect(existsSync(marker)).toBe(true);
      expect(JSON.parse((await m.run(['trust', '--json'])).stdout)).toMatchObject({ files: [{ state: 'changed' }] });
      expect((await m.run(['trust', '--remove', file])).code).toBe(0);
      expect(JSON.parse((await m.run(['trust', '--json'])).stdout)).toMatchObject({ files: [{ state: 'untrusted' }] });
    }, 60_000);

    it('never contacts an untrusted URL nor expands ${VAR} into it; after trust the variable is sent', async () => {
      const m = machine();
      const seen: { url: string; header: string | undefined }[] = [];
      const server = createServer((req, res) => {
        seen.push({ url: req.url ?? '', header: req.headers['x-team'] as string | undefined });
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      try {
        const file = m.write(join(m.project, '.vscode', 'mcp.json'), {
          servers: {
            remote: {
              type: 'http',
              url: `http://127.0.0.1:${port}/mcp?team=\${TEAM_SECRET}`,
              headers: { 'X-Team': '${TEAM_SECRET}' },
            },
          },
        });
        const env = { TEAM_SECRET: 'hunter2' };
        const listed = await m.list(env);
        expect(byName(listed).remote).toMatchObject({ headers: { 'X-Team': '${TEAM_SECRET}' } });
        expect(JSON.stringify(listed)).not.toContain('hunter2');
        const named = await m.run(['remote', 'tools'], env);
        expect(named.code).toBe(2);
        expect(seen).toEqual([]);

        expect((await m.run(['trust', file], env)).code).toBe(0);
        await m.run(['remote', 'tools', '--transport', 'http'], env);
        expect(seen.length).toBeGreaterThan(0);
        expect(seen[0]).toEqual({ url: '/mcp?team=hunter2', header: 'hunter2' });
      } finally {
        server.close();
      }
    }, 40_000);

    it('asks at a terminal, and a yes is recorded', async () => {
      if (!tmuxAvailable()) throw new Error(TMUX_MISSING);
      const m = machine();
      const marker = join(m.root, 'started');
      m.write(join(m.project, '.mcp.json'), { mcpServers: { evil: marking(marker) } });
      const env = testEnv(m.home);
      const keep: Record<string, string> = { TERM: 'xterm-256color', LANG: 'C.UTF-8' };
      for (const key of ['PATH', 'HOME', 'XDG_CONFIG_HOME', 'MCPC_CONFIG_DIR', 'MCPC_SESSION_DIR', 'NO_COLOR'])
        if (env[key] !== undefined) keep[key] = env[key];
      const t = new Pty();
      try {
        t.start([NODE, BIN, 'evil', 'tools'], keep, m.project);
        await t.waitFor(
          (s) => /Trust .*\.mcp\.json and run what it defines\? \[y\/N\]/.test(s),
          15_000,
          'the trust prompt',
        );
        expect(t.screen()).toMatch(/evil: .*node -e/);
        t.type('y');
        t.press('Enter');
        await t.waitFor((s) => /\[exit \d+\]/.test(s), 15_000, 'the command to end');
      } finally {
        t.kill();
      }
      expect(existsSync(marker)).toBe(true);
      expect(JSON.parse((await m.run(['trust', '--json'])).stdout)).toMatchObject({ files: [{ state: 'trusted' }] });
    }, 40_000);

    it('never prints a credential: headers, env, URL and arguments are redacted in every listing', async () => {
      const m = machine();
      m.write(m.claudeDesktop, {
        mcpServers: {
          api: {
            url: 'https://user:pa55@api.example/mcp?api_key=k3y&region=eu',
            headers: { Authorization: 'Bearer t0ken', Cookie: 'sid=c00kie', 'X-Region': 'eu' },
          },
          tool: {
            command: 'tool',
            args: ['--token', 'tok3n', '--client-secret=s3cret', 'password=pw', '--verbose'],
            env: { GITHUB_TOKEN: 'ghp_x', MY_PASSWORD: 'pw2', HOME_DIR: '/h' },
          },
        },
      });
      for (const args of [['--json'], []]) {
        const r = await m.run(args);
        expect(r.code).toBe(0);
        for (const secret of ['pa55', 'k3y', 't0ken', 'c00kie', 'tok3n', 's3cret', '=pw', 'ghp_x', 'pw2'])
          expect(r.stdout + r.stderr, secret).not.toContain(secret);
      }
      const found = byName(await m.list());
      expect(found.api).toMatchObject({
        url: 'https://user:<redacted>@api.example/mcp?api_key=<redacted>&region=eu',
        headers: { Authorization: '<redacted>', Cookie: '<redacted>', 'X-Region': 'eu' },
      });
      expect(found.tool).toMatchObject({
        args: ['--token', '<redacted>', '--client-secret=<redacted>', 'password=<redacted>', '--verbose'],
        env: { GITHUB_TOKEN: '<redacted>', MY_PASSWORD: '<redacted>', HOME_DIR: '/h' },
      });
    });
  },
);

describe.skipIf(process.platform === 'win32')('config files that would hurt', () => {
  it('reads regular files only: a named pipe with no writer does not hang a command', async () => {
    const m = machine();
    execFileSync('mkfifo', [join(m.project, '.mcp.json')]);
    m.write(m.claudeDesktop, { mcpServers: { fine: { command: 'fine-server' } } });
    const r = await m.run(['--json'], {}, 10_000);
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as Listed;
    expect(listed.servers.map((s) => s.name)).toEqual(['fine']);
    expect(listed.problems).toEqual([expect.stringMatching(/\.mcp\.json is not a regular file; skipped/)]);
  });

  it('refuses a deeply nested config before parsing it (4.8 MB of brackets)', async () => {
    const m = machine();
    const deep = '['.repeat(3_000) + ']'.repeat(3_000);
    m.write(m.claudeDesktop, `{"mcpServers":{"a":{"command":"x","args":[${Array(800).fill(deep).join(',')}]}}}`);
    m.write(join(m.home, '.cursor', 'mcp.json'), `{"mcpServers":{"b":{"command":"y","args":${'['.repeat(400_000)}}}}`);
    m.write(
      join(m.home, '.codex', 'config.toml'),
      `[mcp_servers.c]\ncommand = "z"\nargs = ${'['.repeat(100)}${']'.repeat(100)}\n`,
    );
    const listed = await m.list();
    expect(listed.servers).toEqual([]);
    expect(listed.problems).toEqual([
      expect.stringMatching(/claude_desktop_config\.json nests arrays or objects deeper than 64 levels; skipped/),
      expect.stringMatching(/\.cursor\/mcp\.json nests arrays or objects deeper than 64 levels; skipped/),
      expect.stringMatching(/config\.toml nests arrays or objects deeper than 64 levels; skipped/),
    ]);
  });
});
