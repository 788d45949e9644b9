// Which @opentelemetry modules the client loads: none on import, the API on first connect (when installed).
//
// `node module-check.mjs <project dir> <server.mjs>`: imports `@mcpc/client` and its two transports as the
// project resolves them, then connects to the benchmark server over stdio with the client's defaults, one call,
// and closes. A resolve hook (lib/module-hook.mjs) sees every module specifier resolved, found or not; the
// CommonJS cache shows what was loaded through `require`. Prints `@@RESULT {…}`: what each phase loaded.
import { createRequire, register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

const [projectDir, serverPath] = process.argv.slice(2);
const seen = [];
const { port1, port2 } = new MessageChannel();
port1.on('message', (m) => seen.push(m));
port1.unref();
register('./module-hook.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

const require = createRequire(join(projectDir, 'package.json'));
const isOtel = (m) => m.specifier.includes('@opentelemetry') || m.url?.includes('@opentelemetry');
/** The hook's messages come on a port of their own: let them arrive before reading them. */
const settle = () => new Promise((r) => setTimeout(r, 100));
const cjsOtel = () => Object.keys(require.cache).filter((f) => f.includes('@opentelemetry')).length;

async function phases() {
  const entry = require.resolve('@mcpc/client');
  const lib = await import(pathToFileURL(entry).href);
  for (const name of ['@mcpc/transport-stdio', '@mcpc/transport-streamable-http'])
    await import(pathToFileURL(require.resolve(name)).href);
  await settle();
  const onImport = { resolved: seen.length, otel: seen.filter(isOtel), otelCjsFiles: cjsOtel() };
  const before = seen.length;
  const args = [serverPath, '--transport', 'stdio', '--tools', '0', '--max-lifetime', '60000'];
  const client = await lib.connect(lib.stdio({ command: process.execPath, args, name: 'check' }), {
    clientInfo: { name: 'module-check', version: '1.0.0' },
  });
  try {
    await client.callTool('echo', { message: 'x' });
  } finally {
    await client.close();
  }
  await settle();
  const connect = seen.slice(before);
  const onConnect = { resolved: connect.length, otel: connect.filter(isOtel), otelCjsFiles: cjsOtel() };
  return { client: entry, onImport, onConnect };
}

try {
  process.stdout.write(`@@RESULT ${JSON.stringify({ ...(await phases()), node: process.version })}\n`);
  setTimeout(() => process.exit(0), 200).unref();
} catch (error) {
  process.stdout.write(`@@RESULT ${JSON.stringify({ error: String(error?.stack ?? error).slice(0, 2000) })}\n`);
  process.exit(1);
}
