// What every runtime must do with the built packages: stdio and Streamable HTTP against server-everything,
// a tool call, a schema check; prints one JSON line of what it saw (the test compares it across runtimes).
// usage: <runtime> smoke.mjs <node-binary> <server-everything script> <streamable-http url>
import { Client, stdio, streamableHttp, textOf } from '@mcpc/client';
import { compile } from '@mcpc/schema-validator';

const [node, everything, url] = process.argv.slice(2);
if (node === undefined || everything === undefined || url === undefined) {
  console.error('usage: smoke.mjs <node-binary> <server-everything script> <streamable-http url>');
  process.exit(2);
}

/** Connects one server, lists and calls, closes; what it saw, or the error as `{ error: { name, code } }`. */
async function exercise(config) {
  const client = new Client({ servers: [config] });
  try {
    await client.connect();
    const server = client.servers[0];
    const tools = await client.listTools();
    const echo = await client.callTool('echo', { message: 'hello from a runtime' });
    const sum = await client.callTool('get-sum', { a: 2, b: 40 });
    return {
      protocolVersion: server.protocolVersion,
      transport: server.transportKind,
      tools: tools.length,
      echo: textOf(echo),
      sum: textOf(sum),
    };
  } catch (error) {
    return { error: { name: error?.name, code: error?.code, message: String(error?.message).slice(0, 300) } };
  } finally {
    await client.close();
  }
}

const validator = compile({ type: 'object', properties: { n: { type: 'integer', multipleOf: 3 } }, required: ['n'] });
const report = {
  stdio: await exercise(stdio({ name: 'everything', command: node, args: [everything, 'stdio'] })),
  http: await exercise(streamableHttp({ name: 'everything', url })),
  schema: [validator.validate({ n: 9 }).valid, validator.validate({ n: 10 }).valid, validator.validate({}).valid],
};
console.log(JSON.stringify(report));
