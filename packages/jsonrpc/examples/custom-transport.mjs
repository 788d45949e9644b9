// A transport of your own, written against @mcpc/jsonrpc alone: newline-delimited JSON-RPC over a
// child process's pipes, driven by the JsonRpcEngine. (Use @mcpc/transport-stdio for real work: it adds
// size limits, process-tree shutdown, a safe environment and stderr capture.)
//
//   node examples/custom-transport.mjs [command args…]   (default: npx -y @modelcontextprotocol/server-everything)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ConnectionClosedError, JsonRpcEngine, TransportError, decodeMessage } from '@mcpc/jsonrpc';

class PipeTransport {
  #child;
  #sink;
  #closed = false;

  constructor(command, args) {
    this.command = command;
    this.args = args;
  }

  start(sink) {
    this.#sink = sink;
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, this.args, { stdio: ['pipe', 'pipe', 'inherit'] });
      child.once('error', (e) => reject(new TransportError(`could not start ${this.command}`, { cause: e })));
      child.once('spawn', () => {
        this.#child = child;
        createInterface({ input: child.stdout }).on('line', (line) => {
          if (line.trim() === '') return;
          const decoded = decodeMessage(line);
          if (decoded.ok) sink.message(decoded.message, { byteLength: Buffer.byteLength(line) });
          else sink.error(decoded.error);
        });
        child.once('exit', (code) => this.#finish(code === 0 ? undefined : new TransportError(`exited with code ${code}`)));
        resolve();
      });
    });
  }

  async send(message) {
    if (this.#closed) throw new ConnectionClosedError(undefined);
    this.#child.stdin.write(JSON.stringify(message) + '\n');
  }

  async close() {
    if (this.#closed) return;
    this.#child.stdin.end();
    await new Promise((resolve) => (this.#child.exitCode !== null ? resolve() : this.#child.once('exit', resolve)));
    this.#finish(undefined);
  }

  #finish(cause) {
    if (this.#closed) return;
    this.#closed = true;
    this.#sink.close(cause);
  }
}

const [command = 'npx', ...args] = process.argv.length > 2 ? process.argv.slice(2) : ['npx', '-y', '@modelcontextprotocol/server-everything'];
const engine = new JsonRpcEngine(new PipeTransport(command, args), { requestTimeout: 30_000 });
await engine.start();
const init = await engine.request('initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'custom-transport-example', version: '1.0.0' },
});
await engine.notify('notifications/initialized');
console.log(`connected to ${init.serverInfo.name} ${init.serverInfo.version} (protocol ${init.protocolVersion})`);
const { tools } = await engine.request('tools/list');
for (const tool of tools) console.log(`- ${tool.name}`);
await engine.close();
