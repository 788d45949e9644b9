// The on-disk skill cache (`@mcpc/client/skills-disk`): paths encoding server and URI, re-verified hits, no links.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@mcpc/client';
import { cachePath, diskSkillCache } from '@mcpc/client/skills-disk';
import { modernFixture } from './helpers.js';

const clients: Client[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const GUIDE = 'skill://git-workflow/references/GUIDE.md';

async function open(dir: string) {
  const client = new Client({
    servers: [modernFixture('skills-server.mjs', ['stdio'], { name: 'docs' })],
    skills: { cache: diskSkillCache({ dir }) },
  });
  clients.push(client);
  const reads = async () => ((await client.server('docs').request('test/stats')) as { reads: string[] }).reads;
  return { client, reads };
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpc-skills-'));
  dirs.push(dir);
  return dir;
}

describe('the disk skill cache', () => {
  it('encodes the server and the URI in the path: no dot segments, no absolute paths, distinct servers apart', () => {
    expect(cachePath('docs', GUIDE)).toEqual(['docs', 'skill', 'git-workflow', 'references', 'GUIDE%2Emd.f']);
    expect(cachePath('other', GUIDE)![0]).toBe('other');
    expect(cachePath('../up', 'skill://a/../../etc/passwd')).toEqual([
      '%2E%2E%2Fup',
      'skill',
      'a',
      '%2E%2E',
      '%2E%2E',
      'etc',
      'passwd.f',
    ]);
    expect(cachePath('docs', 'file:///etc/passwd')).toBeUndefined();
    expect(cachePath('docs', 'no-scheme/SKILL.md')).toBeUndefined();
  });

  it('a verified file is kept on disk and served from there by a later client, without a fetch', async () => {
    const dir = tempDir();
    const first = await open(dir);
    await (await first.client.loadSkill('git-workflow')).readFile('references/GUIDE.md');
    expect(existsSync(join(dir, ...cachePath('docs', GUIDE)!))).toBe(true);
    const second = await open(dir);
    const skill = await second.client.loadSkill('git-workflow');
    expect((await skill.readFile('references/GUIDE.md')).text).toBe('# Guide\n\nBranch from main.\n');
    expect(await second.reads()).toEqual([]);
  });

  it('a cached file changed on disk is not used: it is fetched again and verified', async () => {
    const dir = tempDir();
    const first = await open(dir);
    await (await first.client.loadSkill('git-workflow')).readFile('references/GUIDE.md');
    writeFileSync(join(dir, ...cachePath('docs', GUIDE)!), '# Guide\n\nBranch from MAIN.\n');
    const second = await open(dir);
    const skill = await second.client.loadSkill('git-workflow');
    expect((await skill.readFile('references/GUIDE.md')).text).toBe('# Guide\n\nBranch from main.\n');
    expect(await second.reads()).toEqual([GUIDE]);
  });

  it('follows no symbolic link: a link in a file or directory place is a miss, and is not written through', async () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'GUIDE.md'), '# Guide\n\nBranch from main.\n');
    const parts = cachePath('docs', GUIDE)!;
    mkdirSync(join(dir, ...parts.slice(0, -2)), { recursive: true });
    symlinkSync(outside, join(dir, ...parts.slice(0, -1)));
    const { client, reads } = await open(dir);
    const skill = await client.loadSkill('git-workflow');
    expect((await skill.readFile('references/GUIDE.md')).text).toContain('main');
    expect(await reads()).toEqual(['skill://git-workflow/SKILL.md', GUIDE]);
    expect(readdirSync(outside)).toEqual(['GUIDE.md']);
  });

  it('clear(server) removes what one server left and nothing of another', async () => {
    const dir = tempDir();
    const cache = diskSkillCache({ dir });
    await cache.set('a', GUIDE, 'sha256:x', new Uint8Array([1]));
    await cache.set('b', GUIDE, 'sha256:x', new Uint8Array([2]));
    await cache.clear!('a');
    expect(await cache.get('a', GUIDE, 'sha256:x')).toBeUndefined();
    expect(await cache.get('b', GUIDE, 'sha256:x')).toEqual(new Uint8Array([2]));
  });
});
