// One CPU-per-call trial, run by Node, Deno or Bun: a client's CPU time per tools/call to the benchmark server.
//
// It connects one client to the benchmark server over Streamable HTTP, warms up, then makes `calls` tools/call requests
// with `inflight` in flight, and prints the process's CPU time (user + system) per call as one JSON line.
//
//   <runtime> cpu-trial.mjs <mcpc-auto|mcpc-fetch|sdk2|fetch-floor> <url> <calls> <inflight>
import { Client as SdkClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connect, streamableHttp } from '@mcpc/client';
import '@mcpc/transport-streamable-http';

const [driver, url, callsText, inflightText] = process.argv.slice(2);
const calls = Number(callsText);
const inflight = Number(inflightText);
if (!['mcpc-auto', 'mcpc-fetch', 'sdk2', 'fetch-floor'].includes(driver) || !url || !(calls > 0) || !(inflight > 0)) {
  console.error('usage: cpu-trial.mjs <mcpc-auto|mcpc-fetch|sdk2|fetch-floor> <url> <calls> <inflight>');
  process.exit(2);
}

/**
 * The least a client on `fetch` can do: POST each request, read the SSE answer off the body's stream, parse
 * its `data:` line; no checks, no timeouts, no cancellation. The floor `fetch` itself sets on this runtime.
 */
async function fetchFloor() {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  const post = async (body) => {
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    // Read as a stream, as any client must read an SSE answer (it may carry progress for minutes), not
    // with text(), which waits for the end.
    let text = '';
    if (response.body !== null)
      for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) text += chunk;
    return {
      response,
      message: text.includes('data: ') ? JSON.parse(text.slice(text.indexOf('data: ') + 6)) : undefined,
    };
  };
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcpc-bench', version: '1.0.0' } },
  });
  headers['mcp-session-id'] = init.response.headers.get('mcp-session-id');
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  let id = 1;
  return {
    call: async () =>
      (
        await post({
          jsonrpc: '2.0',
          id: id++,
          method: 'tools/call',
          params: { name: 'echo', arguments: { message: 'hello' } },
        })
      ).message.result,
    close: async () => {},
  };
}

/** The driver's call and close, on a connected client. */
async function open() {
  if (driver === 'fetch-floor') return fetchFloor();
  if (driver === 'sdk2') {
    const client = new SdkClient({ name: 'mcpc-bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: 120_000 });
    return {
      call: () => client.callTool({ name: 'echo', arguments: { message: 'hello' } }, { timeout: 120_000 }),
      close: () => client.close(),
    };
  }
  const client = await connect(
    streamableHttp({ url, name: 'bench', httpClient: driver === 'mcpc-fetch' ? 'fetch' : 'auto' }),
    { clientInfo: { name: 'mcpc-bench', version: '1.0.0' }, timeout: 120_000 },
  );
  return { call: () => client.callTool('echo', { message: 'hello' }), close: () => client.close() };
}

/** `count` calls, `inflight` at a time. */
async function burst(call, count) {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inflight, count) }, lane));
}

const client = await open();
// The call must succeed, or the figures measure an error path.
const first = await client.call();
if (first.isError || JSON.stringify(first.content).indexOf('hello') === -1) {
  console.error(`the echo call failed: ${JSON.stringify(first).slice(0, 300)}`);
  process.exit(1);
}
await burst(client.call, Math.min(500, calls)); // warm-up: JIT, connection pool
const before = process.cpuUsage();
const started = performance.now();
await burst(client.call, calls);
const cpu = process.cpuUsage(before);
const wallMs = performance.now() - started;
await client.close();
// Exit now: what a client leaves open after close() is the runtime tests' concern (SDK v2 on Deno keeps
// the process alive), not a CPU figure's.
console.log(JSON.stringify({ cpuUsPerCall: (cpu.user + cpu.system) / calls, callsPerSecond: (calls / wallMs) * 1000 }));
process.exit(0);
