// The limit driver: the least work that does a client's job, the 1.0 every other driver is measured against.
//
// Hand-written framing, one map of pending ids, no abstractions, no validation, no timeouts.
//
//   stdio: (limit-stdio.mjs) spawn the server; requests written as strings, those made in one run of
//          microtasks in one write; newline framing by indexOf on each chunk; JSON.parse; the id's resolver.
//   HTTP:  (limit-http.mjs) one undici `Pool` for the origin, `dispatch()` with a bare handler (no body
//          stream, no headers object); one reused options object and flat headers object; the body a string;
//          the answer JSON-parsed, or for SSE split at blank lines, `data:` lines parsed, the id matched.
//   era:   `target.era === 'modern'` speaks MCP 2026-07-28 (server/discover, then the protocol's
//          `_meta` keys spliced into every request's params); otherwise the initialize handshake.
import { http } from './limit-http.mjs';
import { stdio } from './limit-stdio.mjs';

export const label = 'limit';
const CLASSIC = '2025-11-25';
const MODERN = '2026-07-28';
const clientInfo = { name: 'mcpc-bench-limit', version: '1.0.0' };
const META = JSON.stringify({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': clientInfo,
  'io.modelcontextprotocol/clientCapabilities': {},
});

/** @param {{ transport: 'stdio', command: string, args: string[], era?: 'modern' } | { transport: 'http', url: string }} target */
export async function connect(target) {
  const modern = target.era === 'modern';
  const rpc = target.transport === 'stdio' ? stdio(target, modern ? META : undefined) : http(target);
  if (modern) await rpc.request('server/discover', {});
  else {
    const result = await rpc.request('initialize', { protocolVersion: CLASSIC, capabilities: {}, clientInfo });
    rpc.initialized?.(result);
    await rpc.notify('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  }
  return {
    listTools: async () => (await rpc.request('tools/list', {})).tools,
    callTool: (name, args) => rpc.request('tools/call', { name, arguments: args }),
    close: () => rpc.close(),
  };
}
