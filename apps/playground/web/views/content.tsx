// Renders MCP content (text, markdown, images, audio, resource links, embedded resources) and JSON, safely.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { copyText, isObject, type Content, type ResourceContents } from '../api.js';

/* ---------- a tiny markdown renderer that builds elements (never innerHTML of server text) ---------- */

function safeHref(url: string): string | undefined {
  try {
    const u = new URL(url, location.href);
    return ['http:', 'https:', 'mailto:'].includes(u.protocol) ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** Inline markdown: `code`, **bold**, *em*, [text](url). */
function inline(text: string, depth = 0): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|_([^_]+)_|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = re.exec(text)) && n++ < 500) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(<code>{m[1]}</code>);
    else if (m[2] !== undefined) out.push(<strong>{depth < 3 ? inline(m[2], depth + 1) : m[2]}</strong>);
    else if (m[3] !== undefined || m[4] !== undefined) {
      const t = (m[3] ?? m[4])!;
      out.push(<em>{depth < 3 ? inline(t, depth + 1) : t}</em>);
    } else {
      const href = safeHref(m[6]!);
      out.push(
        href ? (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {m[5]}
          </a>
        ) : (
          m[5]
        ),
      );
    }
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => {
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    const out: ComponentChildren[] = [];
    let i = 0;
    let guard = 0;
    while (i < lines.length && guard++ < 100_000) {
      const line = lines[i]!;
      const fence = /^\s*(```|~~~)\s*([\w-]*)/.exec(line);
      if (fence) {
        const body: string[] = [];
        i++;
        while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
        i++;
        out.push(
          <pre class="code" data-lang={fence[2] || undefined}>
            <code>{body.join('\n')}</code>
          </pre>,
        );
        continue;
      }
      const h = /^(#{1,6})\s+(.*)$/.exec(line);
      if (h) {
        const Tag = `h${Math.min(6, h[1]!.length + 2)}` as 'h3';
        out.push(<Tag>{inline(h[2]!)}</Tag>);
        i++;
        continue;
      }
      if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
        const ordered = /^\s*\d/.test(line);
        const items: ComponentChildren[] = [];
        while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i]!)) {
          items.push(<li>{inline(lines[i]!.replace(/^\s*([-*+]|\d+[.)])\s+/, ''))}</li>);
          i++;
        }
        out.push(ordered ? <ol>{items}</ol> : <ul>{items}</ul>);
        continue;
      }
      if (/^\s*>/.test(line)) {
        const q: string[] = [];
        while (i < lines.length && /^\s*>/.test(lines[i]!)) q.push(lines[i++]!.replace(/^\s*>\s?/, ''));
        out.push(<blockquote>{inline(q.join(' '))}</blockquote>);
        continue;
      }
      if (/^\s*(---|\*\*\*)\s*$/.test(line)) {
        out.push(<hr />);
        i++;
        continue;
      }
      if (!line.trim()) {
        i++;
        continue;
      }
      const para: string[] = [];
      while (
        i < lines.length &&
        lines[i]!.trim() &&
        !/^(#{1,6}\s|\s*```|\s*~~~|\s*([-*+]|\d+[.)])\s+|\s*>)/.test(lines[i]!)
      ) {
        para.push(lines[i++]!);
      }
      out.push(<p>{inline(para.join(' '))}</p>);
    }
    return out;
  }, [text]);
  return <div class="markdown">{blocks}</div>;
}

/* ---------- JSON ---------- */

export function JsonView({ value, testid }: { value: unknown; testid?: string }) {
  const text = useMemo(() => {
    try {
      return JSON.stringify(value, null, 2) ?? 'undefined';
    } catch {
      return String(value);
    }
  }, [value]);
  return (
    <pre class="json" data-testid={testid}>
      {text}
    </pre>
  );
}

export function CopyButton({
  text,
  label = 'Copy JSON',
  testid,
}: {
  text: () => string;
  label?: string;
  testid?: string;
}) {
  const [done, setDone] = useState<string>('');
  return (
    <button
      type="button"
      class="small"
      data-testid={testid}
      onClick={async (e) => {
        e.stopPropagation();
        setDone((await copyText(text())) ? 'copied' : 'copy failed');
        setTimeout(() => setDone(''), 1500);
      }}
    >
      {done || label}
    </button>
  );
}

/* ---------- binary ---------- */

function b64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64.replace(/\s+/g, ''));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function dataUrl(mime: string, b64: string): string {
  return `data:${mime};base64,${b64.replace(/\s+/g, '')}`;
}

function isSafeMedia(mime: string | undefined, kind: 'image' | 'audio'): boolean {
  // SVG can carry script when opened directly; as <img> it cannot run, so it is allowed there.
  return !!mime && mime.toLowerCase().startsWith(`${kind}/`);
}

export function Download({ blob, mimeType, name }: { blob: string; mimeType?: string; name: string }) {
  const [url, setUrl] = useState<string>();
  const [size, setSize] = useState(0);
  useEffect(() => {
    let u: string | undefined;
    try {
      const bytes = b64ToBytes(blob);
      setSize(bytes.length);
      u = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/octet-stream' }));
      setUrl(u);
    } catch {
      setUrl(undefined);
    }
    return () => u && URL.revokeObjectURL(u);
  }, [blob]);
  if (!url) return <span class="error">invalid base64</span>;
  return (
    <a class="download" href={url} download={name} data-testid="download-link">
      Download {name} ({size} bytes{mimeType ? `, ${mimeType}` : ''})
    </a>
  );
}

function fileName(uri: string): string {
  const last = uri.split(/[/?#]/).filter(Boolean).pop() ?? 'resource';
  return last.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'resource';
}

/* ---------- resource contents (read results and embedded resources) ---------- */

export function ResourceBody({ c }: { c: ResourceContents }) {
  const mime = c.mimeType?.toLowerCase() ?? '';
  if (c.text !== undefined) {
    if (mime.includes('json')) {
      try {
        return <JsonView value={JSON.parse(c.text)} />;
      } catch {
        /* not JSON after all */
      }
    }
    if (mime === 'text/markdown') return <Markdown text={c.text} />;
    return <pre class="text">{c.text}</pre>;
  }
  if (c.blob !== undefined) {
    if (isSafeMedia(mime, 'image')) return <img class="media" src={dataUrl(mime, c.blob)} alt={c.uri} />;
    if (isSafeMedia(mime, 'audio')) return <audio controls src={dataUrl(mime, c.blob)} />;
    return <Download blob={c.blob} mimeType={c.mimeType} name={fileName(c.uri)} />;
  }
  return <span class="muted">(empty)</span>;
}

/* ---------- content blocks ---------- */

export function ContentBlock({ c }: { c: Content }) {
  switch (c.type) {
    case 'text': {
      const text = String(c.text ?? '');
      const md = (isObject(c._meta) && c._meta.mimeType === 'text/markdown') || looksLikeMarkdown(text);
      return (
        <div class="content content-text" data-type="text">
          {md ? <Markdown text={text} /> : <pre class="text">{text}</pre>}
        </div>
      );
    }
    case 'image': {
      const mime = typeof c.mimeType === 'string' ? c.mimeType : undefined;
      return (
        <div class="content" data-type="image">
          {mime && isSafeMedia(mime, 'image') ? (
            <img class="media" src={dataUrl(mime, String(c.data ?? ''))} alt="image content" />
          ) : (
            <span class="error">image with mime type {String(c.mimeType)}</span>
          )}
        </div>
      );
    }
    case 'audio': {
      const mime = typeof c.mimeType === 'string' ? c.mimeType : undefined;
      return (
        <div class="content" data-type="audio">
          {mime && isSafeMedia(mime, 'audio') ? (
            <audio controls src={dataUrl(mime, String(c.data ?? ''))} />
          ) : (
            <span class="error">audio with mime type {String(c.mimeType)}</span>
          )}
        </div>
      );
    }
    case 'resource_link':
      return (
        <div class="content resource-link" data-type="resource_link">
          <span class="badge">link</span> <code>{String(c.uri)}</code>
          {c.name && <span> — {String(c.title ?? c.name)}</span>}
          {c.mimeType && <span class="muted"> ({String(c.mimeType)})</span>}
          {c.description && <div class="desc">{String(c.description)}</div>}
        </div>
      );
    case 'resource': {
      const r = (c.resource ?? {}) as ResourceContents;
      return (
        <div class="content embedded" data-type="resource">
          <div>
            <span class="badge">resource</span> <code>{String(r.uri)}</code>
            {r.mimeType && <span class="muted"> ({r.mimeType})</span>}
          </div>
          <ResourceBody c={r} />
        </div>
      );
    }
    default:
      return (
        <div class="content" data-type={c.type}>
          <span class="badge">{String(c.type)}</span>
          <JsonView value={c} />
        </div>
      );
  }
}

function looksLikeMarkdown(t: string): boolean {
  return /^#{1,6}\s|^\s*[-*]\s|```|\[[^\]]+\]\([^)]+\)|\*\*[^*]+\*\*/m.test(t);
}

export function ContentList({ content }: { content?: Content[] }) {
  if (!content?.length) return null;
  return (
    <div class="content-list">
      {content.map((c, i) => (
        <ContentBlock key={i} c={c} />
      ))}
    </div>
  );
}
