// Skills (SEP-2640) from hostile servers: listings that never end, entries that lie or escape; each bounded and typed.
import { afterEach, describe, expect, it } from 'vitest';
import {
  Client,
  ClientErrorCode,
  PaginationError,
  SkillEntryError,
  SkillVerificationError,
  streamableHttp,
  type ClientOptions,
  type ServerConfig,
} from '@mcpc/client';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { modernFixture, modernFixturePath } from './helpers.js';

const clients: Client[] = [];
const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const f of fixtures.splice(0)) await f.stop();
});

type Over = 'stdio' | 'http';

async function open(over: Over, args: string[], options: Partial<ClientOptions> = {}) {
  let config: ServerConfig;
  if (over === 'stdio') config = modernFixture('skills-server.mjs', ['stdio', ...args], { name: 'evil' });
  else {
    const f = await startFixture(modernFixturePath('skills-server.mjs'), ['http', ...args]);
    fixtures.push(f);
    config = streamableHttp({ name: 'evil', url: f.url, retries: 0 });
  }
  const client = new Client({ servers: [config], ...options });
  clients.push(client);
  await client.connect();
  const stats = async () =>
    (await client.server('evil').request('test/stats')) as { methods: Record<string, number>; reads: string[] };
  return { client, stats };
}

describe.each<Over>(['stdio', 'http'])('hostile skills servers over %s', (over) => {
  it('a 100 000-skill listing stops at maxListItems (10 000 by default) with PaginationError', async () => {
    const { client, stats } = await open(over, ['--listing', 'huge']);
    const error = await client.listSkills().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error).toMatchObject({ reason: 'item-limit', method: 'skills/list', code: ClientErrorCode.PaginationLimit });
    expect((await stats()).methods['skills/list']).toBe(11);
    // Raised by the host, the same listing is had whole.
    const { client: patient } = await open(over, ['--listing', 'huge'], { skills: { maxListItems: 100_000 } });
    expect(await patient.listSkills()).toHaveLength(100_000);
  }, 60_000);

  it('pages that never end stop at maxPages; a repeated cursor is a loop', async () => {
    const { client, stats } = await open(over, ['--listing', 'endless'], { maxPages: 25 });
    await expect(client.listSkills()).rejects.toMatchObject({ reason: 'page-limit' });
    expect((await stats()).methods['skills/list']).toBe(25);
    const { client: looped } = await open(over, ['--listing', 'loop']);
    await expect(looped.listSkills()).rejects.toMatchObject({ reason: 'cursor-loop' });
    // A listing that failed is not "no skills": it is an error, never an empty list.
    await expect(looped.listSkills()).rejects.toBeInstanceOf(PaginationError);
  });

  it.each([
    ['huge', 'too-large', ClientErrorCode.SkillTooLarge],
    ['many', 'too-many-files', ClientErrorCode.SkillTooLarge],
    ['escape', 'outside', ClientErrorCode.SkillEntryInvalid],
    ['absolute', 'outside', ClientErrorCode.SkillEntryInvalid],
    ['baddigest', 'digest', ClientErrorCode.SkillEntryInvalid],
    ['nores', 'resources-missing', ClientErrorCode.SkillEntryInvalid],
    ['wrongname', 'name', ClientErrorCode.SkillEntryInvalid],
  ])(
    'the %s entry is listed with its problem (%s) and refused before anything is fetched',
    async (name, reason, code) => {
      const { client, stats } = await open(over, ['--hostile']);
      const entry = (await client.listSkills()).find((s) => s.uri === `skill://evil/${name}/SKILL.md`)!;
      expect(entry.problem).toBeInstanceOf(SkillEntryError);
      expect(entry.problem).toMatchObject({ reason, code });
      await expect(client.loadSkill(entry)).rejects.toBe(entry.problem);
      await expect(client.loadSkill(entry.uri)).rejects.toMatchObject({ reason });
      expect((await stats()).reads).toEqual([]);
    },
  );

  it.each([
    ['lying', 'digest'],
    ['short', 'size'],
    ['twisted', 'frontmatter'],
  ])('the %s skill fails verification (%s): the SKILL.md is read once and nothing else', async (name, reason) => {
    const { client, stats } = await open(over, ['--hostile']);
    const error = await client.loadSkill(`skill://evil/${name}/SKILL.md`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect(error).toMatchObject({ reason, server: 'evil', uri: `skill://evil/${name}/SKILL.md` });
    if (reason === 'frontmatter') expect((error as Error).message).toContain('"description"');
    expect((await stats()).reads).toEqual([`skill://evil/${name}/SKILL.md`]);
    // Refused content is not cached: a second try reads it again, and fails again.
    await expect(client.loadSkill(`skill://evil/${name}/SKILL.md`)).rejects.toMatchObject({ reason });
  });
});
