// Server content for people: text as text, everything binary described (never raw bytes to a terminal).
import type { CallToolResult, ContentBlock, GetPromptResult } from '@mcpc/client';
import type { Output } from './output.js';
import { safe } from './output.js';

/** Bytes in a base64 string, without decoding it. */
const base64Bytes = (data: string): number =>
  Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

/** One content block as lines of text. */
export function contentLines(block: ContentBlock, out: Output): string[] {
  switch (block.type) {
    case 'text':
      return [safe(block.text, 1_000_000)];
    case 'image':
    case 'audio':
      return [out.style('dim', `[${block.type} ${safe(block.mimeType, 100)}, ${base64Bytes(block.data)} bytes]`)];
    case 'resource_link':
      return [out.style('cyan', `→ ${safe(block.uri, 500)}`) + (block.name ? ` (${safe(block.name, 200)})` : '')];
    case 'resource': {
      const r = block.resource as { uri: string; text?: string; blob?: string; mimeType?: string };
      if (typeof r.text === 'string')
        return [out.style('dim', `[resource ${safe(r.uri, 500)}]`), safe(r.text, 1_000_000)];
      return [
        out.style(
          'dim',
          `[resource ${safe(r.uri, 500)}: ${r.mimeType ?? 'binary'}, ${base64Bytes(r.blob ?? '')} bytes]`,
        ),
      ];
    }
    default:
      return [out.style('dim', `[${safe((block as { type?: unknown }).type, 50)} content]`)];
  }
}

/** A tool result: its content, then its structured content when no text says it. */
export function printCallResult(result: CallToolResult, out: Output): void {
  for (const block of result.content) for (const line of contentLines(block, out)) out.line(line);
  const hasText = result.content.some((b) => b.type === 'text');
  if (result.structuredContent !== undefined && !hasText) out.line(JSON.stringify(result.structuredContent, null, 2));
}

/** A prompt's messages, each under its role. */
export function printPrompt(result: GetPromptResult, out: Output): void {
  if (result.description !== undefined) out.line(out.style('dim', safe(result.description, 2_000)));
  for (const message of result.messages) {
    out.line(out.style('bold', `[${message.role}]`));
    for (const line of contentLines(message.content as ContentBlock, out)) out.line(line);
  }
}
