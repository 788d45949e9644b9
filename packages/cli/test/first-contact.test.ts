// What a new user meets first: hints, "did you mean", aligned listings, a server's stderr as lines.
//
// Every hint is a command that runs.
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeNames } from '@mcpc/client';
import { signature } from '../src/commands/tools.js';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { NODE, REPO, freshHome, mcpc } from './helpers.js';

const DEMO = join(REPO, 'apps', 'playground', 'demo-server', 'server.mjs');
const TARGET = ['--stdio', `${NODE} ${DEMO} stdio`];
let home: string;
let failing: string;
let everything: Fixture;

beforeAll(async () => {
  everything = await startFixture('everything.mjs', ['streamableHttp']);
  home = freshHome();
  failing = join(home, 'failing-server.js');
  writeFileSync(
    failing,
    `process.stdin.resume();
console.error('Error: Cannot find module "foo"\\n    at main (/srv/server.js:3:1)\\n\\u001b]52;c;aGk=\\u0007done');
setTimeout(() => process.exit(1), 100);`,
  );
});
afterAll(async () => {
  await everything?.stop();
  rmSync(home, { recursive: true, force: true });
});

/** The command a hint names, as words (`mcpc …` inside backquotes). */
const hinted = (stderr: string): string[] => {
  const command = /hint: run `mcpc ([^`]+)`/.exec(stderr)?.[1];
  if (command === undefined) throw new Error(`no hint in: ${stderr}`);
  // The hints quote as a POSIX shell would: single or double quotes around one word.
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
};

describe('first contact', () => {
  it('a missing argument points to the tool, and that hint runs', async () => {
    const r = await mcpc([...TARGET, 'call', 'add', 'a=1'], { home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required argument: b/);
    const words = hinted(r.stderr);
    expect(words.slice(-2)).toEqual(['tool', 'add']);
    const shown = await mcpc(words, { home });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/call: +add\(a: number, b: number\)/);
  }, 30_000);

  it('an unknown tool offers the names a typo away', async () => {
    const r = await mcpc([...TARGET, 'call', 'eho', 'message=x'], { home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean "echo"\?/);
    const t = await mcpc([...TARGET, 'tool', 'sumarize'], { home });
    expect(t.stderr).toMatch(/did you mean "summarize"/);
    expect((await mcpc(hinted(t.stderr), { home })).code).toBe(0);
  }, 30_000);

  it('lists tools with their signatures and resources in aligned columns', async () => {
    const tools = await mcpc([...TARGET, 'tools'], { home });
    expect(tools.stdout).toMatch(/^add\(a: number, b: number\) \[read-only\]$/m);
    const resources = await mcpc([...TARGET, 'resources'], { home });
    const lines = resources.stdout.trim().split('\n');
    // Every title starts in the same column.
    const titleAt = lines.map((l) => l.search(/ {2}\S/));
    expect(new Set(titleAt).size).toBe(1);
  }, 30_000);

  it('a server that fails to start: its stderr as lines (escaped), and a doctor hint that runs', async () => {
    const r = await mcpc(['tools', '--', NODE, failing], { home });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^the server wrote on stderr \(last lines\):$/m);
    expect(r.stderr).toMatch(/^ {2}\| Error: Cannot find module "foo"$/m);
    expect(r.stderr).toMatch(/^ {2}\| {5}at main \(\/srv\/server\.js:3:1\)$/m);
    expect(r.stderr).toContain('\\x1b]52;c;aGk=\\x07done');
    expect(r.stderr).not.toContain('\u001b');
    const words = hinted(r.stderr);
    expect(words[0]).toBe('doctor');
    const doctor = await mcpc(words, { home });
    expect(doctor.stderr).not.toMatch(/takes one target/);
    expect(doctor.stdout).toMatch(/^fail connect: /m);
  }, 30_000);
});

describe('tasks over stdio', () => {
  it('say the handle dies with the process, and the session they point to keeps it', async () => {
    const server = `${NODE} ${join(REPO, 'tooling', 'fixtures', 'tasks', 'scripted-tasks-server.mjs')} stdio --era legacy`;
    const r = await mcpc(['--stdio', server, 'tasks', 'call', 'job'], { home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/this task lives in the server process this command started, which has now ended/);
    const session = /`mcpc (session [^`]+)`, then `mcpc (@tasks tasks call [^`]+)`/.exec(r.stderr);
    expect(session).not.toBeNull();
    const words = (command: string): string[] =>
      [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
    const opened = await mcpc(words(session![1]!), { home });
    expect(opened.code, opened.stderr).toBe(0);
    try {
      const called = await mcpc([...words(session![2]!), '--json'], { home });
      expect(called.code, called.stderr).toBe(0);
      expect(called.stderr).not.toMatch(/lives in the server process/);
      const { taskId } = JSON.parse(called.stdout) as { taskId: string };
      const later = await mcpc(['@tasks', 'tasks', 'wait', taskId, '--json'], { home });
      expect(later.code, later.stderr).toBe(0);
      expect(JSON.parse(later.stdout)).toMatchObject({ taskId, status: 'completed' });
    } finally {
      await mcpc(['@tasks', 'close'], { home });
    }
  }, 60_000);
});

describe('-v', () => {
  it('says how the connection went over HTTP too, and keeps library deprecation notices for -vv', async () => {
    const r = await mcpc([everything.url, 'tools', '-v'], { home });
    expect(r.code, r.stderr).toBe(0);
    // It printed nothing over HTTP before.
    expect(r.stderr).toMatch(/^connecting to 127\.0\.0\.1:\d+: http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
    expect(r.stderr).toMatch(/^connected in \d+ ms over streamable-http: MCP 20\d\d-\d\d-\d\d \(.+\), server \S+/m);
    expect(r.stderr).not.toMatch(/deprecated/);
    const vv = await mcpc([everything.url, 'tools', '-vv'], { home });
    expect(vv.code).toBe(0);
  }, 30_000);
});

describe('the helpers behind them', () => {
  it('close names: a typo or two away, or containing the word', () => {
    expect(closeNames('eho', ['echo', 'add'])).toEqual(['echo']);
    expect(closeNames('sum', ['get-sum', 'add'])).toEqual(['get-sum']);
    expect(closeNames('zzzzzz', ['echo'])).toEqual([]);
  });

  it.each([
    [{ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }, 'a: number'],
    [
      { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } }, required: ['s'] },
      's: string, n?: number',
    ],
    [
      { type: 'object', properties: { c: { enum: ['red', 'blue'] }, l: { type: 'array', items: { type: 'string' } } } },
      'c?: "red"|"blue", l?: string[]',
    ],
    [{ type: 'object' }, ''],
  ])('signature of %j', (inputSchema, expected) =>
    expect(signature({ name: 't', inputSchema } as unknown as Parameters<typeof signature>[0])).toBe(expected),
  );
});
