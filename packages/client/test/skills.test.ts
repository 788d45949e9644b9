// Skills (SEP-2640) against the skills fixture, over stdio and Streamable HTTP: the gate, listing, identity, loading.
import { afterEach, describe, expect, it } from 'vitest';
import {
  AmbiguousNameError,
  CapabilityError,
  Client,
  ClientErrorCode,
  NotFoundError,
  SkillApprovalError,
  SkillEntryError,
  SkillVerificationError,
  streamableHttp,
  type ClientOptions,
  type ServerConfig,
} from '@mcpc/client';
import type { SkillApprovalRequest } from '@mcpc/client/types';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { modernFixture, modernFixturePath } from './helpers.js';

const clients: Client[] = [];
const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const f of fixtures.splice(0)) await f.stop();
});

type Over = 'stdio' | 'http';

async function config(over: Over, name: string, args: string[]): Promise<ServerConfig> {
  if (over === 'stdio') return modernFixture('skills-server.mjs', ['stdio', ...args], { name });
  const f = await startFixture(modernFixturePath('skills-server.mjs'), ['http', ...args]);
  fixtures.push(f);
  return streamableHttp({ name, url: f.url, retries: 0 });
}

async function open(over: Over, args: string[] = [], options: Partial<ClientOptions> = {}, names = ['s']) {
  const servers = await Promise.all(names.map((n) => config(over, n, args)));
  const client = new Client({ servers, ...options });
  clients.push(client);
  await client.connect();
  const stats = async (server = names[0]!) =>
    (await client.server(server).request('test/stats')) as { methods: Record<string, number>; reads: string[] };
  return { client, stats };
}

describe.each<Over>(['stdio', 'http'])('skills over %s', (over) => {
  it('acts only on a server that declared the extension: nothing is sent to one that did not', async () => {
    const { client, stats } = await open(over, ['--no-skills']);
    expect(client.server('s').skillsExtension).toBeUndefined();
    await expect(client.listSkills({ server: 's' })).rejects.toBeInstanceOf(CapabilityError);
    await expect(client.getSkill('skill://git-workflow/SKILL.md')).rejects.toThrow();
    expect(await client.listSkills()).toEqual([]);
    expect((await stats()).methods['skills/list']).toBeUndefined();
    expect((await stats()).methods['skills/get']).toBeUndefined();
  });

  it('lists every skill with its manifest, reads no file, and labels the colliding names apart', async () => {
    const { client, stats } = await open(over);
    const skills = await client.listSkills();
    expect(skills.map((s) => s.uri)).toEqual([
      'skill://git-workflow/SKILL.md',
      'skill://acme/billing/refunds/SKILL.md',
      'skill://acme/billing/refunds/escalation/SKILL.md',
      'skill://acme/support/refunds/SKILL.md',
      'skill://reports/daily/SKILL.md',
    ]);
    expect(skills.map((s) => s.label)).toEqual([
      'git-workflow',
      's:acme/billing/refunds',
      'escalation',
      's:acme/support/refunds',
      'daily',
    ]);
    const git = skills[0]!;
    expect(git).toMatchObject({ server: 's', name: 'git-workflow', fileCount: 3 });
    expect(git.problem).toBeUndefined();
    expect(skills[4]!.resources).toBe('dynamic');
    expect((await stats()).reads).toEqual([]);
  });

  it('identity is (server, uri): two servers serving one URI are two skills, their names resolved per server', async () => {
    const { client, stats } = await open(over, [], {}, ['a', 'b']);
    const skills = await client.listSkills();
    const git = skills.filter((s) => s.uri === 'skill://git-workflow/SKILL.md');
    expect(git.map((s) => [s.server, s.label])).toEqual([
      ['a', 'a:git-workflow'],
      ['b', 'b:git-workflow'],
    ]);
    const error = await client.loadSkill('git-workflow').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousNameError);
    expect((error as AmbiguousNameError).candidates).toEqual(['a:git-workflow', 'b:git-workflow']);
    await expect(client.loadSkill('skill://git-workflow/SKILL.md')).rejects.toBeInstanceOf(AmbiguousNameError);
    const loaded = await client.loadSkill('b:git-workflow');
    expect(loaded.server).toBe('b');
    // Reads a skill drives stay on its own server.
    await loaded.readFile('references/GUIDE.md');
    expect((await stats('a')).reads).toEqual([]);
    expect((await stats('b')).reads).toEqual([
      'skill://git-workflow/SKILL.md',
      'skill://git-workflow/references/GUIDE.md',
    ]);
    expect((await client.loadSkill('git-workflow', { server: 'a' })).server).toBe('a');
  });

  it('loads a skill: SKILL.md read and verified, nothing else until asked, relative references from its root', async () => {
    const { client, stats } = await open(over);
    const skill = await client.loadSkill('git-workflow');
    expect(skill.text).toContain('Read [the guide](references/GUIDE.md)');
    expect((await stats()).reads).toEqual(['skill://git-workflow/SKILL.md']);
    expect(skill.resolve('references/GUIDE.md')).toBe('skill://git-workflow/references/GUIDE.md');
    expect(skill.resolve('./a/../references/GUIDE.md')).toBe('skill://git-workflow/references/GUIDE.md');
    expect(skill.resolve('../other/SKILL.md')).toBeUndefined();
    expect(skill.resolve('/etc/passwd')).toBeUndefined();
    const guide = await skill.readFile('references/GUIDE.md');
    expect(guide.text).toBe('# Guide\n\nBranch from main.\n');
    expect(skill.allowedTools).toBe('Bash(git:*)');
    expect(skill.toModelContext()).toMatch(/^<skill server="s" uri="skill:\/\/git-workflow\/SKILL.md" origin="mcp">/);
    // The verified cache: a second read of a file whose digest still matches is not fetched again.
    await skill.readFile('references/GUIDE.md');
    await (await client.loadSkill('git-workflow')).readFile('skill://git-workflow/references/GUIDE.md');
    expect((await stats()).reads).toEqual([
      'skill://git-workflow/SKILL.md',
      'skill://git-workflow/references/GUIDE.md',
    ]);
  });

  it('a file not in the held entry is a verification failure, and is never requested', async () => {
    const { client, stats } = await open(over);
    const skill = await client.loadSkill('git-workflow');
    const error = await skill.readFile('references/NEW.md').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect((error as SkillVerificationError).reason).toBe('unlisted');
    expect((error as Error).message).toContain('getSkill(');
    await expect(skill.readFile('skill://acme/billing/refunds/SKILL.md')).rejects.toMatchObject({ reason: 'unlisted' });
    expect((await stats()).reads).toEqual(['skill://git-workflow/SKILL.md']);
  });

  it('a file changed between listing and read is refused; getSkill gives the new entry, whose new set is asked for again', async () => {
    const asked: SkillApprovalRequest[] = [];
    const { client } = await open(over, [], { onSkillApproval: (r) => (asked.push(r), true) });
    const skill = await client.loadSkill('git-workflow');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ server: 's', name: 'git-workflow', allowedTools: 'Bash(git:*)', changed: false });
    await client.server('s').request('test/mutate');
    const error = await skill.readFile('references/GUIDE.md').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect(error).toMatchObject({ reason: 'digest', code: ClientErrorCode.SkillVerificationFailed });
    const fresh = await client.getSkill('skill://git-workflow/SKILL.md');
    const again = await client.loadSkill(fresh);
    expect(asked).toHaveLength(2);
    expect(asked[1]!.changed).toBe(true);
    expect((await again.readFile('references/GUIDE.md')).text).toContain('MAIN');
    // The same set is not asked for again.
    await client.loadSkill(fresh);
    expect(asked).toHaveLength(2);
  });

  it('a refused approval loads nothing', async () => {
    const { client, stats } = await open(over, [], { onSkillApproval: () => false });
    await expect(client.loadSkill('git-workflow')).rejects.toBeInstanceOf(SkillApprovalError);
    expect((await stats()).reads).toEqual([]);
  });

  it('a nested skill is a supporting file of its parent, and needs its own load and approval to act on', async () => {
    const asked: string[] = [];
    const { client } = await open(over, [], { onSkillApproval: (r) => (asked.push(r.uri), true) });
    const parent = await client.loadSkill('skill://acme/billing/refunds/SKILL.md');
    expect(parent.nestedSkills).toEqual(['skill://acme/billing/refunds/escalation/SKILL.md']);
    const nested = await parent.readFile('escalation/SKILL.md');
    expect(nested.text).toContain('allowed-tools: Bash(rm:*)');
    expect(asked).toEqual(['skill://acme/billing/refunds/SKILL.md']);
    const child = await client.loadSkill(parent.nestedSkills[0]!, { server: 's' });
    expect(asked).toEqual([
      'skill://acme/billing/refunds/SKILL.md',
      'skill://acme/billing/refunds/escalation/SKILL.md',
    ]);
    expect(child.allowedTools).toBe('Bash(rm:*)');
  });

  it('a skill missing from the listing is loaded by its URI (skills/get); an unknown URI is NotFoundError', async () => {
    const { client } = await open(over);
    await expect(client.loadSkill('secret-sauce')).rejects.toBeInstanceOf(NotFoundError);
    const skill = await client.loadSkill('skill://hidden/secret-sauce/SKILL.md');
    expect(skill.name).toBe('secret-sauce');
    await expect(client.getSkill('skill://nope/nope/SKILL.md')).rejects.toMatchObject({ kind: 'skill' });
  });

  it('a dynamic skill loads only when the host opts in; its directory is read only with directoryRead', async () => {
    const { client, stats } = await open(over);
    const error = await client.loadSkill('daily').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillEntryError);
    expect(error).toMatchObject({ reason: 'dynamic', code: ClientErrorCode.SkillDynamicRefused });
    expect((await stats()).reads).toEqual([]);
    const skill = await client.loadSkill('daily', { allowDynamic: true });
    expect(await skill.listDirectory('data')).toEqual([
      { uri: 'skill://reports/daily/data/today.md', name: 'today.md', directory: false },
    ]);
    expect((await skill.readFile('data/today.md')).text).toBe('Today: fine\n');
    // A manifest skill's directories come from its entry: no directory read.
    const git = await client.loadSkill('git-workflow');
    expect((await git.listDirectory()).map((c) => c.name).sort()).toEqual(['SKILL.md', 'references', 'scripts']);
    expect((await stats()).methods['resources/directory/read']).toBe(1);
  });

  it('without directoryRead, resources/directory/read is never sent', async () => {
    const { client, stats } = await open(over, ['--no-directory-read'], { skills: { allowDynamic: true } });
    expect(client.server('s').skillsExtension).toEqual({});
    const skill = await client.loadSkill('daily');
    await expect(skill.listDirectory('data')).rejects.toBeInstanceOf(CapabilityError);
    expect((await stats()).methods['resources/directory/read']).toBeUndefined();
  });

  it('caches the listing by its ttlMs like the other lists, and clearCache("skills") drops it', async () => {
    const { client, stats } = await open(over);
    await client.listSkills();
    await client.listSkills();
    // The fixture answers ttlMs 0: each listing is fetched again.
    expect((await stats()).methods['skills/list']).toBe(2);
    expect(client.server('s').cacheInfo('skills')).toMatchObject({
      cached: true,
      count: 5,
      ttlMs: 0,
      cacheScope: 'public',
    });
    client.clearCache('skills');
    expect(client.server('s').cacheInfo('skills')).toEqual({ cached: false });
  });
});
