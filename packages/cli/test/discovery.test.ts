// Config discovery end to end: fixture homes in each host's format, read by the built `mcpc` (sources, ${VAR}, problems, precedence).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN as BUILT, EVERYTHING, NODE, testEnv } from './helpers.js';

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

    const listed = await m.list();
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
      headers: { 'X-Key': 'k' },
    });
    expect(found['cc-local']).toMatchObject({ command: 'local-server', env: { A: '1' } });
    expect(found.windsurf).toMatchObject({ url: 'https://w.example/mcp' });
    expect(found).not.toHaveProperty('off');
    expect(found).not.toHaveProperty('cc-elsewhere');
    expect(found.codex).toMatchObject({ command: 'codex-server', args: ['-y', 'pkg'], env: { API_KEY: 'k' } });
    expect(found['codex-http']).toMatchObject({ url: 'https://x.example/mcp', headers: { 'X-Team': 't' } });

    // The human listing says the same, home shown as ~.
    const human = await m.run([]);
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
    const listed = await m.list({ TOOL_BIN: '/usr/bin/tool', MY_TOKEN: 'abc', MY_B: 'bee', API_HOST: 'api.example' });
    const found = byName(listed);
    expect(found.local).toMatchObject({
      command: '/usr/bin/tool',
      args: ['--token=abc', 'bee', '', 'fallback', '$MY_TOKEN'],
      env: { FROM_FILE: 'file-secret', PASSED: 'abc' },
    });
    expect(found.remote).toMatchObject({
      url: 'https://api.example/mcp',
      headers: { Authorization: 'Bearer abc' },
    });
    expect(listed.problems).toHaveLength(1);
    expect(listed.problems[0]).toMatch(/"local" in Claude Code .*\$\{FROM_FILE\} is not set/);
  });

  it('notes a VS Code ${input:…} value as a problem and still lists the server', async () => {
    const m = machine();
    m.write(join(m.project, '.vscode', 'mcp.json'), {
      inputs: [{ type: 'promptString', id: 'api-key', password: true }],
      servers: { gh: { type: 'http', url: 'https://g.example/mcp', headers: { Authorization: '${input:api-key}' } } },
    });
    const listed = await m.list();
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

  it('keeps the first definition of a name and says which ones it shadows', async () => {
    const m = machine();
    m.write(join(m.home, '.config', 'mcpc', 'config.json'), { mcpServers: { dup: { command: 'from-mcpc' } } });
    m.write(join(m.project, '.mcp.json'), {
      mcpServers: { dup: { command: 'from-project' }, same: { command: 'same-server', args: ['1'] } },
    });
    m.write(m.claudeDesktop, {
      mcpServers: { dup: { command: 'from-desktop' }, same: { command: 'same-server', args: ['1'] } },
    });
    const listed = await m.list();
    const found = byName(listed);
    expect(found.dup).toMatchObject({ command: 'from-mcpc', source: 'mcpc (~/.config/mcpc/config.json)' });
    expect(found.same!.source).toMatch(/^Claude Code /);
    expect(listed.servers).toHaveLength(2);
    // The same server in two hosts is no conflict; a different one under the same name is.
    expect(listed.problems).toEqual([
      expect.stringMatching(/^"dup" in Claude Code \(.*\.mcp\.json\) is shadowed by "dup" in mcpc \(/),
      expect.stringMatching(/^"dup" in Claude Desktop \(.*\) is shadowed by "dup" in mcpc \(/),
    ]);

    // $MCPC_CONFIG moves mcpc's own file.
    const moved = m.write(join(m.root, 'elsewhere.json'), { mcpServers: { moved: { command: 'm' } } });
    const again = await m.list({ MCPC_CONFIG: moved });
    expect(byName(again).moved!.source).toBe(`mcpc (${moved})`);
    expect(byName(again).dup!.command).toBe('from-project');
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
