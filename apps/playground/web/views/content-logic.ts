// What content looks like on the page, decided without a DOM: markdown parsed to blocks, and how each block shows.
import type { ContentBlock, ContentsView } from '../../contract/api.js';

/** An inline run of markdown: plain text, `code`, **strong**, *em*, or a link whose href is safe (else its text). */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] }
  | { kind: 'link'; text: string; href: string };

/** A block of markdown. Server text only ever becomes text nodes: no HTML is parsed. */
export type Block =
  | { kind: 'code'; lang?: string; text: string }
  | { kind: 'heading'; level: 3 | 4 | 5 | 6; children: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'quote'; children: Inline[] }
  | { kind: 'rule' }
  | { kind: 'paragraph'; children: Inline[] };

const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];

/** A link target the page may follow: http(s) or mailto, resolved against `base`; anything else is none. */
export function safeHref(url: string, base: string): string | undefined {
  try {
    const u = new URL(url, base);
    return LINK_SCHEMES.includes(u.protocol) ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** Inline markdown: `code`, **bold**, *em* / _em_, [text](url); nested at most 3 deep, at most 500 spans. */
export function parseInline(text: string, base: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|_([^_]+)_|\[([^\]]+)\]\(([^)\s]+)\)/g;
  const nested = (t: string): Inline[] => (depth < 3 ? parseInline(t, base, depth + 1) : [{ kind: 'text', text: t }]);
  let last = 0;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = re.exec(text)) && n++ < 500) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    const [, code, strong, star, under, label, url] = m;
    if (code !== undefined) out.push({ kind: 'code', text: code });
    else if (strong !== undefined) out.push({ kind: 'strong', children: nested(strong) });
    else if (star !== undefined || under !== undefined) out.push({ kind: 'em', children: nested((star ?? under)!) });
    else {
      const href = safeHref(url!, base);
      out.push(href ? { kind: 'link', text: label!, href } : { kind: 'text', text: label! });
    }
    last = re.lastIndex;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
const PARAGRAPH_END = /^(#{1,6}\s|\s*```|\s*~~~|\s*([-*+]|\d+[.)])\s+|\s*>)/;

/** Block markdown: fenced code, headings (shown two levels down), lists, quotes, rules, paragraphs. */
export function parseMarkdown(text: string, base: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const inline = (t: string) => parseInline(t, base);
  const out: Block[] = [];
  let i = 0;
  for (let guard = 0; i < lines.length && guard < 100_000; guard++) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)\s*([\w-]*)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++;
      out.push({ kind: 'code', ...(fence[2] ? { lang: fence[2] } : {}), text: body.join('\n') });
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      const level = Math.min(6, h[1]!.length + 2) as 3 | 4 | 5 | 6;
      out.push({ kind: 'heading', level, children: inline(h[2]!) });
      i++;
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: Inline[][] = [];
      while (i < lines.length && LIST_ITEM.test(lines[i]!)) items.push(inline(lines[i++]!.replace(LIST_ITEM, '')));
      out.push({ kind: 'list', ordered, items });
      continue;
    }
    if (/^\s*>/.test(line)) {
      const q: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) q.push(lines[i++]!.replace(/^\s*>\s?/, ''));
      out.push({ kind: 'quote', children: inline(q.join(' ')) });
      continue;
    }
    if (/^\s*(---|\*\*\*)\s*$/.test(line)) {
      out.push({ kind: 'rule' });
      i++;
      continue;
    }
    if (!line.trim()) {
      i++;
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !PARAGRAPH_END.test(lines[i]!)) para.push(lines[i++]!);
    out.push({ kind: 'paragraph', children: inline(para.join(' ')) });
  }
  return out;
}

/** Whether plain text reads as markdown (a heading, a list, a fence, a link or bold). */
export function looksLikeMarkdown(t: string): boolean {
  return /^#{1,6}\s|^\s*[-*]\s|```|\[[^\]]+\]\([^)]+\)|\*\*[^*]+\*\*/m.test(t);
}

/** Whether a mime type may be shown inline as that kind of media (SVG as <img> cannot run script). */
export function isSafeMedia(mime: string | undefined, kind: 'image' | 'audio'): boolean {
  return !!mime && mime.toLowerCase().startsWith(`${kind}/`);
}

export function dataUrl(mime: string, b64: string): string {
  return `data:${mime};base64,${b64.replace(/\s+/g, '')}`;
}

/** A download name from a URI: its last path segment (not its query), made safe, at most 80 characters. */
export function fileName(uri: string): string {
  const path = uri.split(/[?#]/)[0] ?? '';
  const last = path.split('/').filter(Boolean).pop() ?? 'resource';
  return last.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'resource';
}

/** How a resource's contents show: JSON parsed, markdown, text, inline media, a download, or nothing. */
export type ContentsShow =
  | { kind: 'json'; value: unknown }
  | { kind: 'markdown'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'image' | 'audio'; src: string }
  | { kind: 'download'; blob: string; name: string; mimeType?: string }
  | { kind: 'empty' };

export function showContents(c: ContentsView): ContentsShow {
  const mime = c.mimeType?.toLowerCase() ?? '';
  if ('text' in c && typeof c.text === 'string') {
    if (mime.includes('json')) {
      try {
        return { kind: 'json', value: JSON.parse(c.text) };
      } catch {
        /* not JSON after all */
      }
    }
    return mime === 'text/markdown' ? { kind: 'markdown', text: c.text } : { kind: 'text', text: c.text };
  }
  if ('blob' in c && typeof c.blob === 'string') {
    if (isSafeMedia(mime, 'image')) return { kind: 'image', src: dataUrl(mime, c.blob) };
    if (isSafeMedia(mime, 'audio')) return { kind: 'audio', src: dataUrl(mime, c.blob) };
    return { kind: 'download', blob: c.blob, name: fileName(c.uri), ...(c.mimeType ? { mimeType: c.mimeType } : {}) };
  }
  return { kind: 'empty' };
}

/** How a content block shows; a type this page does not know is shown as JSON under its type name. */
export type BlockShow =
  | { kind: 'markdown' | 'text'; text: string }
  | { kind: 'image' | 'audio'; src: string }
  | { kind: 'bad-media'; media: 'image' | 'audio'; mimeType: string }
  | { kind: 'link'; uri: string; label?: string; mimeType?: string; description?: string }
  | { kind: 'resource'; contents: ContentsView }
  | { kind: 'other'; type: string; value: unknown };

export function showBlock(block: ContentBlock): BlockShow {
  switch (block.type) {
    case 'text': {
      const text = String(block.text ?? '');
      const md = block._meta?.mimeType === 'text/markdown' || looksLikeMarkdown(text);
      return { kind: md ? 'markdown' : 'text', text };
    }
    case 'image':
    case 'audio': {
      const mime = typeof block.mimeType === 'string' ? block.mimeType : '';
      return isSafeMedia(mime, block.type)
        ? { kind: block.type, src: dataUrl(mime, String(block.data ?? '')) }
        : { kind: 'bad-media', media: block.type, mimeType: String(block.mimeType) };
    }
    case 'resource_link':
      return {
        kind: 'link',
        uri: String(block.uri),
        ...(block.name ? { label: String(block.title ?? block.name) } : {}),
        ...(block.mimeType ? { mimeType: String(block.mimeType) } : {}),
        ...(block.description ? { description: String(block.description) } : {}),
      };
    case 'resource':
      return { kind: 'resource', contents: block.resource ?? ({ uri: '' } as ContentsView) };
    default: {
      const other: { type?: unknown } = block;
      return { kind: 'other', type: String(other.type), value: block };
    }
  }
}
