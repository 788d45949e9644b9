// What the legacy SSE transport makes of the server's HTTP answers and of its own request headers.
//
// The endpoint event's URL, and refusals as typed errors with a message that says what the URL is.
import {
  HttpError,
  UnauthorizedError,
  contentTypeLabel,
  endpointLabel,
  notAnEndpoint,
  statusLine,
  type HeadersOption,
} from '@mcpc/http';
import { EndpointOriginError } from './errors.js';
import type { ResolvedSseOptions } from './options.js';

/** The media type of a `Content-Type` (`text/event-stream`), lower case; '' when there is none. */
export const mediaTypeOf = (contentType: string | undefined): string =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** The URL an `endpoint` event names, which must stay on the stream's origin. */
export function endpointFrom(streamUrl: URL, data: string): URL | Error {
  let url: URL;
  try {
    url = new URL(data.trim(), streamUrl);
  } catch {
    return new HttpError(200, 'the server sent an endpoint event that is not a URL');
  }
  if (url.origin !== streamUrl.origin) return new EndpointOriginError(streamUrl.origin);
  return url;
}

/** The GET did not open an SSE stream: a web page, a Streamable HTTP endpoint, a wrong path. */
export function noStream(url: URL, status: number, type: string): string {
  if (status >= 200 && status < 300)
    return notAnEndpoint(url, status, type, 'text/event-stream', 'an HTTP+SSE endpoint');
  return `${endpointLabel(url)} answered ${statusLine(status)} (${contentTypeLabel(type)}) to the GET that opens the SSE stream, not an HTTP+SSE endpoint — check the URL`;
}

export function unauthorized(
  options: ResolvedSseOptions,
  status: number,
  wwwAuthenticate: string | undefined,
  url: URL,
): UnauthorizedError {
  const configured = options.headers;
  const fromHeaders =
    typeof configured === 'object' && Object.keys(configured).some((name) => name.toLowerCase() === 'authorization');
  return new UnauthorizedError(status, wwwAuthenticate, {
    url,
    authConfigured: options.auth !== undefined || fromHeaders,
  });
}

/** A request's headers: the configured ones, then the message's, then the transport's own, names lower-cased. */
export async function requestHeaders(
  configuredOption: HeadersOption | undefined,
  own: Record<string, string>,
  extra?: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const configured = typeof configuredOption === 'function' ? await configuredOption() : configuredOption;
  const headers: Record<string, string> = {};
  for (const source of [configured, extra, own]) {
    if (source === undefined) continue;
    for (const [name, value] of Object.entries(source)) headers[name.toLowerCase()] = value;
  }
  return headers;
}
