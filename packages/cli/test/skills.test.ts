// `mcpc <target> skills | skill | skills pull` against the Skills fixture, over stdio and HTTP, honest and hostile.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { ExitCode } from '../src/exit-codes.js';
import { diskSegment, fileSegments, skillSegments } from '../src/skills/disk.js';
import { bodyOf } from '../src/skills/markdown.js';
import { BIN, NODE, REPO, freshHome, mcpc, testEnv } from './helpers.js';
import { Pty, TMUX_MISSING, tmuxAvailable } from './pty.js';

const SERVER = join(REPO, 'tooling', 'fixtures', 'modern', 'skills-server.mjs');
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const sha = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

let http: Fixture;
beforeAll(async () => {
  http = await startFixture(SERVER, ['http', '--hostile']);
});
afterAll(async () => {
  await http.stop();
});

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpc-skills-'));
  dirs.push(dir);
  return dir;
};

/** Every file and directory under `dir`, relative, with its permission bits: `f 644 a/b.md`, `d 755 a`. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const stat = lstatSync(path);
      const mode = (stat.mode & 0o777).toString(8);
      out.push(`${stat.isDirectory() ? 'd' : stat.isSymbolicLink() ? 'l' : 'f'} ${mode} ${relative(dir, path)}`);
      if (stat.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

/** The fixture's `test/stats` over HTTP: every resources/read it answered. */
async function httpReads(): Promise<string[]> {
  const res = await fetch(http.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test/stats', params: {} }),
  });
  return ((await res.json()) as { result: { reads: string[] } }).result.reads;
}

describe.each(['stdio', 'http'] as const)('skills over %s', (over) => {
  const target = (): string[] => (over === 'stdio' ? ['--stdio', `${NODE} ${SERVER} stdio --hostile`] : [http.url]);
  const server = (): string => (over === 'stdio' ? 'skills-server' : new URL(http.url).host);
  const run = (...args: string[]) => mcpc([...target(), ...args]);

  it('lists name, files, size and description; same-named skills by label; refused entries with why', async () => {
    const r = await run('skills');
    expect(r.code, r.stderr).toBe(ExitCode.Ok);
    expect(r.stdout).toMatch(/^NAME +FILES +SIZE +DESCRIPTION$/m);
    expect(r.stdout).toMatch(/^git-workflow +3 +246 B +Follow this team's Git conventions$/m);
    // Two "refunds" in one listing: neither is shown by the bare name.
    expect(r.stdout).toContain(`${server()}:acme/billing/refunds`);
    expect(r.stdout).toContain(`${server()}:acme/support/refunds`);
    expect(r.stdout).not.toMatch(/^refunds /m);
    expect(r.stdout).toMatch(/^daily +dynamic +- +Assemble/m);
    expect(r.stdout).toMatch(/^escape +- +- .*\n {2}refused \(MCPC_SKILL_ENTRY_INVALID, outside\): resources\[1\]/m);
    expect(r.stdout).toMatch(/refused \(MCPC_SKILL_TOO_LARGE, too-many-files\): 601 files/);
  });

  it('--json gives the entries, a refused one with its error serialised (code, reason, detail, message)', async () => {
    const r = await run('skills', '--json');
    expect(r.code, r.stderr).toBe(ExitCode.Ok);
    const entries = JSON.parse(r.stdout) as Record<string, unknown>[];
    const git = entries.find((e) => e.name === 'git-workflow')!;
    expect(git).toMatchObject({ server: server(), uri: 'skill://git-workflow/SKILL.md', fileCount: 3, totalSize: 246 });
    expect(git).not.toHaveProperty('problem');
    expect(entries.find((e) => e.name === 'daily')).toMatchObject({ resources: 'dynamic' });
    expect(entries.find((e) => e.uri === 'skill://evil/nores/SKILL.md')!.problem).toEqual({
      code: 'MCPC_SKILL_ENTRY_INVALID',
      reason: 'resources-missing',
      detail: 'the entry has no "resources"',
      message: expect.stringContaining('was refused (resources-missing)') as unknown,
    });
    expect(entries.filter((e) => e.name === 'refunds').map((e) => e.label)).toEqual([
      `${server()}:acme/billing/refunds`,
      `${server()}:acme/support/refunds`,
    ]);
  });

  it('`skill` shows frontmatter, files, digests and the verified SKILL.md; allowed-tools only shown', async () => {
    const r = await run('skill', 'git-workflow', '--yes');
    expect(r.code, r.stderr).toBe(ExitCode.Ok);
    expect(r.stdout).toMatch(/^git-workflow — Follow this team's Git conventions$/m);
    expect(r.stdout).toMatch(/^allowed-tools: Bash\(git:\*\) \(shown only: mcpc grants nothing\)$/m);
    expect(r.stdout).toMatch(/^ {2}metadata: \{"version":"1.2"\}$/m);
    expect(r.stdout).toMatch(
      new RegExp(`^ {2}references/GUIDE.md +27 B {2}${sha('# Guide\n\nBranch from main.\n')}$`, 'm'),
    );
    expect(r.stdout).toMatch(/─── SKILL.md \(verified\) ───\nRead \[the guide\]\(references\/GUIDE.md\)/);
    // The frontmatter is shown once, as fields, not again as the body's first lines.
    expect(r.stdout).not.toContain('---\nname:');
    const json = JSON.parse((await run('skill', 'skill://git-workflow/SKILL.md', '-y', '--json')).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ allowedTools: 'Bash(git:*)', name: 'git-workflow' });
    expect(json.text).toMatch(/^---\nname: git-workflow\n/);
  });

  it('a skill reached only by URI (not listed) is shown by its URI', async () => {
    const r = await run('skill', 'skill://hidden/secret-sauce/SKILL.md', '-y');
    expect(r.code, r.stderr).toBe(ExitCode.Ok);
    expect(r.stdout).toContain('secret-sauce — Reached only by URI');
  });

  it('without a terminal and without --yes nothing is loaded: a usage error that says --yes', async () => {
    const before = over === 'http' ? (await httpReads()).length : 0;
    const r = await run('skill', 'git-workflow');
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.stderr).toContain('Loading skill "git-workflow" needs your approval');
    expect(r.stderr).toContain('--yes');
    expect(r.stdout).toBe('');
    if (over === 'http') expect((await httpReads()).length).toBe(before);
    const pull = await run('skills', 'pull', 'git-workflow', '--to', scratch());
    expect(pull.code).toBe(ExitCode.Usage);
  });

  it.each([
    ['lying', 'digest'],
    ['twisted', 'frontmatter'],
    ['short', 'size'],
  ])('a SKILL.md that does not verify (%s) → exit 7, said plainly, with how to refresh', async (name, reason) => {
    const r = await run('skill', name, '-y');
    expect(r.code).toBe(ExitCode.Validation);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: skill verification failed: skill://evil/${name}/SKILL.md on server`);
    expect(r.stderr).toContain(`(${reason}: `);
    expect(r.stderr).toMatch(/hint: the skill may have changed since it was listed: run `mcpc .* skills`/);
  });

  it.each([
    ['escape', 'outside'],
    ['skill://evil/absolute/SKILL.md', 'outside'],
    ['many', 'too-many-files'],
    ['huge', 'too-large'],
    ['baddigest', 'digest'],
  ])('a refused entry (%s) is refused before anything is read → exit 7', async (word, reason) => {
    const r = await run('skill', word, '-y');
    expect(r.code).toBe(ExitCode.Validation);
    expect(r.stderr).toContain(`was refused (${reason})`);
    expect(r.stderr).toMatch(/hint: run `mcpc .* skills` to see which entries/);
  });

  it('names: ambiguous and unknown are usage errors; a dynamic skill is declined (exit 2)', async () => {
    const ambiguous = await run('skill', 'refunds', '-y');
    expect(ambiguous.code).toBe(ExitCode.Usage);
    expect(ambiguous.stderr).toContain(`2 skills are named "refunds": ${server()}:acme/billing/refunds`);
    const unknown = await run('skill', 'nope', '-y');
    expect(unknown.code).toBe(ExitCode.Usage);
    expect(unknown.stderr).toMatch(/no skill named "nope"[\s\S]*hint: run `mcpc .* skills` to list them/);
    const dynamic = await run('skill', 'daily', '-y');
    expect(dynamic.code).toBe(ExitCode.Usage);
    expect(dynamic.stderr).toContain('is dynamic: it has no manifest');
    expect(dynamic.stderr).toContain('--allow-dynamic loads it anyway');
  });

  it('skill --allow-dynamic loads a dynamic skill: its SKILL.md, frontmatter checked, no file list', async () => {
    const r = await run('skill', 'daily', '-y', '--allow-dynamic');
    expect(r.code, r.stderr).toBe(ExitCode.Ok);
    expect(r.stdout).toContain('SKILL.md (dynamic: frontmatter checked, no digest to check)');
    expect(r.stdout).not.toMatch(/^files \(/m);
  });

  it('pull writes DIR/<server>/<skill-path>/ verified (files 0644, dirs 0755); pulled again, replaced', async () => {
    const dir = join(scratch(), 'out');
    const r = await run('skills', 'pull', 'git-workflow', '--to', dir, '-y');
    expect(r.code, r.stderr).toBe(ExitCode.Ok);
    const place = join(dir, diskSegment(server()), 'git-workflow');
    expect(r.stdout).toContain(`pulled git-workflow: 3 files, 246 B verified, to ${place}`);
    const s = diskSegment(server());
    expect(tree(dir)).toEqual([
      `d 755 ${s}`,
      `d 755 ${s}/git-workflow`,
      `f 644 ${s}/git-workflow/SKILL.md`,
      `d 755 ${s}/git-workflow/references`,
      `f 644 ${s}/git-workflow/references/GUIDE.md`,
      `d 755 ${s}/git-workflow/scripts`,
      `f 644 ${s}/git-workflow/scripts/check.sh`,
    ]);
    expect(readFileSync(join(place, 'references', 'GUIDE.md'), 'utf8')).toBe('# Guide\n\nBranch from main.\n');
    expect(readFileSync(join(place, 'SKILL.md'), 'utf8')).toMatch(/^---\nname: git-workflow\n[\s\S]*check.sh`.\n$/);
    const again = await run('skills', 'pull', 'skill://git-workflow/SKILL.md', '--to', dir, '-y', '--json');
    expect(again.code, again.stderr).toBe(ExitCode.Ok);
    expect(JSON.parse(again.stdout)).toMatchObject({
      directory: place,
      bytes: 246,
      files: expect.any(Array) as unknown,
    });
    expect(tree(dir)).toHaveLength(7);
  });

  it('pull by label: a nested skill comes with its enclosing one, laid out as its URI says', async () => {
    const dir = scratch();
    const r = await run('skills', 'pull', `${server()}:acme/billing/refunds`, '--to', dir, '-y');
    expect(r.code, r.stderr).toBe(ExitCode.Ok);
    const files = tree(dir).filter((l) => l.startsWith('f'));
    expect(files).toEqual(
      [
        'acme/billing/refunds/SKILL.md',
        'acme/billing/refunds/escalation/SKILL.md',
        'acme/billing/refunds/escalation/notes.md',
        'acme/billing/refunds/examples/email.md',
      ].map((p) => `f 644 ${diskSegment(server())}/${p}`),
    );
  });

  it.each([
    ['badfile', ExitCode.Validation, 'skill verification failed: skill://evil/badfile/b/second.md of skill'],
    ['lying', ExitCode.Validation, 'skill verification failed'],
    ['escape', ExitCode.Validation, 'was refused (outside)'],
    ['skill://evil/absolute/SKILL.md', ExitCode.Validation, 'was refused (outside)'],
    ['daily', ExitCode.Usage, 'is dynamic (no manifest)'],
  ])('pull %s fails → nothing is left on disk, not even DIR', async (word, code, says) => {
    const dir = join(scratch(), 'out');
    const r = await run('skills', 'pull', word, '--to', dir, '-y');
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(says);
    expect(existsSync(dir)).toBe(false);
  });

  it('pull follows no symbolic link: DIR/<server> linking elsewhere is refused and nothing lands there', async () => {
    const dir = scratch();
    const elsewhere = scratch();
    symlinkSync(elsewhere, join(dir, diskSegment(server())));
    const r = await run('skills', 'pull', 'git-workflow', '--to', dir, '-y');
    expect(r.code).toBe(ExitCode.Validation);
    expect(r.stderr).toContain('refused to write the skill');
    expect(readdirSync(elsewhere)).toEqual([]);
    // The staging directory is gone too: only the link is there.
    expect(readdirSync(dir)).toEqual([diskSegment(server())]);
  });

  it('server text with terminal controls is escaped in the listing, the skill and the errors', async () => {
    for (const args of [['skills'], ['skill', 'ansi', '-y'], ['skill', 'lying', '-y']]) {
      const r = await run(...args);
      expect(RAW.test(r.stdout), r.stdout).toBe(false);
      expect(RAW.test(r.stderr), r.stderr).toBe(false);
    }
    const shown = await run('skill', 'ansi', '-y');
    expect(shown.stdout).toContain('Red \\x1b[31mALERT\\x1b[0m \\x1b]52;c;ZXZpbA==\\x07 \\x9b2J');
    expect(shown.stdout).toContain('Body \\x1b]52;c;ZXZpbA==\\x07 end.');
    // --json escapes C1 controls too (JSON.stringify leaves them raw).
    const json = await run('skill', 'ansi', '-y', '--json');
    expect(RAW.test(json.stdout)).toBe(false);
    expect((JSON.parse(json.stdout) as { description: string }).description).toContain('\u001b]52');
  });

  it('usage: skills takes pull or nothing; pull needs one skill and --to', async () => {
    expect((await run('skills', 'extra')).code).toBe(ExitCode.Usage);
    expect((await run('skills', 'pull', 'git-workflow', '-y')).code).toBe(ExitCode.Usage);
    expect((await run('skills', '--to', 'x')).code).toBe(ExitCode.Usage);
    expect((await run('skill')).code).toBe(ExitCode.Usage);
  });
});

it('a server without the Skills extension: `skills` is a server capability error (exit 5)', async () => {
  const r = await mcpc(['--stdio', `${NODE} ${SERVER} stdio --no-skills`, 'skills']);
  expect(r.code).toBe(ExitCode.Server);
  expect(r.stderr).toContain('io.modelcontextprotocol/skills');
});

describe('the approval prompt at a terminal', () => {
  let pty: Pty | undefined;
  let home: string;
  afterEach(() => {
    pty?.kill();
    pty = undefined;
    rmSync(home, { recursive: true, force: true });
  });

  const start = (args: readonly string[]): Pty => {
    if (!tmuxAvailable()) throw new Error(TMUX_MISSING);
    home = freshHome();
    const env = testEnv(home);
    const keep: Record<string, string> = { TERM: 'xterm-256color', LANG: 'C.UTF-8' };
    for (const key of ['PATH', 'HOME', 'MCPC_CONFIG_DIR', 'MCPC_SESSION_DIR', 'NO_COLOR']) keep[key] = env[key]!;
    pty = new Pty();
    pty.start([NODE, BIN, '--stdio', `${NODE} ${SERVER} stdio`, ...args], keep, home);
    return pty;
  };

  it('shows what is asked (allowed-tools included) and loads on yes', async () => {
    const t = start(['skill', 'git-workflow']);
    const screen = await t.waitFor(/Approve loading it\? \[y\/N\] $/m);
    expect(screen).toContain('Loading skill git-workflow from skills-server');
    expect(screen).toMatch(/allowed-tools: Bash\(git:\*\) \(shown only: mcpc grants nothing\)/);
    t.type('y');
    t.press('Enter');
    expect(await t.waitFor(/\[exit 0\]/)).toContain('─── SKILL.md (verified) ───');
  });

  it('no is a refusal (exit 1), and a pull refused writes nothing', async () => {
    const dir = join(scratch(), 'out');
    const t = start(['skills', 'pull', 'git-workflow', '--to', dir]);
    await t.waitFor(/Approve pulling it\? \[y\/N\] $/m);
    t.type('n');
    t.press('Enter');
    expect(await t.waitFor(/\[exit 1\]/)).toContain('Pulling skill "git-workflow" was not approved');
    expect(existsSync(dir)).toBe(false);
  });
});

describe('the paths a pull writes (pure helpers)', () => {
  it.each([
    ['skills-server', 'skills-server'],
    ['127.0.0.1:8080', '127.0.0.1%3A8080'],
    ['..', '%2E%2E'],
    ['.', '%2E'],
    ['a/b\\c', 'a%2Fb%5Cc'],
    ['é', '%C3%A9'],
  ])('a server name as one directory: %s → %s', (name, segment) => {
    expect(diskSegment(name)).toBe(segment);
  });

  it.each([
    ['skill://acme/billing/refunds/SKILL.md', ['acme', 'billing', 'refunds']],
    ['docs://x/SKILL.md', ['x']],
  ])('a skill URI to its path: %s', (uri, segments) => {
    expect(skillSegments(uri)).toEqual(segments);
  });

  it.each([
    'skill://a/../b/SKILL.md',
    'skill://a/./b/SKILL.md',
    'skill://a//b/SKILL.md',
    'skill:///etc/SKILL.md',
    'skill://a\\..\\b/SKILL.md',
    'skill://a/b/README.md',
    '/etc/passwd/SKILL.md',
  ])('a skill URI that could climb or is no skill is refused: %s', (uri) => {
    expect(() => skillSegments(uri)).toThrow(/refused to write the skill/);
  });

  it.each(['../x', '/etc/passwd', 'a/../../b', 'a//b', './a', 'a\\b', 'a/\u0000b', ''])(
    'a file path that is not plain and relative is refused: %j',
    (path) => {
      expect(() => fileSegments(path)).toThrow(/refused to write the skill/);
    },
  );

  it.each([
    ['---\nname: a\n---\n\n# T\n', '# T\n'],
    ['---\r\nname: a\r\n---\r\nbody', 'body'],
    ['no frontmatter', 'no frontmatter'],
  ])('the body after the frontmatter: %j', (text, body) => {
    expect(bodyOf(text)).toBe(body);
  });
});
