// Finding what a call names: a name on several servers, nothing by that name, an unknown server, a list's bad pages.
//
// A list's pages are bad when they do not add up.
import { McpError, escapeForLog, escapePeerText } from '@mcpc/jsonrpc';
import { brand } from '../brand.js';
import { ClientErrorCode } from '../codes.js';

/** A name without `{ server }` matched items on several servers; the client does not guess. */
export class AmbiguousNameError extends McpError {
  static {
    brand(this, 'AmbiguousNameError');
  }
  readonly kind: 'tool' | 'prompt' | 'resource' | 'skill';
  /** The tool or prompt name, the resource URI, or the skill name. */
  readonly item: string;
  /** The servers that offer it (for a skill: the disambiguated labels of the skills it could mean). */
  readonly candidates: readonly string[];

  constructor(kind: 'tool' | 'prompt' | 'resource' | 'skill', name: string, candidates: readonly string[]) {
    super(
      `${kind} "${name}" is offered by ${candidates.length} servers (${candidates.map((c) => `"${c}"`).join(', ')}); ` +
        `pass { server } to choose one`,
      { code: ClientErrorCode.AmbiguousName },
    );
    this.kind = kind;
    this.item = name;
    this.candidates = candidates;
  }
}

/** No server offers the tool, prompt or resource asked for. */
export class NotFoundError extends McpError {
  static {
    brand(this, 'NotFoundError');
  }
  readonly kind: 'tool' | 'prompt' | 'resource' | 'server' | 'skill';
  /** The name (or URI) that was not found. */
  readonly item: string;

  constructor(
    kind: 'tool' | 'prompt' | 'resource' | 'server' | 'skill',
    name: string,
    message: string,
    code: ClientErrorCode = ClientErrorCode.NotFound,
  ) {
    super(message, { code });
    this.kind = kind;
    this.item = name;
  }
}

export class ToolNotFoundError extends NotFoundError {
  static {
    brand(this, 'ToolNotFoundError');
  }
  /** The servers whose tool lists were searched. */
  readonly servers: readonly string[];
  /** Listed tool names close to the one asked for (server text: escape before printing). */
  readonly suggestions: readonly string[];
  constructor(name: string, servers: readonly string[], suggestions: readonly string[] = []) {
    const close =
      suggestions.length === 0
        ? ''
        : `; did you mean ${suggestions.map((s) => `"${escapePeerText(s, 64)}"`).join(', ')}?`;
    super(
      'tool',
      name,
      `no server offers a tool named "${escapePeerText(name, 200)}" (searched ${list(servers)})${close}; call listTools() to see what is offered`,
      ClientErrorCode.ToolNotFound,
    );
    this.servers = servers;
    this.suggestions = suggestions;
  }
}

export class PromptNotFoundError extends NotFoundError {
  static {
    brand(this, 'PromptNotFoundError');
  }
  constructor(name: string, servers: readonly string[]) {
    super(
      'prompt',
      name,
      `no server offers a prompt named "${name}" (searched ${list(servers)}); call listPrompts() to see what is offered`,
      ClientErrorCode.PromptNotFound,
    );
  }
}

export class ResourceNotFoundError extends NotFoundError {
  static {
    brand(this, 'ResourceNotFoundError');
  }
  /** When the server itself said so (-32602 with the URI, or the older -32002): its `ServerError`. */
  override readonly cause: unknown;
  /** The JSON-RPC code the server answered with, when it did. */
  readonly rpcCode: number | undefined;
  constructor(
    uri: string,
    servers: readonly string[],
    answered?: { readonly server: string; readonly error: unknown },
  ) {
    super(
      'resource',
      uri,
      answered !== undefined
        ? `server "${answered.server}" has no resource "${escapeForLog(uri, 200)}"`
        : `no server lists the resource "${uri}" or a template that matches it (searched ${list(servers)}); pass { server } to read it from a specific server`,
      ClientErrorCode.ResourceNotFound,
    );
    this.cause = answered?.error;
    const code = (answered?.error as { rpcCode?: unknown } | undefined)?.rpcCode;
    this.rpcCode = typeof code === 'number' ? code : undefined;
  }
}

/** `{ server }` named a server the client does not have. */
export class UnknownServerError extends NotFoundError {
  static {
    brand(this, 'UnknownServerError');
  }
  constructor(name: string, servers: readonly string[]) {
    super(
      'server',
      name,
      `the client has no server named "${name}" (it has ${list(servers)})`,
      ClientErrorCode.UnknownServer,
    );
  }
}

/**
 * Following `nextCursor` did not end: the server repeated a cursor (a loop), or the list ran past the
 * page bound (or, for `skills/list`, the item bound). `items` holds what was collected before the client stopped.
 */
export class PaginationError extends McpError {
  static {
    brand(this, 'PaginationError');
  }
  readonly reason: 'cursor-loop' | 'page-limit' | 'item-limit';
  readonly server: string;
  readonly method: string;
  readonly pages: number;
  readonly items: readonly unknown[];

  constructor(
    reason: 'cursor-loop' | 'page-limit' | 'item-limit',
    server: string,
    method: string,
    pages: number,
    items: readonly unknown[],
  ) {
    super(
      reason === 'cursor-loop'
        ? `server "${server}" returned a nextCursor it had already returned, after ${pages} pages of ${method}: the list would never end`
        : reason === 'item-limit'
          ? `${method} on server "${server}" ran past ${items.length} items in ${pages} pages; raise skills.maxListItems if the list is really that long`
          : `${method} on server "${server}" ran past ${pages} pages; raise the client's maxPages if the list is really that long`,
      { code: reason === 'cursor-loop' ? ClientErrorCode.PaginationLoop : ClientErrorCode.PaginationLimit },
    );
    this.reason = reason;
    this.server = server;
    this.method = method;
    this.pages = pages;
    this.items = items;
  }
}

const list = (servers: readonly string[]): string =>
  servers.length === 0 ? 'no servers' : servers.map((s) => `"${s}"`).join(', ');
