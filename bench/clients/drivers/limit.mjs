// The limit driver: the least work that does the same job as a client. It stands for the physical
// limit of the protocol on this machine, the 1.0 every other driver is measured against.
//
//   stdio: spawn the server, newline-delimited JSON-RPC over its pipes, a map of pending ids.
//   HTTP:  undici POSTs (the same undici mcpc's transport uses), a minimal parse of the answer
//          (JSON, or the `data:` lines of an SSE body), the session id echoed back.
//
// No validation, no timeouts, no cancellation: nothing a real client must do beyond the handshake.
import { spawn } from 'node:child_process';
import { request as undiciRequest } from 'undici';

export const label = 'limit';
const PROTOCOL_VERSION = '2025-11-25';
const initializeParams = {
  protocolVersion: PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: 'mcpc-bench-limit', version: '1.0.0' },
};

/** @param {{ transport: 'stdio', command: string, args: string[] } | { transport: 'http', url: string }} target */
export async function connect(target) {
  const rpc = target.transport === 'stdio' ? stdioRpc(target) : httpRpc(target);
  await rpc.request('initialize', initializeParams);
  await rpc.notify('notifications/initialized');
  return {
    listTools: async () => (await rpc.request('tools/list', {})).tools,
    callTool: (name, args) => rpc.request('tools/call', { name, arguments: args }),
    close: () => rpc.close(),
  };
}

function rpcError(error) {
  return Object.assign(new Error(`JSON-RPC error ${error.code}: ${error.message}`), {
    code: error.code,
    data: error.data,
  });
}

function stdioRpc({ command, args }) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  /** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void }>} */
  const pending = new Map();
  let nextId = 1;
  /** @type {Buffer[]} bytes of the line being received */
  let partial = [];
  let exited = false;

  const onMessage = (message) => {
    const waiter = pending.get(message.id);
    if (waiter === undefined || message.method !== undefined) return; // server requests/notifications: none here
    pending.delete(message.id);
    if (message.error !== undefined) waiter.reject(rpcError(message.error));
    else waiter.resolve(message.result);
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
      if (line.length > 0) onMessage(JSON.parse(line));
    }
    if (start < chunk.length) partial.push(start === 0 ? chunk : chunk.subarray(start));
  });
  const exitedPromise = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      const error = new Error(`server exited (${signal ?? code})`);
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
      resolve();
    }),
  );
  const write = (message) => child.stdin.write(JSON.stringify(message) + '\n');

  return {
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        if (exited) return reject(new Error('server exited'));
        pending.set(id, { resolve, reject });
        write({ jsonrpc: '2.0', id, method, params });
      });
    },
    notify(method, params) {
      write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}

function httpRpc({ url }) {
  let nextId = 1;
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  async function post(message) {
    const res = await undiciRequest(url, { method: 'POST', headers, body: JSON.stringify(message) });
    const sessionId = res.headers['mcp-session-id'];
    if (typeof sessionId === 'string') headers['mcp-session-id'] = sessionId;
    if (res.statusCode === 202) {
      await res.body.dump();
      return undefined;
    }
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    const type = String(res.headers['content-type'] ?? '');
    if (type.startsWith('application/json')) return JSON.parse(text);
    // text/event-stream: the answer is the `data:` of the event that carries our id.
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(l[5] === ' ' ? 6 : 5))
        .join('\n');
      if (data === '') continue;
      const parsed = JSON.parse(data);
      if (parsed.id === message.id && parsed.method === undefined) return parsed;
    }
    throw new Error('no answer in the event stream');
  }

  return {
    async request(method, params) {
      const id = nextId++;
      const answer = await post({ jsonrpc: '2.0', id, method, params });
      if (method === 'initialize') headers['mcp-protocol-version'] = answer.result?.protocolVersion ?? PROTOCOL_VERSION;
      if (answer.error !== undefined) throw rpcError(answer.error);
      return answer.result;
    },
    notify: (method, params) =>
      post(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }),
    async close() {
      if (headers['mcp-session-id'] === undefined) return;
      const res = await undiciRequest(url, { method: 'DELETE', headers });
      await res.body.dump();
    },
  };
}
