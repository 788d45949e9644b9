// Resources: reading list items, templates and `resources/read` contents, matching URI templates, spotting "not found".
import { ErrorCode, JsonRpcErrorCode, ServerError } from '@mcpc/jsonrpc';
import { ValidationError } from '../errors.js';
import { copyOwn } from './copy.js';
import type { ListKind } from '../cache/pagination.js';
import type { Resource, ResourceTemplate } from '../types/entities.js';
import type { BlobResourceContentsData, TextResourceContentsData } from '../types/protocol.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readResourceItem(raw: unknown, server: string): Resource | string {
  if (!isObject(raw)) return 'not an object';
  if (typeof raw.uri !== 'string' || raw.uri.length === 0) return 'no string "uri"';
  // `name` is required, but a resource is still usable by its URI.
  const resource = copyOwn(raw);
  if (typeof raw.name !== 'string') resource.name = raw.uri;
  resource.server = server;
  return resource as unknown as Resource;
}

export function readTemplate(raw: unknown, server: string): ResourceTemplate | string {
  if (!isObject(raw)) return 'not an object';
  if (typeof raw.uriTemplate !== 'string' || raw.uriTemplate.length === 0) return 'no string "uriTemplate"';
  const template = copyOwn(raw);
  if (typeof raw.name !== 'string') template.name = raw.uriTemplate;
  template.server = server;
  return template as unknown as ResourceTemplate;
}

export const RESOURCES: ListKind<Resource> = {
  method: 'resources/list',
  key: 'resources',
  noun: 'resource',
  read: readResourceItem,
};
export const TEMPLATES: ListKind<ResourceTemplate> = {
  method: 'resources/templates/list',
  key: 'resourceTemplates',
  noun: 'resource template',
  read: readTemplate,
};

interface ContentsMethods {
  /** `text` holds the contents. */
  isText(): this is TextResourceContents;
  /** `blob` holds the contents, base64-encoded. */
  isBinary(): this is BlobResourceContents;
  /** The contents as bytes: `blob` decoded, or `text` encoded as UTF-8. */
  bytes(): Uint8Array;
}

export type TextResourceContents = TextResourceContentsData & ContentsMethods;
export type BlobResourceContents = BlobResourceContentsData & ContentsMethods;
/** One item of a `resources/read` result. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

const METHODS = ['isText', 'isBinary', 'bytes'] as const;

class Contents implements ContentsMethods {
  declare readonly uri: string;
  declare readonly text?: string;
  declare readonly blob?: string;

  constructor(raw: Record<string, unknown>) {
    Object.assign(this, raw);
    // A server-sent field must not shadow a helper.
    for (const m of METHODS) if (Object.hasOwn(this, m)) delete (this as Record<string, unknown>)[m];
  }

  isText(): this is TextResourceContents {
    return typeof this.text === 'string';
  }

  isBinary(): this is BlobResourceContents {
    return typeof this.text !== 'string' && typeof this.blob === 'string';
  }

  bytes(): Uint8Array {
    if (typeof this.text === 'string') return new TextEncoder().encode(this.text);
    const binary = atob(this.blob ?? '');
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }
}

/** A `resources/read` result's contents; items with neither `text` nor `blob` are dropped into `dropped`. */
export function readContents(raw: unknown, server: string, uri: string, dropped: string[]): ResourceContents[] {
  if (!isObject(raw) || !Array.isArray(raw.contents)) {
    throw new ValidationError(`server "${server}" answered resources/read without a "contents" array`, {
      server,
      method: 'resources/read',
    });
  }
  const out: ResourceContents[] = [];
  raw.contents.forEach((item: unknown, i: number) => {
    if (!isObject(item)) return void dropped.push(`contents #${i}: not an object`);
    if (typeof item.text !== 'string' && typeof item.blob !== 'string')
      return void dropped.push(`contents #${i}: neither "text" nor "blob" is a string`);
    if (typeof item.uri !== 'string') item.uri = uri;
    out.push(new Contents(item) as unknown as ResourceContents);
  });
  return out;
}

/**
 * Whether `uri` could come from an RFC 6570 `template`: the literal parts must appear in order, the first
 * as a prefix and the last as a suffix. Linear in the lengths (no regular expression, so a hostile
 * template cannot make matching slow); used only to route a read, so an approximate match suffices.
 */
export function templateMatches(template: string, uri: string): boolean {
  const literals = template.split(/\{[^}]*\}/);
  if (literals.length === 1) return template === uri;
  const first = literals[0]!;
  const last = literals[literals.length - 1]!;
  if (!uri.startsWith(first) || uri.length < first.length + last.length || !uri.endsWith(last)) return false;
  let at = first.length;
  const end = uri.length - last.length;
  for (let i = 1; i < literals.length - 1; i++) {
    const literal = literals[i]!;
    if (literal.length === 0) continue;
    const found = uri.indexOf(literal, at);
    if (found < 0 || found + literal.length > end) return false;
    at = found + literal.length;
  }
  return true;
}

/**
 * "Resource not found" (SEP-2164, MCP 2026-07-28: -32602 with `data.uri`), as servers send it:
 * - -32602 whose `data.uri` is the URI (the spec's form);
 * - -32602 with no `data.uri` whose message says "not found" (the official TypeScript SDK before
 *   SEP-2164, and server-everything: "Resource <uri> not found");
 * - -32002, which earlier revisions recommended and the C#, Rust, Java, Go and PHP SDKs send;
 * - -32601 whose message names the URI (fastmcp: "Unknown resource: <uri>"); a bare "Method not found"
 *   names no URI and stays what it is.
 * A -32602 naming another URI, or one about something else, is not.
 */
export function isResourceNotFound(error: unknown, uri: string): boolean {
  if (!(error instanceof ServerError) || error.code !== JsonRpcErrorCode.ServerError) return false;
  if (error.rpcCode === ErrorCode.ResourceNotFound) return true;
  const message = typeof error.serverMessage === 'string' ? error.serverMessage : '';
  if (error.rpcCode === ErrorCode.InvalidParams) {
    const named = (error.data as { uri?: unknown } | undefined)?.uri;
    if (named !== undefined) return named === uri;
    return /\bnot found\b/i.test(message);
  }
  return error.rpcCode === ErrorCode.MethodNotFound && uri.length > 0 && message.includes(uri);
}
