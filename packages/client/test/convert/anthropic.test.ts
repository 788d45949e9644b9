// `toAnthropicTools`: the types of @anthropic-ai/sdk, and the tools through the SDK into a request and back.
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { mapToolNames, toAnthropicTools, type AnthropicTool, type OpenAIChatTool } from '../../src/convert/index.js';
import { GITHUB_OPENAI_NAME, recordingFetch, sampleTools } from './helpers.js';

describe('toAnthropicTools', () => {
  it('has the types of the @anthropic-ai/sdk package', () => {
    const tools = sampleTools();
    // Type-level: `tsc` checks these against the official types.
    const custom: Anthropic.Messages.Tool[] = toAnthropicTools(tools);
    const union: Anthropic.Messages.ToolUnion[] = toAnthropicTools(tools);
    const params: Anthropic.Messages.MessageCreateParamsNonStreaming = {
      model: 'claude-test',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
      tools: toAnthropicTools(tools),
    };
    expectTypeOf<AnthropicTool>().toExtend<Anthropic.Messages.Tool>();
    expectTypeOf<AnthropicTool['input_schema']>().toExtend<Anthropic.Messages.Tool.InputSchema>();
    expectTypeOf<OpenAIChatTool>().not.toExtend<Anthropic.Messages.ToolUnion>();
    expect([custom.length, union.length, params.tools?.length]).toEqual([3, 3, 3]);
  });

  it('builds client tools with an object input_schema, omitting a missing description', () => {
    expect(toAnthropicTools(sampleTools()).slice(1)).toEqual([
      {
        name: GITHUB_OPENAI_NAME,
        description: 'Create issue',
        input_schema: { type: 'object', properties: { title: { type: 'string' } } },
      },
      { name: 'ping', input_schema: { type: 'object', properties: {} } },
    ]);
    expect('description' in (toAnthropicTools(sampleTools())[2] ?? {})).toBe(false);
  });

  it('returns new tool objects, so a cache_control breakpoint can be set on the last one', () => {
    const tools = sampleTools();
    const converted = toAnthropicTools(tools);
    const last: Anthropic.Messages.Tool | undefined = converted.at(-1);
    if (last) last.cache_control = { type: 'ephemeral' };
    expect(converted[2]).toMatchObject({ name: 'ping', cache_control: { type: 'ephemeral' } });
    expect(toAnthropicTools(tools)[2]).not.toHaveProperty('cache_control');
  });

  it('goes through the SDK into the request body unchanged, and a tool_use block maps back', async () => {
    const tools = sampleTools();
    const { fetch, requests } = recordingFetch(() => ({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'tool_use', id: 'toolu_1', name: GITHUB_OPENAI_NAME, input: { title: 'Bug' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    }));
    const client = new Anthropic({ apiKey: 'test-key', baseURL: 'http://127.0.0.1:9', fetch, maxRetries: 0 });
    const converted = toAnthropicTools(tools);
    const message = await client.messages.create({
      model: 'claude-test',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'file a bug' }],
      tools: converted,
    });

    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe('http://127.0.0.1:9/v1/messages');
    expect(requests[0]?.body['tools']).toEqual(JSON.parse(JSON.stringify(converted)));
    const block = message.content[0];
    expect(block?.type).toBe('tool_use');
    expect(mapToolNames(tools, 'anthropic').get(block?.type === 'tool_use' ? block.name : '')).toBe(tools[1]);
  });
});
