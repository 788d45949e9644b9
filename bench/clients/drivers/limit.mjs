// The limit driver: the least work that does a client's job, the 1.0 every other driver is measured against.
//
// Hand-written framing, one map of pending ids, no abstractions, no validation, no timeouts.
//
//   stdio: spawn the server; requests written as strings, those made in one run of microtasks in one
//          write; newline framing by indexOf on each chunk; JSON.parse; the pending id's resolver called.
//   HTTP:  undici `request` POSTs; the answer read as one string and parsed as JSON, or, for an SSE
//          answer, the `data:` line of the event that carries the id; the session id echoed back.
//   era:   `target.era === 'modern'` speaks MCP 2026-07-28 (server/discover, then the protocol's
//          `_meta` keys spliced into every request's params); otherwise the initialize handshake.
import { spawn } from 'node:child_process';
import { request } from 'undici';

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
  const rpc = target.transport === 'stdio' ? stdio(target, modern) : http(target);
  if (modern) await rpc.request('server/discover', {});
  else {
    await rpc.request('initialize', { protocolVersion: CLASSIC, capabilities: {}, clientInfo });
    await rpc.notify('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  }
  return {
    listTools: async () => (await rpc.request('tools/list', {})).tools,
    callTool: (name, args) => rpc.request('tools/call', { name, arguments: args }),
    close: () => rpc.close(),
  };
}

const failure = (error) => Promise.reject(new Error(`JSON-RPC error ${error.code}: ${error.message}`));

function stdio({ command, args }, modern) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map(); // id → resolve
  let nextId = 1;
  let partial = []; // the bytes of a line split across chunks
  let out = '';
  const flush = () => {
    child.stdin.write(out);
    out = '';
  };
  child.stdout.on('data', (chunk) => {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(10, start)) !== -1) {
      let line;
      if (partial.length === 0) line = chunk.toString('utf8', start, nl);
      else {
        partial.push(chunk.subarray(start, nl));
        line = Buffer.concat(partial).toString('utf8');
        partial = [];
      }
      start = nl + 1;
      if (line.length === 0) continue;
      const message = JSON.parse(line);
      const resolve = pending.get(message.id);
      if (resolve === undefined) continue;
      pending.delete(message.id);
      resolve(message.error === undefined ? message.result : failure(message.error));
    }
    if (start < chunk.length) partial.push(start === 0 ? chunk : chunk.subarray(start));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const send = (line) => {
    if (out === '') queueMicrotask(flush);
    out += line;
  };
  return {
    request(method, params) {
      const id = nextId++;
      let body = JSON.stringify(params);
      if (modern) body = body.length === 2 ? `{"_meta":${META}}` : `${body.slice(0, -1)},"_meta":${META}}`;
      send(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${body}}\n`);
      return new Promise((resolve) => pending.set(id, resolve));
    },
    notify: (json) => send(`${json}\n`),
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function http({ url }) {
  let nextId = 1;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  async function post(body) {
    const res = await request(url, { method: 'POST', headers, body });
    const session = res.headers['mcp-session-id'];
    if (session !== undefined) headers['mcp-session-id'] = session;
    const text = await res.body.text();
    if (res.statusCode === 202) return undefined;
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    return text;
  }
  return {
    async request(method, params) {
      const id = nextId++;
      const text = await post(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}`);
      let message;
      if (text.charCodeAt(0) === 123 /* { */) message = JSON.parse(text);
      else {
        // SSE: the `data:` line of the event that answers this id (the server's answer is one line).
        for (let at = text.indexOf('data:'); at !== -1; at = text.indexOf('data:', at + 5)) {
          const end = text.indexOf('\n', at);
          const candidate = JSON.parse(text.slice(at + 5, end === -1 ? undefined : end));
          if (candidate.id === id) {
            message = candidate;
            break;
          }
        }
        if (message === undefined) throw new Error('no answer in the event stream');
      }
      if (message.error !== undefined) return failure(message.error);
      if (method === 'initialize') headers['mcp-protocol-version'] = message.result.protocolVersion;
      return message.result;
    },
    notify: (json) => post(json),
    async close() {
      if (headers['mcp-session-id'] === undefined) return;
      const res = await request(url, { method: 'DELETE', headers });
      await res.body.dump();
    },
  };
}
