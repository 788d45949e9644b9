// A model behind the Vercel AI SDK calls an MCP tool, generateText driving the round trip.
//
// The server's tools become AI SDK tools (toAiSdkTools) whose execute runs them on the server (client.callTool), and
// generateText drives the round trip — tool call, tool result, answer.
//
//   AI_GATEWAY_API_KEY=… node convert/ai-sdk.mjs      (AI_GATEWAY_BASE_URL: another gateway endpoint)

// @ts-check
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createGateway, generateText, isStepCount } from 'ai';
import { connect } from '@mcpc/client';
import { toAiSdkTools } from '@mcpc/client/convert';

const everything = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const client = await connect([process.execPath, everything, 'stdio'], {
  clientInfo: { name: 'mcpc-ai-sdk-example', version: '0.1.0' },
});
try {
  const baseURL = process.env.AI_GATEWAY_BASE_URL;
  const gateway = createGateway(baseURL === undefined ? {} : { baseURL });
  const result = await generateText({
    model: gateway('openai/gpt-5-mini'),
    prompt: 'What is 2 + 3? Use a tool.',
    // execute gets the MCP name and the checked arguments; the call's abort signal is passed along.
    tools: toAiSdkTools(await client.listTools(), (name, args, { signal }) =>
      client.callTool(name, args, signal === undefined ? {} : { signal }),
    ),
    stopWhen: isStepCount(2),
  });
  for (const step of result.steps) {
    for (const call of step.toolCalls) console.log(`${call.toolName}(${JSON.stringify(call.input)})`);
  }
  console.log(result.text);
} finally {
  await client.close();
}
