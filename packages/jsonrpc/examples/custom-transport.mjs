// @ts-check
// A transport of your own, written against @mcpc/jsonrpc alone: newline-delimited JSON-RPC over a
// child process's pipes, driven by the JsonRpcEngine. (Use @mcpc/transport-stdio for real work: it adds
// size limits, process-tree shutdown, a safe environment and stderr capture.)
//
//   node examples/custom-transport.mjs [command args…]   (default: npx -y @modelcontextprotocol/server-everything)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ConnectionClosedError, JsonRpcEngine, TransportError, decodeMessage } from '@mcpc/jsonrpc';

/** @typedef {import('@mcpc/jsonrpc').Transport} Transport */

/** @implements {Transport} */
class PipeTransport {
  /** @type {import('node:child_process').ChildProcessByStdio<import('node:stream').Writable, import('node:stream').Readable, null> | undefined} */
  #child;
  /** @type {import('@mcpc/jsonrpc').TransportSink | undefined} */
  #sink;
  #closed = false;

  /**
   * @param {string} command
   * @param {string[]} args
   */
  constructor(command, args) {
    this.command = command;
    this.args = args;
  }

  /**
   * @param {import('@mcpc/jsonrpc').TransportSink} sink
   * @returns {Promise<void>}
   */
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
        child.once('exit', (code) =>
          this.#finish(code === 0 ? undefined : new TransportError(`exited with code ${code}`)),
        );
        resolve();
      });
    });
  }

  /** @param {import('@mcpc/jsonrpc').JsonRpcMessage} message */
  async send(message) {
    const child = this.#child;
    if (this.#closed || child === undefined) throw new ConnectionClosedError(undefined);
    child.stdin.write(JSON.stringify(message) + '\n');
  }

  async close() {
    const child = this.#child;
    if (this.#closed || child === undefined) return;
    child.stdin.end();
    await /** @type {Promise<void>} */ (
      new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())))
    );
    this.#finish(undefined);
  }

  /** @param {Error | undefined} cause */
  #finish(cause) {
    if (this.#closed) return;
    this.#closed = true;
    this.#sink?.close(cause);
  }
}

const [command = 'npx', ...args] =
  process.argv.length > 2 ? process.argv.slice(2) : ['npx', '-y', '@modelcontextprotocol/server-everything'];
const engine = new JsonRpcEngine(new PipeTransport(command, args), { requestTimeout: 30_000 });
await engine.start();
/** @type {{ serverInfo: { name: string, version: string }, protocolVersion: string }} */
const init = await engine.request('initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'custom-transport-example', version: '1.0.0' },
});
await engine.notify('notifications/initialized');
console.log(`connected to ${init.serverInfo.name} ${init.serverInfo.version} (protocol ${init.protocolVersion})`);
/** @type {{ tools: { name: string }[] }} */
const { tools } = await engine.request('tools/list');
for (const tool of tools) console.log(`- ${tool.name}`);
await engine.close();
