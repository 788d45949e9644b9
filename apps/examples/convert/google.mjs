// A Gemini model calls an MCP tool through the Gemini API's generateContent.
//
// The server's tools go to generateContent as function declarations (toGoogleTools), the model's functionCall runs on
// the server (client.callTool), and the functionResponse goes back to the model for the answer.
//
//   GEMINI_API_KEY=… node convert/google.mjs      (GOOGLE_GEMINI_BASE_URL: another endpoint)

// @ts-check
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GoogleGenAI } from '@google/genai';
import { connect, textOf } from '@mcpc/client';
import { mapToolNames, toGoogleTools } from '@mcpc/client/convert';

const everything = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const client = await connect([process.execPath, everything, 'stdio'], {
  clientInfo: { name: 'mcpc-google-example', version: '0.1.0' },
});
try {
  const tools = await client.listTools();
  const byName = mapToolNames(tools, 'google');
  const ai = new GoogleGenAI({});
  /** @type {import('@google/genai').Content[]} */
  const contents = [{ role: 'user', parts: [{ text: 'What is 2 + 3? Use a tool.' }] }];
  const config = { tools: toGoogleTools(tools) };

  const first = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
  const calls = first.functionCalls ?? [];
  contents.push({ role: 'model', parts: calls.map((functionCall) => ({ functionCall })) });
  /** @type {import('@google/genai').Part[]} */
  const responses = [];
  for (const call of calls) {
    const tool = byName.get(call.name ?? '');
    if (tool === undefined || call.name === undefined)
      throw new Error(`the model called an unknown tool: ${call.name}`);
    const result = await client.callTool(tool.name, call.args ?? {});
    console.log(`${tool.name}(${JSON.stringify(call.args)}) → ${textOf(result)}`);
    responses.push({
      functionResponse: {
        name: call.name,
        response: result.isError === true ? { error: textOf(result) } : { output: textOf(result) },
      },
    });
  }
  contents.push({ role: 'user', parts: responses });

  const second = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
  console.log(second.text);
} finally {
  await client.close();
}
