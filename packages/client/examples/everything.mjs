// @ts-check
// Connects to the reference MCP server over stdio, lists and calls tools, reads a resource, and answers
// the server's sampling and elicitation requests. Build the packages first (npx tsc -p tsconfig.build.json
// in packages/jsonrpc, packages/transport-stdio and packages/client), then:
//
//   node examples/everything.mjs
//
// Inside this monorepo, start it from a directory outside the workspace (cd /tmp && node
// /path/to/packages/client/examples/everything.mjs): there npx finds the test fixtures' copy of
// server-everything and no binary for it.
import { Client, stdio, textOf } from '@mcpc/client';

const client = new Client({
  servers: [stdio({ name: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] })],
  clientInfo: { name: 'everything-example', version: '1.0.0' },

  // The server asks the host's LLM for a completion (sampling/createMessage). Call your model here.
  onSampling: async (request, { server }) => {
    const [first] = request.messages;
    const asked = first && 'type' in first.content && first.content.type === 'text' ? first.content.text : '';
    console.log(`[${server}] sampling request: ${asked}`);
    return {
      model: 'example-model',
      stopReason: 'endTurn',
      content: { type: 'text', text: 'Silent pipes hum / JSON flows between two minds / tools wake, answer, rest' },
    };
  },

  // The server asks the user for input (elicitation/create). Show a form; here we fill it in.
  onElicitation: async (request, { server }) => {
    if (request.mode !== 'form') return { action: 'decline' };
    console.log(
      `[${server}] asks: ${request.message} (fields: ${Object.keys(request.requestedSchema.properties).join(', ')})`,
    );
    return { action: 'accept', content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' } };
  },
});

try {
  const tools = await client.listTools();
  console.log(`${tools.length} tools: ${tools.map((t) => t.name).join(', ')}`);

  console.log(textOf(await client.callTool('echo', { message: 'Hello, MCP!' })));
  console.log(textOf(await client.callTool('get-sum', { a: 2, b: 3 })));

  const progress = await client.callTool(
    'trigger-long-running-operation',
    { duration: 1, steps: 4 },
    {
      onProgress: ({ progress, total }) => console.log(`progress ${progress}/${total}`),
    },
  );
  console.log(textOf(progress));

  const [resource] = await client.listResources();
  for (const contents of await client.readResource(resource.uri)) {
    console.log(
      `${contents.uri}: ${contents.isText() ? contents.text.slice(0, 60).replace(/\s+/g, ' ') + '…' : `${contents.bytes().length} bytes`}`,
    );
  }

  const sampled = await client.callTool('trigger-sampling-request', {
    prompt: 'Write a haiku about MCP',
    maxTokens: 50,
  });
  console.log(textOf(sampled).replace(/\s+/g, ' ').slice(0, 160));

  const elicited = await client.callTool('trigger-elicitation-request', {});
  console.log(textOf(elicited).split('\n').slice(0, 3).join(' | '));
} finally {
  await client.close();
}
