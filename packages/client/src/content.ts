// Helpers over result content: the text and resource-link type guards, and `textOf`.
import type { CallToolResult } from './types/entities.js';
import type { ContentBlock, ResourceLink, TextContent } from './types/protocol.js';

export const isTextContent = (block: ContentBlock): block is TextContent =>
  block.type === 'text' && typeof (block as TextContent).text === 'string';

export const isResourceLink = (block: ContentBlock): block is ResourceLink => block.type === 'resource_link';

/** The text blocks of a result (or any content list), joined with newlines. */
export function textOf(
  result: CallToolResult | { readonly content: readonly ContentBlock[] } | readonly ContentBlock[],
): string {
  const blocks = Array.isArray(result)
    ? (result as readonly ContentBlock[])
    : (result as { content: readonly ContentBlock[] }).content;
  let out = '';
  for (const block of blocks) if (isTextContent(block)) out = out.length === 0 ? block.text : `${out}\n${block.text}`;
  return out;
}
