// A SKILL.md for a terminal: frontmatter cut off (shown apart), headings and code set off, every character escaped.
import { safe, type Output } from '../output.js';

/** The text after a leading `---` frontmatter block (the whole text when there is none). */
export function bodyOf(text: string): string {
  const match = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return match === null ? text : text.slice(match[0].length).replace(/^(?:\r?\n)+/, '');
}

/**
 * The markdown's lines as a terminal shows them: headings bold, fenced code dim and indented, the rest as
 * written. Server text: each line passes `safe` (control characters shown, not obeyed) before any styling.
 */
export function renderMarkdown(text: string, out: Output): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = safe(raw, 20_000);
    const opens = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (fence !== undefined) {
      if (opens !== null && opens[1]!.startsWith(fence)) fence = undefined;
      else lines.push(out.style('dim', `    ${line}`));
      continue;
    }
    if (opens !== null) {
      fence = opens[1]!.slice(0, 3);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading !== null) lines.push(out.style('bold', heading[2]!));
    else lines.push(line);
  }
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines;
}
