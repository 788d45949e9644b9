// Renders MCP content (text, markdown, images, audio, resource links, embedded resources) and JSON, safely.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { copyText, type ContentBlock as Content, type ContentsView } from '../api.js';
import { parseMarkdown, showBlock, showContents, type Block, type Inline } from './content-logic.js';

/* ---------- markdown as elements (never innerHTML of server text): parsed in content-logic.ts ---------- */

function Inlines({ list }: { list: Inline[] }) {
  return (
    <>
      {list.map((n, i) => {
        switch (n.kind) {
          case 'text':
            return n.text;
          case 'code':
            return <code key={i}>{n.text}</code>;
          case 'strong':
            return (
              <strong key={i}>
                <Inlines list={n.children} />
              </strong>
            );
          case 'em':
            return (
              <em key={i}>
                <Inlines list={n.children} />
              </em>
            );
          case 'link':
            return (
              <a key={i} href={n.href} target="_blank" rel="noopener noreferrer">
                {n.text}
              </a>
            );
        }
      })}
    </>
  );
}

function MarkdownBlock({ block }: { block: Block }) {
  switch (block.kind) {
    case 'code':
      return (
        <pre class="code" data-lang={block.lang}>
          <code>{block.text}</code>
        </pre>
      );
    case 'heading': {
      const Tag = `h${block.level}` as 'h3';
      return (
        <Tag>
          <Inlines list={block.children} />
        </Tag>
      );
    }
    case 'list': {
      const items = block.items.map((item, i) => (
        <li key={i}>
          <Inlines list={item} />
        </li>
      ));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case 'quote':
      return (
        <blockquote>
          <Inlines list={block.children} />
        </blockquote>
      );
    case 'rule':
      return <hr />;
    case 'paragraph':
      return (
        <p>
          <Inlines list={block.children} />
        </p>
      );
  }
}

/** `base`: what relative links resolve against (a skill's root: they are then no links, as skill:// is not followed). */
export function Markdown({ text, base }: { text: string; base?: string }) {
  const blocks = useMemo(() => parseMarkdown(text, base ?? location.href), [text, base]);
  return (
    <div class="markdown">
      {blocks.map((b, i) => (
        <MarkdownBlock key={i} block={b} />
      ))}
    </div>
  );
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

/* ---------- resource contents (read results and embedded resources) ---------- */

export function ResourceBody({ c }: { c: ContentsView }) {
  const show = showContents(c);
  switch (show.kind) {
    case 'json':
      return <JsonView value={show.value} />;
    case 'markdown':
      return <Markdown text={show.text} />;
    case 'text':
      return <pre class="text">{show.text}</pre>;
    case 'image':
      return <img class="media" src={show.src} alt={c.uri} />;
    case 'audio':
      return <audio controls src={show.src} />;
    case 'download':
      return <Download blob={show.blob} mimeType={show.mimeType} name={show.name} />;
    case 'empty':
      return <span class="muted">(empty)</span>;
  }
}

/* ---------- content blocks ---------- */

export function ContentBlock({ c }: { c: Content }) {
  const show = showBlock(c);
  switch (show.kind) {
    case 'text':
    case 'markdown':
      return (
        <div class="content content-text" data-type="text">
          {show.kind === 'markdown' ? <Markdown text={show.text} /> : <pre class="text">{show.text}</pre>}
        </div>
      );
    case 'image':
      return (
        <div class="content" data-type="image">
          <img class="media" src={show.src} alt="image content" />
        </div>
      );
    case 'audio':
      return (
        <div class="content" data-type="audio">
          <audio controls src={show.src} />
        </div>
      );
    case 'bad-media':
      return (
        <div class="content" data-type={show.media}>
          <span class="error">
            {show.media} with mime type {show.mimeType}
          </span>
        </div>
      );
    case 'link':
      return (
        <div class="content resource-link" data-type="resource_link">
          <span class="badge">link</span> <code>{show.uri}</code>
          {show.label && <span> — {show.label}</span>}
          {show.mimeType && <span class="muted"> ({show.mimeType})</span>}
          {show.description && <div class="desc">{show.description}</div>}
        </div>
      );
    case 'resource':
      return (
        <div class="content embedded" data-type="resource">
          <div>
            <span class="badge">resource</span> <code>{String(show.contents.uri)}</code>
            {show.contents.mimeType && <span class="muted"> ({show.contents.mimeType})</span>}
          </div>
          <ResourceBody c={show.contents} />
        </div>
      );
    case 'other':
      return (
        <div class="content" data-type={show.type}>
          <span class="badge">{show.type}</span>
          <JsonView value={show.value} />
        </div>
      );
  }
}

export function ContentList({ content }: { content?: readonly Content[] }) {
  if (!content?.length) return null;
  return (
    <div class="content-list">
      {content.map((c, i) => (
        <ContentBlock key={i} c={c} />
      ))}
    </div>
  );
}
