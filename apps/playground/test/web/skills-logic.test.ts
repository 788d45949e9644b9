// The skills view's decisions (web/views/skills-logic.ts) in Node: sizes, summaries, SKILL.md split, states, paths.
import { describe, expect, it } from 'vitest';
import type { SkillFile, SkillRead } from '../../contract/api.js';
import { parseMarkdown } from '../../web/views/content-logic.js';
import {
  allowedToolsText,
  childPath,
  crumbs,
  failedStep,
  fileState,
  formatSize,
  isMarkdownFile,
  manifestRows,
  mark,
  parentPath,
  shortDigest,
  skillSummary,
  splitSkillMd,
} from '../../web/views/skills-logic.js';

const digest = `sha256:${'ab'.repeat(32)}`;
const file = (path: string, size = 10): SkillFile => ({ uri: `skill://s/${path}`, path, digest, size });

describe('sizes and summaries', () => {
  it('formats bytes, KiB and MiB', () => {
    expect([formatSize(0), formatSize(1023), formatSize(1536), formatSize(3 * 1024 * 1024)]).toEqual([
      '0 B',
      '1023 B',
      '1.5 KiB',
      '3.0 MiB',
    ]);
    expect(formatSize(-1)).toBe('?');
  });

  it('summarises a listing row: file count and total size, or dynamic', () => {
    expect(skillSummary({ resources: [file('SKILL.md')], fileCount: 1, totalSize: 388 })).toBe('1 file · 388 B');
    expect(skillSummary({ resources: [], fileCount: 5, totalSize: 2048 })).toBe('5 files · 2.0 KiB');
    expect(skillSummary({ resources: 'dynamic', fileCount: 0, totalSize: 0 })).toMatch(/^dynamic/);
  });

  it('shortens a digest for a cell', () => {
    expect(shortDigest(digest)).toBe(`sha256:${'ab'.repeat(6)}…`);
    expect(shortDigest('sha256:ab')).toBe('sha256:ab');
  });
});

describe('SKILL.md', () => {
  it('splits the frontmatter from the body', () => {
    const text = '---\r\nname: x\r\ndescription: y\r\n---\r\n\r\n# Title\n\nBody.\n';
    expect(splitSkillMd(text)).toEqual({ frontmatter: 'name: x\ndescription: y', body: '# Title\n\nBody.\n' });
    expect(splitSkillMd('# No frontmatter')).toEqual({ body: '# No frontmatter' });
  });

  it('renders the body through the content view’s markdown: a <script> stays text, a javascript: link is no link', () => {
    const { body } = splitSkillMd('---\nname: x\n---\n<script>alert(1)</script> [go](javascript:alert(1))\n');
    const blocks = parseMarkdown(body, 'http://127.0.0.1/');
    expect(blocks.map((b) => b.kind)).toEqual(['paragraph']);
    const children = blocks[0]?.kind === 'paragraph' ? blocks[0].children : [];
    expect(children.some((c) => c.kind === 'link')).toBe(false);
    expect(children[0]).toEqual({ kind: 'text', text: '<script>alert(1)</script> ' });
  });

  it('shows allowed-tools as written, a list joined, anything else as JSON, and nothing when absent', () => {
    expect(allowedToolsText('Bash(git:*) Read')).toBe('Bash(git:*) Read');
    expect(allowedToolsText(['Read', 'Write'])).toBe('Read, Write');
    expect(allowedToolsText({ all: true })).toBe('{"all":true}');
    expect([allowedToolsText(undefined), allowedToolsText('')]).toEqual([undefined, undefined]);
  });
});

describe('files and steps', () => {
  const read = (outcome: SkillRead['outcome'], failed?: 'digest'): SkillRead => ({
    uri: 'skill://s/SKILL.md',
    outcome,
    steps: [
      { step: 'size', state: 'passed', detail: '10 bytes' },
      { step: 'digest', state: failed ? 'failed' : 'passed', detail: failed ? 'the bytes hash to x' : 'matches' },
    ],
  });

  it("tells each file's state from the reads made", () => {
    const reads = new Map<string, SkillRead | 'reading'>([
      ['a', 'reading'],
      ['b', read('verified')],
      ['c', read('refused', 'digest')],
    ]);
    expect(['a', 'b', 'c', 'd'].map((u) => fileState(reads, u))).toEqual(['reading', 'verified', 'refused', 'unread']);
    expect(['passed', 'failed', 'skipped', 'reading', 'unread'].map((s) => mark(s as never))).toEqual([
      '✓',
      '✗',
      '–',
      '…',
      '–',
    ]);
  });

  it('names the failed step', () => {
    expect(failedStep(read('refused', 'digest'))).toBe('digest: the bytes hash to x');
    expect(failedStep(read('verified'))).toBeUndefined();
  });

  it('orders manifest rows SKILL.md first, by path, with depth and nested skills marked', () => {
    const rows = manifestRows([file('scripts/run.sh'), file('hotfix/SKILL.md'), file('SKILL.md'), file('a.md')]);
    expect(rows.map((r) => [r.file.path, r.depth, r.nested])).toEqual([
      ['SKILL.md', 0, false],
      ['a.md', 0, false],
      ['hotfix/SKILL.md', 1, true],
      ['scripts/run.sh', 1, false],
    ]);
  });

  it('walks directory paths and their crumbs', () => {
    expect(childPath('', 'references')).toBe('references');
    expect(childPath('references', 'api')).toBe('references/api');
    expect([parentPath('references/api'), parentPath('references')]).toEqual(['references', '']);
    expect(crumbs('references/api')).toEqual([
      { name: '(root)', path: '' },
      { name: 'references', path: 'references' },
      { name: 'api', path: 'references/api' },
    ]);
  });

  it('renders .md files and markdown mime types as markdown, other files as text', () => {
    expect(isMarkdownFile('skill://s/references/FORMS.md')).toBe(true);
    expect(isMarkdownFile('skill://s/data/x', 'text/markdown')).toBe(true);
    expect(isMarkdownFile('skill://s/scripts/fill.py', 'text/plain')).toBe(false);
  });
});
