// How content shows (web/views/content-logic.ts), without a DOM: markdown as blocks, media, downloads, unknown types.
import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../../contract/api.js';
import {
  fileName,
  looksLikeMarkdown,
  parseInline,
  parseMarkdown,
  safeHref,
  showBlock,
  showContents,
} from '../../web/views/content-logic.js';

const BASE = 'http://127.0.0.1:4000/';

describe('markdown', () => {
  it('parses blocks: fences, headings two levels down, lists, quotes, rules, paragraphs', () => {
    const text = '# Title\n\n```js\nlet a = 1;\n```\n- one\n- two\n\n1. first\n> quoted\n---\nplain\ntext';
    expect(parseMarkdown(text, BASE).map((b) => b.kind)).toEqual([
      'heading',
      'code',
      'list',
      'list',
      'quote',
      'rule',
      'paragraph',
    ]);
    const [heading, code, bullets, numbers] = parseMarkdown(text, BASE);
    expect(heading).toMatchObject({ level: 3 });
    expect(code).toEqual({ kind: 'code', lang: 'js', text: 'let a = 1;' });
    expect(bullets).toMatchObject({ ordered: false, items: [[{ text: 'one' }], [{ text: 'two' }]] });
    expect(numbers).toMatchObject({ ordered: true });
  });

  it('keeps HTML as text: nothing in server text becomes markup', () => {
    const [p] = parseMarkdown('<img src=x onerror=alert(1)> **bold**', BASE);
    expect(p).toEqual({
      kind: 'paragraph',
      children: [
        { kind: 'text', text: '<img src=x onerror=alert(1)> ' },
        { kind: 'strong', children: [{ kind: 'text', text: 'bold' }] },
      ],
    });
  });

  it('links only http(s) and mailto targets; any other link is its text', () => {
    expect(parseInline('[a](https://example.com) [b](javascript:void) [c](mailto:x@y.z)', BASE)).toEqual([
      { kind: 'link', text: 'a', href: 'https://example.com/' },
      { kind: 'text', text: ' ' },
      { kind: 'text', text: 'b' },
      { kind: 'text', text: ' ' },
      { kind: 'link', text: 'c', href: 'mailto:x@y.z' },
    ]);
    expect(safeHref('data:text/html,x', BASE)).toBeUndefined();
    expect(safeHref('/relative', BASE)).toBe('http://127.0.0.1:4000/relative');
  });

  it('nests inline marks at most 3 deep', () => {
    const deep = parseInline('**a *b **c *d***', BASE);
    expect(JSON.stringify(deep).length).toBeLessThan(1000);
  });

  it('tells markdown from plain text', () => {
    expect(looksLikeMarkdown('# heading')).toBe(true);
    expect(looksLikeMarkdown('see [docs](https://x)')).toBe(true);
    expect(looksLikeMarkdown('3 * 4 = 12')).toBe(false);
  });
});

describe('showBlock', () => {
  it.each<[ContentBlock, string]>([
    [{ type: 'text', text: 'plain' }, 'text'],
    [{ type: 'text', text: 'plain', _meta: { mimeType: 'text/markdown' } }, 'markdown'],
    [{ type: 'text', text: '## looks like it' }, 'markdown'],
    [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }, 'image'],
    [{ type: 'image', data: 'AAAA', mimeType: 'text/html' }, 'bad-media'],
    [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }, 'audio'],
    [{ type: 'resource_link', uri: 'demo://x', name: 'x' }, 'link'],
    [{ type: 'resource', resource: { uri: 'demo://y', text: 'y' } }, 'resource'],
  ])('%j → %s', (block, kind) => {
    expect(showBlock(block).kind).toBe(kind);
  });

  it('shows media as a data URL of its own type only', () => {
    expect(showBlock({ type: 'image', data: 'AA\nAA', mimeType: 'image/png' })).toEqual({
      kind: 'image',
      src: 'data:image/png;base64,AAAA',
    });
  });

  it('shows a content type it does not know as JSON under its type name', () => {
    const future = { type: 'hologram', depth: 3 } as unknown as ContentBlock;
    expect(showBlock(future)).toEqual({ kind: 'other', type: 'hologram', value: future });
  });
});

describe('showContents', () => {
  it('parses JSON text, renders markdown, keeps other text as text', () => {
    expect(showContents({ uri: 'a', mimeType: 'application/json', text: '{"a":1}' })).toEqual({
      kind: 'json',
      value: { a: 1 },
    });
    expect(showContents({ uri: 'a', mimeType: 'application/json', text: 'not json' }).kind).toBe('text');
    expect(showContents({ uri: 'a', mimeType: 'text/markdown', text: '# x' }).kind).toBe('markdown');
  });

  it('shows images and audio inline, anything else binary as a download with a safe name', () => {
    expect(showContents({ uri: 'demo://logo.png', mimeType: 'image/png', blob: 'AAAA' }).kind).toBe('image');
    expect(showContents({ uri: 'demo://dir/a b<c>.zip?v=1', mimeType: 'application/zip', blob: 'AAAA' })).toEqual({
      kind: 'download',
      blob: 'AAAA',
      name: 'a_b_c_.zip',
      mimeType: 'application/zip',
    });
    expect(fileName('')).toBe('resource');
  });
});
