#!/usr/bin/env node
// Where mcpc's HTTP CPU per call goes: the same calls through mcpc one layer more at a time, beside the limit.
//
// node bench/clients/layers.mjs [--rounds N] [--calls N]
//
// 64 echo calls in flight over Streamable HTTP (SSE answers) against lib/server.mjs, on undici: the limit
// driver, then mcpc's HTTP client alone (`@mcpc/http`, the body read by hand), + `exchange()` and the SSE
// parser, + the transport, + the JSON-RPC engine, + the client; last, the same client on node:http. Each
// layer's trial is a fresh process (the order alternating by round); CPU per call (user + system) over N calls
// after a warm-up, then over N more (steady). A diagnostic for issue #31, not part of `pnpm bench`: each row's
// difference from the one above is what its layer costs.
import { fileURLToPath } from 'node:url';
import { runNode, startHttpServer } from './lib/processes.mjs';
import { median } from './lib/figures.mjs';

const LAYERS = [
  ['limit', 'the limit (drivers/limit-http.mjs)'],
  ['http-client', "`@mcpc/http`'s undici client, the body read by hand"],
  ['exchange', '+ `exchange()` and the SSE parser'],
  ['transport', '+ the transport (`StreamableHttpTransport`)'],
  ['engine', '+ the JSON-RPC engine (`JsonRpcEngine`)'],
  ['client', '+ the client (`callTool`, the mcpc + undici driver)'],
  ['client-node', 'the same client on `node:http` (the default install, the mcpc driver)'],
];
const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'layers', version: '1' } };
const ECHO = { name: 'echo', arguments: { message: 'x' } };
const self = fileURLToPath(import.meta.url);

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};

if (option('--layer') !== undefined) await trial(option('--layer'), option('--url'), Number(option('--calls')));
else await main(Number(option('--rounds', 5)), Number(option('--calls', 10_000)));

async function main(rounds, calls) {
  const figures = Object.fromEntries(LAYERS.map(([l]) => [l, []]));
  for (let round = 0; round < rounds; round++) {
    // A server per round: the bench server ends itself after 5 minutes, and a round takes about one.
    const server = await startHttpServer(fileURLToPath(new URL('lib/server.mjs', import.meta.url)), 2, false);
    try {
      const order = round % 2 === 0 ? LAYERS : [...LAYERS].reverse();
      for (const [layer] of order) {
        const args = [self, '--layer', layer, '--url', server.url, '--calls', String(calls)];
        const result = await runNode(process.execPath, args, { budgetMs: 120_000 });
        if (result.error) throw new Error(`${layer}: ${result.error}\n${result.stderr ?? ''}`);
        figures[layer].push(result);
        process.stderr.write(
          `round ${round + 1}/${rounds} ${layer}: ${result.first.toFixed(1)} / ${result.steady.toFixed(1)} µs\n`,
        );
      }
    } finally {
      await server.stop();
    }
  }
  const cell = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
  const limit = median(figures.limit.map((f) => f.first));
  console.log(`| layer | CPU µs/call, first ${calls} | ×limit | steady, the next ${calls} |`);
  console.log('| --- | ---: | ---: | ---: |');
  for (const [layer, label] of LAYERS) {
    const first = figures[layer].map((f) => f.first);
    console.log(
      `| ${label} | ${cell(first)} | ${(median(first) / limit).toFixed(2)}× | ${cell(figures[layer].map((f) => f.steady))} |`,
    );
  }
}

/** One layer's trial: connect, warm up, then CPU per call over two windows of `calls`. */
async function trial(layer, url, calls) {
  const call = await connect(layer, url);
  const run = async (count) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next++;
        await call();
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
  };
  await run(3_000);
  const c0 = process.cpuUsage();
  await run(calls);
  const c1 = process.cpuUsage(c0);
  await run(calls);
  const c2 = process.cpuUsage(c0);
  const first = (c1.user + c1.system) / calls;
  const steady = (c2.user + c2.system - c1.user - c1.system) / calls;
  console.log(`@@RESULT ${JSON.stringify({ first, steady })}`);
  process.exit(0);
}

/** A function that makes one echo call through `layer` and resolves with its result. */
async function connect(layer, url) {
  if (layer === 'limit' || layer === 'client' || layer === 'client-node') {
    const drivers = {
      limit: './drivers/limit.mjs',
      client: './drivers/mcpc-undici.mjs',
      'client-node': './drivers/mcpc.mjs',
    };
    const driver = await import(drivers[layer]);
    const client = await driver.connect({ transport: 'http', url });
    return () => client.callTool('echo', { message: 'x' });
  }
  if (layer === 'http-client' || layer === 'exchange') return httpLayer(layer === 'exchange', url);
  const { StreamableHttpTransport } = await import('@mcpc/transport-streamable-http');
  const transport = new StreamableHttpTransport({ url, httpClient: 'undici' });
  if (layer === 'engine') {
    const { JsonRpcEngine } = await import('@mcpc/jsonrpc');
    const engine = new JsonRpcEngine(transport, {});
    await engine.start();
    await engine.request('initialize', INIT);
    await engine.notify('notifications/initialized');
    return () => engine.request('tools/call', ECHO);
  }
  // The transport alone: its sink matches answers to requests, as the engine would.
  const waiting = new Map();
  await transport.start({
    message: (m) => {
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
    },
    error: () => {},
    close: () => {},
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const own = ++id;
      waiting.set(own, resolve);
      transport.send({ jsonrpc: '2.0', id: own, method, params });
    });
  await request('initialize', INIT);
  await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return () => request('tools/call', ECHO);
}

/** POSTs through `@mcpc/http`'s undici client: directly, the SSE body split by hand, or through `exchange()`. */
async function httpLayer(throughExchange, url) {
  const { Abort, createHttpClient, exchange, header, readSseBody } = await import('@mcpc/http');
  const http = createHttpClient({ choice: 'undici' });
  const settings = { url: new URL(url), retries: 0, retryDelay: { initialMs: 1, maxMs: 1 }, readTimeout: 30_000 };
  let headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  let id = 0;
  const post = async (message) => {
    const abort = new Abort();
    const body = JSON.stringify(message);
    const response = throughExchange
      ? await exchange(http, settings, { method: 'POST', headers, body, signal: undefined, abort, retryable: false })
      : await http.request({
          url: settings.url,
          method: 'POST',
          headers,
          body,
          signal: undefined,
          abort,
          headersTimeout: 30_000,
          bodyTimeout: 30_000,
        });
    if (response.statusCode === 202) return { response, answer: undefined };
    if (throughExchange) {
      let answer;
      await readSseBody(response.body, undefined, 1 << 24, {
        onEvent: (e) => (answer = JSON.parse(e.data)),
        onId: () => {},
        onRetry: () => {},
        onWarning: () => {},
      });
      return { response, answer };
    }
    const parts = [];
    await new Promise((resolve, reject) => {
      response.body.on('data', (c) => parts.push(c));
      response.body.once('end', resolve);
      response.body.once('error', reject);
    });
    const text = Buffer.concat(parts).toString('utf8');
    const at = text.indexOf('data: ') + 6;
    return { response, answer: JSON.parse(text.slice(at, text.indexOf('\n', at))) };
  };
  const initialized = await post({ jsonrpc: '2.0', id: ++id, method: 'initialize', params: INIT });
  headers = {
    ...headers,
    'mcp-session-id': header(initialized.response, 'mcp-session-id'),
    'mcp-protocol-version': initialized.answer.result.protocolVersion,
  };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return () => post({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: ECHO });
}
