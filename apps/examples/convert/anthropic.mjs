// A Claude model calls an MCP tool through the Anthropic Messages API.
//
// The server's tools go to the Messages API as `tools` (toAnthropicTools), the model's tool_use runs on the server
// (client.callTool), and the tool_result goes back to the model for the answer.
//
//   ANTHROPIC_API_KEY=… node convert/anthropic.mjs      (ANTHROPIC_BASE_URL: another endpoint)

// @ts-check
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { connect, textOf } from '@mcpc/client';
import { mapToolNames, toAnthropicTools } from '@mcpc/client/convert';

const everything = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const client = await connect([process.execPath, everything, 'stdio'], {
  clientInfo: { name: 'mcpc-anthropic-example', version: '0.1.0' },
});
try {
  const tools = await client.listTools();
  const byName = mapToolNames(tools, 'anthropic');
  const anthropic = new Anthropic();
  /** @type {Anthropic.MessageParam[]} */
  const messages = [{ role: 'user', content: 'What is 2 + 3? Use a tool.' }];

  const first = await anthropic.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages,
    tools: toAnthropicTools(tools),
  });
  messages.push({ role: 'assistant', content: first.content });
  /** @type {Anthropic.ToolResultBlockParam[]} */
  const results = [];
  for (const block of first.content) {
    if (block.type !== 'tool_use') continue;
    const tool = byName.get(block.name);
    if (tool === undefined) throw new Error(`the model called an unknown tool: ${block.name}`);
    const result = await client.callTool(tool.name, /** @type {Record<string, unknown>} */ (block.input));
    console.log(`${tool.name}(${JSON.stringify(block.input)}) → ${textOf(result)}`);
    results.push({
      type: 'tool_result',
      tool_use_id: block.id,
      content: textOf(result),
      is_error: result.isError === true,
    });
  }
  messages.push({ role: 'user', content: results });

  const second = await anthropic.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages,
    tools: toAnthropicTools(tools),
  });
  console.log(second.content.map((block) => (block.type === 'text' ? block.text : '')).join(''));
} finally {
  await client.close();
}
