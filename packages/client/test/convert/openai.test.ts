// `toOpenAITools` and `toOpenAIResponsesTools`: the types of the openai package, and the tools through the SDK.
import OpenAI from 'openai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  mapToolNames,
  toOpenAIResponsesTools,
  toOpenAITools,
  type AnthropicTool,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
} from '../../src/convert/index.js';
import { GITHUB_OPENAI_NAME, recordingFetch, sampleTools } from './helpers.js';

describe('toOpenAITools (Chat Completions)', () => {
  it('has the types of the openai package', () => {
    const tools = sampleTools();
    // Type-level: these assignments are what `tsc` checks; they fail to compile if the shapes drift.
    const union: OpenAI.Chat.Completions.ChatCompletionTool[] = toOpenAITools(tools);
    const functionTools: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = toOpenAITools(tools);
    const params: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      tools: toOpenAITools(tools),
    };
    expectTypeOf<OpenAIChatTool>().toExtend<OpenAI.Chat.Completions.ChatCompletionFunctionTool>();
    expectTypeOf<OpenAIChatTool['function']>().toExtend<OpenAI.FunctionDefinition>();
    // The Responses shape is not a Chat Completions tool: the assertions above can tell shapes apart.
    expectTypeOf<OpenAIResponsesTool>().not.toExtend<OpenAI.Chat.Completions.ChatCompletionTool>();
    expect(union).toHaveLength(3);
    expect(functionTools[0]?.function.name).toBe('get_weather');
    expect(params.tools).toHaveLength(3);
  });

  it('builds function tools, omitting a missing description and leaving strict mode off', () => {
    expect(toOpenAITools(sampleTools())).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string', description: 'City name' }, units: { enum: ['metric', 'imperial'] } },
            required: ['city'],
            additionalProperties: false,
          },
        },
      },
      {
        type: 'function',
        function: {
          name: GITHUB_OPENAI_NAME,
          description: 'Create issue',
          parameters: { type: 'object', properties: { title: { type: 'string' } } },
        },
      },
      { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } },
    ]);
    const ping = toOpenAITools(sampleTools())[2]?.function;
    expect(ping && 'description' in ping).toBe(false);
    expect(ping && 'strict' in ping).toBe(false);
  });

  it('goes through the SDK into the request body unchanged, and a tool call maps back to the MCP tool', async () => {
    const tools = sampleTools();
    const { fetch, requests } = recordingFetch(() => ({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: GITHUB_OPENAI_NAME, arguments: '{"title":"Bug"}' } },
            ],
          },
        },
      ],
    }));
    const client = new OpenAI({ apiKey: 'test-key', baseURL: 'http://127.0.0.1:9/v1', fetch, maxRetries: 0 });
    const converted = toOpenAITools(tools);
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'file a bug' }],
      tools: converted,
    });

    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(requests[0]?.body['tools']).toEqual(JSON.parse(JSON.stringify(converted)));
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    const name = call?.type === 'function' ? call.function.name : '';
    expect(mapToolNames(tools, 'openai').get(name)).toBe(tools[1]);
  });
});

describe('toOpenAIResponsesTools (Responses API)', () => {
  it('has the types of the openai package', () => {
    const tools = sampleTools();
    const union: OpenAI.Responses.Tool[] = toOpenAIResponsesTools(tools);
    const functionTools: OpenAI.Responses.FunctionTool[] = toOpenAIResponsesTools(tools);
    const params: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: 'gpt-test',
      input: 'hi',
      tools: toOpenAIResponsesTools(tools),
    };
    expectTypeOf<OpenAIResponsesTool>().toExtend<OpenAI.Responses.FunctionTool>();
    expectTypeOf<OpenAIChatTool>().not.toExtend<OpenAI.Responses.FunctionTool>();
    expectTypeOf<AnthropicTool>().not.toExtend<OpenAI.Responses.Tool>();
    expect([union.length, functionTools.length, params.tools?.length]).toEqual([3, 3, 3]);
  });

  it('builds flat function tools with an explicit `strict: false`', () => {
    expect(toOpenAIResponsesTools(sampleTools()).slice(1)).toEqual([
      {
        type: 'function',
        name: GITHUB_OPENAI_NAME,
        description: 'Create issue',
        parameters: { type: 'object', properties: { title: { type: 'string' } } },
        strict: false,
      },
      { type: 'function', name: 'ping', parameters: { type: 'object', properties: {} }, strict: false },
    ]);
  });

  it('goes through the SDK into the request body unchanged, and a function call maps back', async () => {
    const tools = sampleTools();
    const { fetch, requests } = recordingFetch(() => ({
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      status: 'completed',
      model: 'gpt-test',
      output: [
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Oslo"}',
          status: 'completed',
        },
      ],
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
    }));
    const client = new OpenAI({ apiKey: 'test-key', baseURL: 'http://127.0.0.1:9/v1', fetch, maxRetries: 0 });
    const converted = toOpenAIResponsesTools(tools);
    const response = await client.responses.create({ model: 'gpt-test', input: 'weather in Oslo?', tools: converted });

    expect(requests[0]?.url).toBe('http://127.0.0.1:9/v1/responses');
    expect(requests[0]?.body['tools']).toEqual(JSON.parse(JSON.stringify(converted)));
    const item = response.output[0];
    expect(item?.type).toBe('function_call');
    expect(mapToolNames(tools, 'openai').get(item?.type === 'function_call' ? item.name : '')).toBe(tools[0]);
  });
});
