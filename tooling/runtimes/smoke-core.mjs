// What every runtime must do with the built packages, as functions each runtime's entry calls: a server over
// a config (list, call, close), and schema verdicts. Returns plain JSON, compared across runtimes by the test.
import { Client, textOf } from '@mcpc/client';
import { compile } from '@mcpc/schema-validator';

/** Connects one server, lists and calls, closes; what it saw, or the error as `{ error: { name, code, message } }`. */
export async function exercise(config) {
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

/** Schema verdicts, patterns included: the same everywhere, with or without worker threads. */
export function schemaVerdicts() {
  const checks = [
    [
      { type: 'object', properties: { n: { type: 'integer', multipleOf: 3 } }, required: ['n'] },
      [{ n: 9 }, { n: 10 }, {}],
    ],
    [{ type: 'string', pattern: '^[a-z]+(-[a-z]+)*$' }, ['kebab-case', 'Not-Kebab', 'x'.repeat(10_000)]],
    [{ type: 'string', format: 'email' }, ['a@example.com', 'not an email']],
  ];
  return checks.map(([schema, values]) => {
    const validator = compile(schema);
    return values.map((v) => validator.validate(v).valid);
  });
}
