// What the Skills view shows, decided without a DOM: sizes, summaries, SKILL.md split, file states, directory paths.
import type { SkillFile, SkillRead, SkillStep, SkillView } from '../../contract/api.js';

/** Bytes as people read them: `388 B`, `1.5 KiB`, `2.0 MiB`. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '?';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** A listing row's summary: `5 files · 486 B`, or what a dynamic skill is. */
export function skillSummary(skill: Pick<SkillView, 'resources' | 'fileCount' | 'totalSize'>): string {
  if (skill.resources === 'dynamic') return 'dynamic: no manifest, nothing to verify against';
  const files = skill.fileCount === 1 ? '1 file' : `${skill.fileCount} files`;
  return `${files} · ${formatSize(skill.totalSize)}`;
}

/** A digest short enough for a table cell: `sha256:0123abcd…` (the whole one goes in the title). */
export function shortDigest(digest: string): string {
  return digest.length > 19 ? `${digest.slice(0, 19)}…` : digest;
}

/**
 * A `SKILL.md` cut into its frontmatter (the YAML between the opening `---` lines, shown as text) and the
 * markdown body to render. A file without frontmatter is all body.
 */
export function splitSkillMd(text: string): { frontmatter?: string; body: string } {
  const normal = text.replace(/\r\n?/g, '\n');
  const m = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(normal);
  if (m === null) return { body: normal };
  return { frontmatter: m[1]!, body: normal.slice(m[0].length).replace(/^\n+/, '') };
}

/** `allowed-tools` as the approver reads it: the string as written, a list joined, anything else as JSON. */
export function allowedToolsText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  return JSON.stringify(value);
}

/** Where a file stands in the page: not read yet, being read, or read with an outcome. */
export type FileState = 'unread' | 'reading' | 'verified' | 'refused';

export function fileState(reads: ReadonlyMap<string, SkillRead | 'reading'>, uri: string): FileState {
  const read = reads.get(uri);
  if (read === undefined) return 'unread';
  return read === 'reading' ? 'reading' : read.outcome;
}

/** The mark a step or a file state shows beside its words. */
export function mark(state: SkillStep['state'] | FileState): string {
  switch (state) {
    case 'passed':
    case 'verified':
      return '✓';
    case 'failed':
    case 'refused':
      return '✗';
    case 'reading':
      return '…';
    default:
      return '–';
  }
}

/** The step that failed, in words (`digest: the bytes hash to …`), or undefined when none did. */
export function failedStep(read: SkillRead): string | undefined {
  const step = read.steps.find((s) => s.state === 'failed');
  return step === undefined ? undefined : `${step.step}: ${step.detail}`;
}

/** Manifest files in path order, each with its depth (for indenting), `SKILL.md` first. */
export function manifestRows(files: readonly SkillFile[]): { file: SkillFile; depth: number; nested: boolean }[] {
  return [...files]
    .sort((a, b) => (a.path === 'SKILL.md' ? -1 : b.path === 'SKILL.md' ? 1 : a.path.localeCompare(b.path)))
    .map((file) => ({
      file,
      depth: file.path.split('/').length - 1,
      nested: file.path !== 'SKILL.md' && /(^|\/)SKILL\.md$/.test(file.path),
    }));
}

/** A directory path inside the skill: `''` (the root), `references`, `references/api`. */
export function childPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

export function parentPath(dir: string): string {
  const i = dir.lastIndexOf('/');
  return i < 0 ? '' : dir.slice(0, i);
}

/** The crumbs of a directory path: the root first, then each directory with the path that opens it. */
export function crumbs(dir: string): { name: string; path: string }[] {
  const out = [{ name: '(root)', path: '' }];
  let path = '';
  for (const part of dir.split('/').filter(Boolean)) {
    path = childPath(path, part);
    out.push({ name: part, path });
  }
  return out;
}

/** Whether a file reads as markdown in the page (`.md`, or a markdown mime type); other text shows as is. */
export function isMarkdownFile(uri: string, mimeType?: string): boolean {
  return /\.md$/i.test(uri.split(/[?#]/)[0] ?? '') || mimeType === 'text/markdown';
}
