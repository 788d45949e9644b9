// Skill entries, URIs and frontmatter as pure functions: every refusal rule, relative references, hostile YAML.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSkillEntry, fingerprint } from '../src/skills/entry.js';
import { differingFields, parseFrontmatter } from '../src/skills/frontmatter.js';
import { withLabels } from '../src/skills/labels.js';
import { parseSkillUri, resolveReference } from '../src/skills/uri.js';

const digest = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
const URI = 'skill://acme/refunds/SKILL.md';
const file = (uri: string, size = 1) => ({ uri, digest: digest(uri), size });
const entry = (over: Record<string, unknown> = {}) => ({
  uri: URI,
  frontmatter: { name: 'refunds', description: 'd' },
  resources: [file(URI)],
  ...over,
});
const problem = (raw: unknown) => readSkillEntry(raw, 's')?.problem?.reason;

describe('skill entries', () => {
  it('accepts a complete manifest, with nested files and at the limits', () => {
    const ok = readSkillEntry(entry({ resources: [file(URI), file('skill://acme/refunds/nested/SKILL.md')] }), 's');
    expect(ok?.problem).toBeUndefined();
    expect(ok?.resources).toMatchObject([{ path: 'SKILL.md' }, { path: 'nested/SKILL.md' }]);
    const many = [
      file(URI, 16 * 1024 * 1024 - 511),
      ...Array.from({ length: 511 }, (_, i) => file(`skill://acme/refunds/f${i}`)),
    ];
    expect(problem(entry({ resources: many }))).toBeUndefined();
  });

  it.each([
    ['no resources', { resources: undefined }, 'resources-missing'],
    ['resources an object', { resources: { a: 1 } }, 'resources-invalid'],
    ['resources "static"', { resources: 'static' }, 'resources-invalid'],
    ['no item for SKILL.md', { resources: [file('skill://acme/refunds/a.md')] }, 'incomplete'],
    ['a file twice', { resources: [file(URI), file(URI)] }, 'incomplete'],
    ['a file of another skill', { resources: [file(URI), file('skill://acme/other/a.md')] }, 'outside'],
    ['a ../ file', { resources: [file(URI), file('skill://acme/refunds/../other/a.md')] }, 'outside'],
    ['an encoded ../ file', { resources: [file(URI), file('skill://acme/refunds/%2e%2e/a.md')] }, 'outside'],
    ['an absolute file URI', { resources: [file(URI), file('file:///etc/passwd')] }, 'outside'],
    ['an uppercase digest', { resources: [{ ...file(URI), digest: digest(URI).toUpperCase() }] }, 'digest'],
    ['a short digest', { resources: [{ ...file(URI), digest: 'sha256:abc' }] }, 'digest'],
    ['a negative size', { resources: [{ ...file(URI), size: -1 }] }, 'digest'],
    [
      '513 files',
      { resources: [file(URI), ...Array.from({ length: 512 }, (_, i) => file(`skill://acme/refunds/f${i}`))] },
      'too-many-files',
    ],
    ['2 GiB claimed', { resources: [file(URI, 2 * 1024 ** 3)] }, 'too-large'],
    ['16 MiB + 1', { resources: [file(URI, 16 * 1024 * 1024 + 1)] }, 'too-large'],
    ['a name that is not the final segment', { frontmatter: { name: 'other', description: 'd' } }, 'name'],
    ['no description', { frontmatter: { name: 'refunds' } }, 'shape'],
  ])('refuses %s (%s)', (_what, over, reason) => {
    const raw = entry(over);
    if ((over as { resources?: unknown }).resources === undefined && 'resources' in over)
      delete (raw as { resources?: unknown }).resources;
    expect(problem(raw)).toBe(reason);
  });

  it('refuses skill URIs that are not <scheme>://<path>/SKILL.md with safe segments', () => {
    for (const uri of [
      'skill://a/../b/SKILL.md',
      'skill:///SKILL.md',
      'skill://a//b/SKILL.md',
      '/abs/b/SKILL.md',
      'skill://a/b/README.md',
      'skill://a/b%2Fc/SKILL.md',
    ])
      expect(typeof parseSkillUri(uri), uri).toBe('string');
    expect(parseSkillUri('github://owner/repo/skills/refunds/SKILL.md')).toMatchObject({
      name: 'refunds',
      root: 'github://owner/repo/skills/refunds',
    });
  });

  it('binds approvals to the (uri, digest) set, order aside; a dynamic skill has none', () => {
    const a = readSkillEntry(entry({ resources: [file(URI), file('skill://acme/refunds/x')] }), 's')!;
    const b = readSkillEntry(entry({ resources: [file('skill://acme/refunds/x'), file(URI)] }), 's')!;
    const c = readSkillEntry(
      entry({ resources: [file(URI), { ...file('skill://acme/refunds/x'), digest: digest('y') }] }),
      's',
    )!;
    expect(fingerprint(a)).toBe(fingerprint(b));
    expect(fingerprint(a)).not.toBe(fingerprint(c));
    expect(fingerprint(readSkillEntry(entry({ resources: 'dynamic' }), 's')!)).toBeUndefined();
  });

  it('labels same-named skills by server and path, and keeps unique names as they are', () => {
    const mk = (server: string, uri: string, name: string) =>
      readSkillEntry(entry({ uri, frontmatter: { name, description: 'd' }, resources: [file(uri)] }), server)!;
    const labels = withLabels([
      mk('a', 'skill://billing/refunds/SKILL.md', 'refunds'),
      mk('a', 'skill://support/refunds/SKILL.md', 'refunds'),
      mk('b', 'skill://billing/refunds/SKILL.md', 'refunds'),
      mk('b', 'skill://git/SKILL.md', 'git'),
    ]).map((e) => e.label);
    expect(labels).toEqual(['a:billing/refunds', 'a:support/refunds', 'b:billing/refunds', 'git']);
  });
});

describe('relative references', () => {
  it('resolve against the skill root, never above it, never absolute', () => {
    const root = 'skill://acme/refunds';
    expect(resolveReference(root, 'references/GUIDE.md')).toBe('skill://acme/refunds/references/GUIDE.md');
    expect(resolveReference(root, 'nested/../a.md')).toBe('skill://acme/refunds/a.md');
    for (const ref of ['../other/SKILL.md', '/etc/passwd', 'file:///etc/passwd', 'C:\\x', '', './'])
      expect(resolveReference(root, ref), ref).toBeUndefined();
  });
});

describe('frontmatter', () => {
  it('is parsed as YAML and compared field by field', async () => {
    const text = '\ufeff---\nname: refunds\ndescription: "Process: refunds"\nmetadata:\n  version: 2\n---\nbody';
    const parsed = await parseFrontmatter(text);
    expect(parsed).toEqual({ name: 'refunds', description: 'Process: refunds', metadata: { version: 2 } });
    expect(
      differingFields(parsed as Record<string, unknown>, {
        description: 'Process: refunds',
        name: 'refunds',
        metadata: { version: 2 },
      }),
    ).toEqual([]);
    expect(
      differingFields(parsed as Record<string, unknown>, {
        name: 'refunds',
        description: 'Process: refunds',
        metadata: { version: '2' },
      }),
    ).toEqual(['metadata']);
    expect(
      differingFields(parsed as Record<string, unknown>, { name: 'refunds', description: 'Process: refunds' }),
    ).toEqual(['metadata']);
  });

  it('refuses what is not a frontmatter mapping: none, duplicate keys, an alias bomb, a list', async () => {
    expect(typeof (await parseFrontmatter('# no frontmatter'))).toBe('string');
    expect(typeof (await parseFrontmatter('---\nname: a\nname: b\n---\n'))).toBe('string');
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`,
      ),
    ].join('\n');
    expect(typeof (await parseFrontmatter(`---\n${bomb}\n---\n`))).toBe('string');
    expect(typeof (await parseFrontmatter('---\n- a\n- b\n---\n'))).toBe('string');
  });
});
