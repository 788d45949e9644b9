// The skills API over HTTP: listings, entries, loads approved and verified step by step, files, directories.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkillEntryView, SkillRead } from '../../contract/api.js';
import { repoRoot, type Playground } from '../harness.js';
import { call, codeOf, connected, startWithDemo, type Answer } from './api-client.js';

let pg: Playground;
const demo = { id: 'demo' };
const fixture = join(repoRoot, 'tooling', 'fixtures', 'modern', 'skills-server.mjs');

beforeAll(async () => {
  pg = await startWithDemo();
  for (const [name, flag] of [
    ['hostile', '--hostile'],
    ['no-skills', '--no-skills'],
  ] as const)
    await call(
      pg,
      'POST /api/servers',
      {},
      { kind: 'stdio', name, command: process.execPath, args: [fixture, 'stdio', flag] },
    );
  await connected(pg, 'hostile');
  await connected(pg, 'no-skills');
}, 90_000);

afterAll(async () => {
  await pg?.stop();
});

const reasonOf = (answer: Answer<unknown>) => (answer.body as { error?: { reason?: string } }).error?.reason;
const states = (read: SkillRead) => read.steps.map((s) => `${s.step}:${s.state}`);

async function entry(id: string, uri: string): Promise<SkillEntryView> {
  const { status, body } = await call(pg, 'GET /api/servers/:id/skill', { id }, undefined, { uri });
  expect(status).toBe(200);
  return body;
}

async function load(id: string, uri: string, allowDynamic = false): Promise<Answer<SkillRead>> {
  const { approval } = await entry(id, uri);
  return call(
    pg,
    'POST /api/servers/:id/skills/load',
    { id },
    { uri, approval, ...(allowDynamic && { allowDynamic }) },
  );
}

describe('listing and entries', () => {
  it("lists the demo's skills with counts, sizes and same-named skills labelled apart", async () => {
    const { status, body } = await call(pg, 'GET /api/servers/:id/skills', demo);
    expect(status).toBe(200);
    expect(body.declared).toBe(true);
    expect(body.directoryRead).toBe(true);
    const byUri = new Map(body.skills.map((s) => [s.uri, s]));
    expect(byUri.get('skill://acme/docs/pdf-forms/SKILL.md')).toMatchObject({ label: 'pdf-forms', fileCount: 5 });
    expect(byUri.get('skill://reports/daily-status/SKILL.md')).toMatchObject({ resources: 'dynamic', fileCount: 0 });
    expect(byUri.get('skill://release/SKILL.md')?.fileCount).toBe(3);
    const hotfixes = body.skills.filter((s) => s.name === 'hotfix').map((s) => s.label);
    expect(hotfixes.sort()).toEqual(['demo:acme/support/hotfix', 'demo:release/hotfix']);
    expect(
      body.skills.every(
        (s) => s.totalSize === (s.resources === 'dynamic' ? 0 : s.resources.reduce((n, f) => n + f.size, 0)),
      ),
    ).toBe(true);
  });

  it('asks nothing of a server that did not declare the extension', async () => {
    const { body } = await call(pg, 'GET /api/servers/:id/skills', { id: 'no-skills' });
    expect(body).toEqual({ declared: false, directoryRead: false, skills: [] });
  });

  it('lists a refused entry with its problem (code and reason), and refuses to load it', async () => {
    const { body } = await call(pg, 'GET /api/servers/:id/skills', { id: 'hostile' });
    const bad = body.skills.find((s) => s.uri === 'skill://evil/baddigest/SKILL.md');
    expect(bad?.problem).toMatchObject({ code: 'MCPC_SKILL_ENTRY_INVALID', reason: 'digest' });
    const refused = await load('hostile', 'skill://evil/baddigest/SKILL.md');
    expect(refused.status).toBe(422);
    expect(reasonOf(refused)).toBe('digest');
  });

  it('gives one entry with its files, digests, allowed-tools, nested skills and the approval string', async () => {
    const forms = await entry('demo', 'skill://acme/docs/pdf-forms/SKILL.md');
    expect(forms.allowedTools).toBe('Bash(python:*) Read');
    expect(forms.approval).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(forms.resources).toContainEqual(
      expect.objectContaining({ path: 'scripts/fill.py', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }),
    );
    const release = await entry('demo', 'skill://release/SKILL.md');
    expect(release.nested).toEqual(['skill://release/hotfix/SKILL.md']);
    const missing = await call(pg, 'GET /api/servers/:id/skill', demo, undefined, { uri: 'skill://nope/SKILL.md' });
    expect([missing.status, reasonOf(missing)]).toEqual([404, 'not-found']);
  });
});

describe('loading', () => {
  it('loads only with the approval of the entry as shown, and refuses a changed one', async () => {
    const uri = 'skill://hello-world/SKILL.md';
    const none = await call(pg, 'POST /api/servers/:id/skills/load', demo, { uri } as never);
    expect([none.status, codeOf(none)]).toEqual([400, 'bad_request']);
    const stale = await call(pg, 'POST /api/servers/:id/skills/load', demo, {
      uri,
      approval: `sha256:${'0'.repeat(64)}`,
    });
    expect([stale.status, codeOf(stale), reasonOf(stale)]).toEqual([409, 'skill_changed', 'changed']);
  });

  it('loads a skill, each verification step reported, and reads its files verified', async () => {
    const skill = 'skill://acme/docs/pdf-forms/SKILL.md';
    const { status, body } = await load('demo', skill);
    expect(status).toBe(200);
    expect(body.outcome).toBe('verified');
    expect(states(body)).toEqual([
      'approval:passed',
      'listed:passed',
      'read:passed',
      'size:passed',
      'digest:passed',
      'frontmatter:passed',
    ]);
    expect(body.text).toContain('# PDF forms');

    const file = await call(pg, 'POST /api/servers/:id/skills/file', demo, { skill, path: 'references/api/fields.md' });
    expect(file.body).toMatchObject({
      outcome: 'verified',
      uri: 'skill://acme/docs/pdf-forms/references/api/fields.md',
    });
    expect(states(file.body)).toEqual(['listed:passed', 'read:passed', 'size:passed', 'digest:passed']);
    expect(file.body.text).toContain('| total | number |');

    const unlisted = await call(pg, 'POST /api/servers/:id/skills/file', demo, { skill, path: 'secret.md' });
    expect(unlisted.body).toMatchObject({ outcome: 'refused', error: { reason: 'unlisted' } });
    expect(unlisted.body.text).toBeUndefined();

    const dir = await call(pg, 'POST /api/servers/:id/skills/directory', demo, { skill, path: 'references' });
    expect(dir.body.source).toBe('manifest');
    expect(dir.body.items.map((i) => [i.name, i.directory])).toEqual([
      ['FORMS.md', false],
      ['api', true],
    ]);
  });

  it('refuses the lying-digest skill at the digest step, its text never sent', async () => {
    const { status, body } = await load('demo', 'skill://demo-tests/lying-digest/SKILL.md');
    expect(status).toBe(200);
    expect(body.outcome).toBe('refused');
    expect(body.error).toMatchObject({ code: 'MCPC_SKILL_VERIFICATION_FAILED', reason: 'digest' });
    expect(states(body)).toEqual([
      'approval:passed',
      'listed:passed',
      'read:passed',
      'size:passed',
      'digest:failed',
      'frontmatter:skipped',
    ]);
    expect(body.text).toBeUndefined();
    const after = await call(pg, 'POST /api/servers/:id/skills/file', demo, {
      skill: 'skill://demo-tests/lying-digest/SKILL.md',
      path: 'SKILL.md',
    });
    expect(codeOf(after)).toBe('skill_not_loaded');
  });

  it('refuses a SKILL.md whose frontmatter differs from the entry at the frontmatter step', async () => {
    const { body } = await load('hostile', 'skill://evil/twisted/SKILL.md');
    expect(body.error?.reason).toBe('frontmatter');
    expect(states(body).slice(-2)).toEqual(['digest:passed', 'frontmatter:failed']);
  });

  it('loads a dynamic skill only when asked to, and browses it with the server’s directory read', async () => {
    const skill = 'skill://reports/daily-status/SKILL.md';
    const refused = await load('demo', skill);
    expect([refused.status, reasonOf(refused)]).toEqual([422, 'dynamic']);
    const { body } = await load('demo', skill, true);
    expect(body.outcome).toBe('verified');
    expect(states(body)).toEqual([
      'approval:passed',
      'listed:passed',
      'read:passed',
      'size:skipped',
      'digest:skipped',
      'frontmatter:passed',
    ]);
    const root = await call(pg, 'POST /api/servers/:id/skills/directory', demo, { skill });
    expect(root.body.source).toBe('server');
    expect(root.body.items).toContainEqual({ uri: 'skill://reports/daily-status/data', name: 'data', directory: true });
    const data = await call(pg, 'POST /api/servers/:id/skills/file', demo, { skill, path: 'data/today.md' });
    expect(data.body.text).toContain('all systems normal');
  });

  it('reads no file of a skill that was not loaded', async () => {
    const answer = await call(pg, 'POST /api/servers/:id/skills/file', demo, {
      skill: 'skill://release/SKILL.md',
      path: 'checklist.md',
    });
    expect([answer.status, codeOf(answer)]).toEqual([409, 'skill_not_loaded']);
  });
});
