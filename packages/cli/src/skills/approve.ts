// Asking the person before a skill is loaded or pulled: what it is, what it asks for, and --yes for scripts.
import type { SkillEntry } from '@mcpc/client/types';
import type { CliContext } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { withReader } from '../interact/terminal.js';
import { safe } from '../output.js';
import { sizeText } from './entries.js';

/**
 * Resolves when the person approved loading `entry` (as shown: the CLI then loads exactly that entry, so
 * the approval covers its files and digests). `--yes` approves without asking; with no one at the
 * terminal and no `--yes` it is a usage error, never a silent yes.
 */
export async function approveSkill(
  ctx: CliContext,
  entry: SkillEntry,
  command: string,
  action: 'loading' | 'pulling',
): Promise<void> {
  if (ctx.flags.yes === true) return;
  const Action = action === 'loading' ? 'Loading' : 'Pulling';
  if (!ctx.interactive)
    throw new UsageError(
      `${Action} skill "${safe(entry.label, 200)}" needs your approval, and no one is at a terminal to give it: ` +
        'pass --yes (-y) to approve it',
      command,
    );
  const { out } = ctx;
  const approved = await withReader(ctx, async (reader) => {
    const files =
      entry.resources === 'dynamic'
        ? 'dynamic (no manifest)'
        : `${entry.fileCount} files, ${sizeText(entry.totalSize)}`;
    reader.write(
      `\n${out.errStyle('bold', `${Action} skill ${safe(entry.label, 200)}`)} from ${safe(entry.server, 100)}\n`,
    );
    reader.write(`  ${out.errStyle('dim', 'uri:')}           ${safe(entry.uri, 500)}\n`);
    reader.write(`  ${out.errStyle('dim', 'description:')}   ${safe(entry.description, 500)}\n`);
    reader.write(`  ${out.errStyle('dim', 'files:')}         ${files}\n`);
    const tools = entry.frontmatter['allowed-tools'];
    if (tools !== undefined)
      reader.write(
        `  ${out.errStyle('dim', 'allowed-tools:')} ${safe(tools, 500)} ` +
          `${out.errStyle('dim', '(shown only: mcpc grants nothing)')}\n`,
      );
    const answer = await reader.ask(`Approve ${action} it? [y/N] `, ctx.signal);
    if (answer.kind !== 'line') reader.write('\n');
    const word = answer.kind === 'line' ? answer.line.trim().toLowerCase() : '';
    return word === 'y' || word === 'yes';
  });
  if (!approved) throw new CliError(`${Action} skill "${safe(entry.label, 200)}" was not approved`, ExitCode.Error);
}
