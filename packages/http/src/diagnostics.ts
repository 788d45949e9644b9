// Words for HTTP answers that are not MCP: what answered, with what, and what the user can do.
import { escapeForLog } from '@mcpc/jsonrpc';

// Reason phrases of the statuses worth naming; the server's own status text is never shown (undici
// does not report it, and it is the peer's text).
const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
};

/** Longest content type shown in a message (it is the peer's text). */
const CONTENT_TYPE_CHARS = 100;

/**
 * The endpoint as messages name it: origin and path only, escaped and capped. The query and any user
 * info are left out, since they may carry a secret (an API key in `?key=`).
 */
export function endpointLabel(url: URL): string {
  return escapeForLog(`${url.origin}${url.pathname}`, 200);
}

/** `404 Not Found`, or `HTTP 599` for a status without a well-known name. */
export function statusLine(status: number): string {
  const reason = REASONS[status];
  return reason === undefined ? `HTTP ${status}` : `${status} ${reason}`;
}

/** The media type (`text/html`), escaped and capped, or `no content type`. */
export function contentTypeLabel(mediaType: string): string {
  return mediaType === '' ? 'no content type' : escapeForLog(mediaType, CONTENT_TYPE_CHARS);
}

/** A 2xx whose body is neither JSON nor SSE: a web page, a file, another API. */
export function notAnEndpoint(
  url: URL,
  status: number,
  mediaType: string,
  expected: string,
  what = 'an MCP endpoint',
): string {
  return `${endpointLabel(url)} answered ${status} ${contentTypeLabel(mediaType)}, not ${what} (expected ${expected}) — check the URL`;
}

/** A 4xx with no JSON-RPC error in it, to a message of `method` (undefined: one of our replies). */
export function refused(url: URL, status: number, mediaType: string, method: string | undefined): string {
  const to = method === undefined ? 'a reply' : escapeForLog(method, 100);
  return `${endpointLabel(url)} answered ${statusLine(status)} (${contentTypeLabel(mediaType)}) to ${to}, not a JSON-RPC answer — ${hint(status)}`;
}

function hint(status: number): string {
  switch (status) {
    case 404:
    case 410:
      return 'check the URL';
    case 405:
      return 'it does not take MCP messages there; check the URL (an HTTP+SSE server is reached at its SSE URL, often /sse)';
    case 400:
    case 406:
    case 415:
      return 'is this an MCP endpoint? check the URL';
    case 413:
      return 'the message was too large for the server';
    case 429:
      return 'the server is rate-limiting; try again later';
    default:
      return 'is this an MCP endpoint? check the URL';
  }
}

/** 401 / 403, in words that say what to do about it. */
export function unauthorized(url: URL | undefined, status: number, authConfigured: boolean): string {
  const who = url === undefined ? 'the server' : endpointLabel(url);
  if (status === 401) {
    return authConfigured
      ? `${who} answered 401 Unauthorized: it refused the credentials \`auth\` provided`
      : `${who} answered 401 Unauthorized: this server requires authorization — pass \`auth\` (see @mcpc/oauth)`;
  }
  return authConfigured
    ? `${who} answered ${statusLine(status)}: access is forbidden with these credentials (they may lack a scope this needs)`
    : `${who} answered ${statusLine(status)}: access is forbidden — the server may require authorization (pass \`auth\`, see @mcpc/oauth)`;
}
