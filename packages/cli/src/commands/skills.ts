// `mcpc <target> skills [pull …]` and `skill <uri|name>`: a server's Agent Skills (SEP-2640) listed, shown, pulled.
import { resolve } from 'node:path';
import { SkillVerificationError } from '@mcpc/client';
import type { LoadedSkill } from '@mcpc/client/types';
import type { Command } from '../command.js';
import type { CliContext, Connection } from '../context.js';
import { UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { oneLine, safe, type Output } from '../output.js';
import { approveSkill } from '../skills/approve.js';
import { diskSegment, skillSegments, writeSkillTree, type PulledFile } from '../skills/disk.js';
import { findSkill, sizeText, skillJson } from '../skills/entries.js';
import { bodyOf, renderMarkdown } from '../skills/markdown.js';
import type { SkillEntry } from '@mcpc/client/types';

const PULL_USAGE = 'usage: mcpc <target> skills pull <uri|name> --to DIR [--yes]';

/** The listing as a table: label, files, size, description; a refused entry says why on the line below. */
function printListing(out: Output, entries: readonly SkillEntry[]): void {
  const rows = entries.map((e) => ({
    label: safe(e.label, 200),
    // A refused entry's counts are not the server's: it is shown without them.
    files: e.resources === 'dynamic' ? 'dynamic' : e.problem !== undefined ? '-' : String(e.fileCount),
    size: e.resources === 'dynamic' || e.problem !== undefined ? '-' : sizeText(e.totalSize),
    about: oneLine(e.description, 80),
    entry: e,
  }));
  const width = Math.min(50, Math.max(4, ...rows.map((r) => r.label.length)));
  out.line(out.style('dim', `${'NAME'.padEnd(width)}  ${'FILES'.padStart(7)}  ${'SIZE'.padStart(9)}  DESCRIPTION`));
  for (const r of rows) {
    const counts = `${r.files.padStart(7)}  ${r.size.padStart(9)}`;
    out.line(`${out.style('bold', r.label.padEnd(width))}  ${counts}  ${r.about}`.trimEnd());
    const problem = r.entry.problem;
    if (problem !== undefined)
      out.line(out.style('red', `  refused (${problem.code}, ${problem.reason}): ${safe(problem.detail, 400)}`));
  }
}

/** Loads the entry (approved first) and runs `use`; a failed verification drops the held listing. */
async function loaded<T>(
  ctx: CliContext,
  connection: Connection,
  entry: SkillEntry,
  command: string,
  action: 'loading' | 'pulling',
  use: (skill: LoadedSkill) => Promise<T>,
  allowDynamic = false,
): Promise<T> {
  // A refused entry is refused before anyone is asked about it.
  if (entry.problem !== undefined) throw entry.problem;
  await approveSkill(ctx, entry, command, action);
  try {
    return await use(await connection.server.loadSkill(entry, { allowDynamic }));
  } catch (error) {
    // The next listing (in a session, the next command) is fetched anew rather than served from the cache.
    if (error instanceof SkillVerificationError) connection.server.clearCache('skills');
    throw error;
  }
}

async function pull(ctx: CliContext, words: readonly string[], connection: Connection): Promise<ExitCode> {
  const to = ctx.flags.to;
  if (words.length !== 1 || to === undefined || to === '') throw new UsageError(PULL_USAGE, 'skills');
  const entry = await findSkill(connection.server, words[0]!, 'skills');
  if (entry.resources === 'dynamic' && entry.problem === undefined)
    throw new UsageError(
      `skill "${safe(entry.label, 200)}" is dynamic (no manifest): there is no file list to pull nor digests to verify`,
      'skills',
    );
  const parts = [diskSegment(entry.server), ...skillSegments(entry.uri)];
  // Every file read and verified before anything touches the disk: a failure leaves nothing.
  const files = await loaded(ctx, connection, entry, 'skills', 'pulling', async (skill) => {
    const read: PulledFile[] = [];
    if (skill.files === 'dynamic') return read;
    for (const file of skill.files) {
      ctx.signal.throwIfAborted();
      // The SKILL.md too: its bytes as served (verified again, from the verified cache), not its decoded text.
      read.push({ path: file.path, bytes: (await skill.readFile(file.uri)).bytes });
    }
    return read;
  });
  const place = await writeSkillTree(resolve(ctx.cwd, to), parts, files);
  const bytes = files.reduce((n, f) => n + f.bytes.byteLength, 0);
  ctx.out.result({ ...skillJson(entry), directory: place, files: files.map((f) => f.path), bytes }, () =>
    ctx.out.line(
      `pulled ${safe(entry.label, 200)}: ${files.length} files, ${sizeText(bytes)} verified, to ${safe(place, 1_000)}`,
    ),
  );
  return ExitCode.Ok;
}

export const skills: Command = {
  async run(ctx, words, connection) {
    if (words[0] === 'pull') return pull(ctx, words.slice(1), connection!);
    if (words.length > 0)
      throw new UsageError('`skills` takes no arguments but `pull` (did you mean `skill <uri|name>`?)', 'skills');
    if (ctx.flags.to !== undefined) throw new UsageError('--to is for `skills pull`', 'skills');
    const list = await connection!.server.listSkills();
    ctx.out.result(list.map(skillJson), () => {
      if (list.length === 0)
        ctx.out.note('the server lists no skills (a listing may be partial: a skill known by URI is reached by it)');
      else printListing(ctx.out, list);
    });
    return ExitCode.Ok;
  },
};

/** The frontmatter as `key: value` lines (values as JSON when they are not strings), escaped. */
function frontmatterLines(frontmatter: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(frontmatter).map(
    ([k, v]) => `  ${safe(k, 100)}: ${safe(typeof v === 'string' ? v : JSON.stringify(v), 2_000)}`,
  );
}

export const skill: Command = {
  async run(ctx, words, connection) {
    if (words.length !== 1)
      throw new UsageError('usage: mcpc <target> skill <uri|name> [--yes] [--allow-dynamic]', 'skill');
    const entry = await findSkill(connection!.server, words[0]!, 'skill');
    const allowDynamic = ctx.flags['allow-dynamic'] === true;
    const shown = await loaded(ctx, connection!, entry, 'skill', 'loading', async (s) => s, allowDynamic);
    const { out } = ctx;
    const json = {
      ...skillJson(entry),
      allowedTools: shown.allowedTools ?? null,
      nestedSkills: shown.nestedSkills,
      text: shown.text,
    };
    out.result(json, () => {
      const dim = (t: string): string => out.style('dim', t);
      out.line(`${out.style('bold', safe(entry.name, 200))} — ${safe(entry.description, 2_000)}`);
      out.line(`${dim('server:')}        ${safe(entry.server, 200)}`);
      out.line(`${dim('uri:')}           ${safe(entry.uri, 1_000)}`);
      if (shown.allowedTools !== undefined)
        out.line(
          `${dim('allowed-tools:')} ${safe(shown.allowedTools, 1_000)} ${dim('(shown only: mcpc grants nothing)')}`,
        );
      out.line(dim('frontmatter:'));
      for (const line of frontmatterLines(entry.frontmatter)) out.line(line);
      if (shown.files !== 'dynamic') {
        out.line(dim(`files (${shown.files.length}, ${sizeText(entry.totalSize)}):`));
        const width = Math.min(60, Math.max(...shown.files.map((f) => safe(f.path, 200).length)));
        for (const f of shown.files)
          out.line(`  ${safe(f.path, 200).padEnd(width)}  ${sizeText(f.size).padStart(9)}  ${dim(f.digest)}`);
      }
      if (shown.nestedSkills.length > 0)
        out.line(
          `${dim('nested skills:')} ${shown.nestedSkills.map((u) => safe(u, 500)).join(', ')} ` +
            dim('(each loaded on its own)'),
        );
      const how = shown.files === 'dynamic' ? 'dynamic: frontmatter checked, no digest to check' : 'verified';
      out.line(dim(`─── SKILL.md (${how}) ───`));
      for (const line of renderMarkdown(bodyOf(shown.text), out)) out.line(line);
    });
    return ExitCode.Ok;
  },
};
