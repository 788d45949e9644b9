// An OpenAI model calls an MCP tool through Chat Completions.
//
// The server's tools go to Chat Completions as `tools` (toOpenAITools), the model's tool call runs on the server
// (client.callTool), and its result goes back to the model for the answer.
//
//   OPENAI_API_KEY=… node convert/openai.mjs      (OPENAI_BASE_URL: any compatible endpoint)

// @ts-check
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import OpenAI from 'openai';
import { connect, textOf } from '@mcpc/client';
import { mapToolNames, toOpenAITools } from '@mcpc/client/convert';

const everything = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const client = await connect([process.execPath, everything, 'stdio'], {
  clientInfo: { name: 'mcpc-openai-example', version: '0.1.0' },
});
try {
  const tools = await client.listTools();
  const byName = mapToolNames(tools, 'openai'); // OpenAI's name for a tool → the MCP tool
  const openai = new OpenAI();
  /** @type {OpenAI.Chat.Completions.ChatCompletionMessageParam[]} */
  const messages = [{ role: 'user', content: 'What is 2 + 3? Use a tool.' }];

  const first = await openai.chat.completions.create({ model: 'gpt-5-mini', messages, tools: toOpenAITools(tools) });
  const reply = first.choices[0]?.message;
  if (reply === undefined) throw new Error('no reply');
  messages.push(reply);
  for (const call of reply.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    const tool = byName.get(call.function.name);
    if (tool === undefined) throw new Error(`the model called an unknown tool: ${call.function.name}`);
    const result = await client.callTool(tool.name, JSON.parse(call.function.arguments || '{}'));
    console.log(`${tool.name}(${call.function.arguments}) → ${textOf(result)}`);
    messages.push({ role: 'tool', tool_call_id: call.id, content: textOf(result) });
  }

  const second = await openai.chat.completions.create({ model: 'gpt-5-mini', messages, tools: toOpenAITools(tools) });
  console.log(second.choices[0]?.message.content);
} finally {
  await client.close();
}
