// Words for a response that carried no answer to the request it was for.
import { contentTypeLabel, endpointLabel } from '@mcpc/http';
import { escapeForLog } from '@mcpc/jsonrpc';

/**
 * A response to `method` that is not a stream and carried no answer to it: a JSON body that is not
 * its JSON-RPC response (`malformed`: why it was not one), or no body at all (a 202 to a request).
 */
export function noAnswer(
  url: URL,
  status: number,
  mediaType: string,
  method: string,
  malformed: string | undefined,
): string {
  const head = `${endpointLabel(url)} answered ${status} ${contentTypeLabel(mediaType)} to ${escapeForLog(method, 100)}`;
  if (mediaType !== 'application/json') return `${head}, with no answer — is this an MCP endpoint? check the URL`;
  const why = malformed === undefined ? '' : ` (${escapeForLog(malformed, 200)})`;
  return `${head}, but not with its JSON-RPC answer${why} — is this an MCP endpoint? check the URL`;
}
