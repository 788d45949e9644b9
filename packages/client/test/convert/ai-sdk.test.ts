// `toAiSdkTools`: the types and shape of the AI SDK tools, and real tool calls driven through `ai`.
import { asSchema, generateText, isStepCount, jsonSchema, type FlexibleSchema, type Tool, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  mapToolNames,
  toAiSdkTools,
  ToolConversionError,
  type AiSdkExecute,
  type AiSdkInputSchema,
  type AiSdkTool,
  type ConvertibleTool,
} from '../../src/convert/index.js';
import { GITHUB_OPENAI_NAME, deepFreeze, sampleTools } from './helpers.js';

type Call = Parameters<AiSdkExecute>;
const recorder = (result: unknown = { content: [{ type: 'text', text: 'ok' }] }) => {
  const calls: Call[] = [];
  const execute: AiSdkExecute = async (...args) => {
    calls.push(args);
    return result;
  };
  return { calls, execute };
};
const options = { toolCallId: 'call-1', messages: [], context: {} };

describe('toAiSdkTools: types', () => {
  it('produces a ToolSet of the ai package, whose input schemas are FlexibleSchemas', () => {
    const converted = toAiSdkTools(sampleTools(), recorder().execute);
    const set: ToolSet = converted;
    // (`ai`'s own `ToolSet[string]` is not assignable to its `Tool` under exactOptionalPropertyTypes,
    // so the entry is checked from our record.)
    const one: Tool | undefined = converted['get_weather'];
    expectTypeOf<AiSdkTool>().toExtend<Tool>();
    expectTypeOf<Record<string, AiSdkTool>>().toExtend<ToolSet>();
    expectTypeOf<AiSdkInputSchema>().toExtend<FlexibleSchema>();
    expectTypeOf<Parameters<typeof generateText<Record<string, AiSdkTool>>>[0]['tools']>().not.toBeNever();
    // The brief's callback shape, `(name, args, { signal }) => Promise<unknown>`, is accepted as is.
    expectTypeOf<
      (name: string, args: Record<string, unknown>, options: { signal?: AbortSignal }) => Promise<unknown>
    >().toExtend<AiSdkExecute>();
    // The tool handed to the callback keeps the caller's own type (e.g. the client's `server`).
    toAiSdkTools([{ name: 'x', inputSchema: {}, server: 'docs' }], async (_name, _args, { tool }) => {
      expectTypeOf(tool.server).toEqualTypeOf<string>();
    });
    expect([one?.type, set['ping']?.type]).toEqual(['dynamic', 'dynamic']);
  });
});

describe('toAiSdkTools: shape', () => {
  it('keys dynamic tools by converted name, with descriptions where there are any', () => {
    const set = toAiSdkTools(sampleTools(), recorder().execute);
    expect(Object.keys(set)).toEqual(['get_weather', GITHUB_OPENAI_NAME, 'ping']);
    expect(set['get_weather']).toMatchObject({ type: 'dynamic', description: 'Current weather for a city' });
    expect(set[GITHUB_OPENAI_NAME]?.description).toBe('Create issue');
    expect('description' in (set['ping'] ?? {})).toBe(false);
    expect(set['ping']?.inputSchema.jsonSchema).toEqual({ type: 'object', properties: {} });
  });

  it('returns a record without a prototype, so `__proto__` and `constructor` are ordinary tools', () => {
    const tools = deepFreeze([
      { name: '__proto__', inputSchema: {} },
      { name: 'constructor', inputSchema: {} },
    ]);
    const set = toAiSdkTools(tools, recorder().execute);
    expect(Object.getPrototypeOf(set)).toBeNull();
    expect(Object.keys(set)).toEqual(['__proto__', 'constructor']);
    expect(Object.hasOwn(set, '__proto__')).toBe(true);
    expect(set['toString']).toBeUndefined();
    expect(({} as Record<string, unknown>)['type']).toBeUndefined();
  });

  it('is empty for no tools', () => {
    expect(Object.keys(toAiSdkTools([], recorder().execute))).toEqual([]);
  });
});

describe('toAiSdkTools: the schema wrapper', () => {
  const schemaOf = () => toAiSdkTools(sampleTools(), recorder().execute)['get_weather']!.inputSchema;

  it('carries the exact brand of the AI SDK `jsonSchema()` helper', () => {
    const brand = Symbol.for('vercel.ai.schema');
    const reference = jsonSchema({ type: 'object' });
    expect(Object.getOwnPropertySymbols(reference)).toEqual([brand]);
    const ours = schemaOf() as unknown as Record<symbol, unknown>;
    expect(ours[brand]).toBe(true);
    expect(Object.getOwnPropertySymbols(ours)).toEqual([brand]);
    // The same keys `jsonSchema()` produces, so `asSchema` takes it the same way.
    expect(
      Object.keys(ours)
        .filter((k) => k !== '~standard')
        .sort(),
    ).toEqual(Object.keys(reference).sort());
  });

  it('is used by `asSchema` as it is: the provider gets our JSON Schema untouched', async () => {
    const schema = schemaOf();
    const resolved = asSchema(schema);
    expect(resolved).toBe(schema);
    expect(await resolved.jsonSchema).toBe(schema.jsonSchema);
    expect(schema.jsonSchema).not.toHaveProperty('additionalProperties', true);
  });

  it('validates through `asSchema`: any object passes (the server checks the rest), anything else fails', async () => {
    const resolved = asSchema(schemaOf());
    expect(await resolved.validate?.({ city: 'Oslo' })).toEqual({ success: true, value: { city: 'Oslo' } });
    for (const bad of [null, [], 'Oslo', 3]) {
      const result = await resolved.validate?.(bad);
      expect(result?.success).toBe(false);
      expect(result?.success === false && result.error).toBeInstanceOf(ToolConversionError);
      expect(result?.success === false && result.error).toMatchObject({
        reason: 'invalid-arguments',
        toolName: 'get_weather',
        target: 'ai-sdk',
      });
    }
  });

  it('is also a working Standard Schema with a JSON Schema converter, the path `ai` takes without the brand', async () => {
    const schema = schemaOf();
    const standard = schema['~standard'];
    expect(standard).toMatchObject({ version: 1, vendor: 'mcpc' });
    expect(standard.validate({ a: 1 })).toEqual({ value: { a: 1 } });
    expect(standard.validate('x')).toEqual({ issues: [{ message: expect.stringContaining('must be a JSON object') }] });
    const copy = standard.jsonSchema.input({ target: 'draft-07' });
    expect(copy).toEqual(schema.jsonSchema);
    expect(copy).not.toBe(schema.jsonSchema);
    expect(copy.properties).not.toBe(schema.jsonSchema.properties);
    expect(standard.jsonSchema.output({ target: 'draft-2020-12' })).toEqual(schema.jsonSchema);
    expect(() => standard.jsonSchema.input({ target: 'openapi-3.0' })).toThrow(
      expect.objectContaining({ reason: 'unsupported-schema' }),
    );

    // Without the brand, `ai` goes through `~standard` and rewrites what it gets: our schema, and the
    // caller's frozen one, stay untouched because it gets a copy.
    const { jsonSchema: _json, validate: _validate, ...unbranded } = schema;
    const viaStandard = asSchema(unbranded as unknown as FlexibleSchema);
    expect(viaStandard).not.toBe(schema);
    const rewritten = (await viaStandard.jsonSchema) as Record<string, unknown>;
    expect(rewritten['additionalProperties']).toBe(false);
    expect((rewritten['properties'] as Record<string, unknown>)['city']).toEqual({
      type: 'string',
      description: 'City name',
    });
    expect(await viaStandard.validate?.({ city: 'x' })).toMatchObject({ success: true, value: { city: 'x' } });
  });
});

describe('toAiSdkTools: execute', () => {
  it('calls back with the MCP name (not the converted one), the arguments, the signal, the call id and the tool', async () => {
    const tools = sampleTools();
    const { calls, execute } = recorder({ done: true });
    const set = toAiSdkTools(tools, execute);
    const signal = new AbortController().signal;
    await expect(
      set[GITHUB_OPENAI_NAME]?.execute({ title: 'Bug' }, { ...options, abortSignal: signal }),
    ).resolves.toEqual({ done: true });
    expect(calls).toEqual([
      ['github.create_issue', { title: 'Bug' }, { signal, toolCallId: 'call-1', tool: tools[1] }],
    ]);
    expect(calls[0]?.[2].signal).toBe(signal);
    expect(calls[0]?.[2].tool).toBe(tools[1]);
  });

  it('leaves `signal` and `toolCallId` out when there are none, rather than setting them to undefined', async () => {
    const { calls, execute } = recorder();
    const run = toAiSdkTools(sampleTools(), execute)['ping']!.execute;
    await run({}, options);
    await run({});
    expect(Object.keys(calls[0]?.[2] ?? {})).toEqual(['tool', 'toolCallId']);
    expect(Object.keys(calls[1]?.[2] ?? {})).toEqual(['tool']);
  });

  it('rejects arguments that are not an object without calling back', async () => {
    const { calls, execute } = recorder();
    const run = toAiSdkTools(sampleTools(), execute)['ping']!.execute;
    await expect(run([1], options)).rejects.toMatchObject({
      name: 'ToolConversionError',
      reason: 'invalid-arguments',
      toolName: 'ping',
    });
    await expect(run(null, options)).rejects.toBeInstanceOf(ToolConversionError);
    expect(calls).toEqual([]);
  });

  it('passes the callback’s failure through, sync throws included, as a rejection', async () => {
    const failure = new Error('server down');
    const throwing: AiSdkExecute = () => {
      throw failure;
    };
    const result = toAiSdkTools(sampleTools(), throwing)['ping']!.execute({}, options);
    expect(result).toBeInstanceOf(Promise);
    await expect(result).rejects.toBe(failure);
  });
});

describe('toAiSdkTools: end to end through generateText', () => {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  const toolCallTurn = (toolName: string, input: string) => ({
    content: [{ type: 'tool-call' as const, toolCallId: 'call-1', toolName, input }],
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  });
  const textTurn = {
    content: [{ type: 'text' as const, text: 'Filed.' }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage,
    warnings: [],
  };

  it('the model sees our schemas, and its tool call runs the MCP tool with the parsed arguments', async () => {
    const tools: readonly ConvertibleTool[] = sampleTools();
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallTurn(GITHUB_OPENAI_NAME, '{"title":"Bug"}'), textTurn],
    });
    const execute = vi.fn<AiSdkExecute>(async () => ({ content: [{ type: 'text', text: 'issue #1' }] }));
    const controller = new AbortController();
    const result = await generateText({
      model,
      prompt: 'file a bug',
      tools: toAiSdkTools(tools, execute),
      stopWhen: isStepCount(2),
      abortSignal: controller.signal,
    });

    const sent = model.doGenerateCalls[0]?.tools;
    expect(sent?.map((t) => t.name)).toEqual(['get_weather', GITHUB_OPENAI_NAME, 'ping']);
    expect(sent?.find((t) => t.name === 'ping')).toMatchObject({
      type: 'function',
      inputSchema: { type: 'object', properties: {} },
    });
    expect(sent?.find((t) => t.name === 'get_weather')).toMatchObject({
      description: 'Current weather for a city',
      inputSchema: tools[0]?.inputSchema,
    });

    expect(execute).toHaveBeenCalledTimes(1);
    const [name, args, callOptions] = execute.mock.calls[0]!;
    expect([name, args]).toEqual(['github.create_issue', { title: 'Bug' }]);
    expect(callOptions.tool).toBe(tools[1]);
    expect(callOptions.signal).toBeInstanceOf(AbortSignal);
    expect(callOptions.toolCallId).toBe('call-1');
    expect(result.steps[0]?.toolResults).toMatchObject([
      { toolName: GITHUB_OPENAI_NAME, dynamic: true, output: { content: [{ text: 'issue #1' }] } },
    ]);
    expect(mapToolNames(tools, 'ai-sdk').get(result.steps[0]?.toolCalls[0]?.toolName ?? '')).toBe(tools[1]);
    expect(result.text).toBe('Filed.');
  });

  it('arguments that are not an object never reach the MCP tool', async () => {
    const model = new MockLanguageModelV4({ doGenerate: [toolCallTurn('ping', '[1,2]'), textTurn] });
    const execute = vi.fn<AiSdkExecute>(async () => 'unreachable');
    const result = await generateText({
      model,
      prompt: 'x',
      tools: toAiSdkTools(sampleTools(), execute),
      stopWhen: isStepCount(2),
    });
    expect(execute).not.toHaveBeenCalled();
    expect(result.steps[0]?.content.some((part) => part.type === 'tool-error')).toBe(true);
  });

  it('an empty argument string (what many models send for no arguments) becomes `{}`', async () => {
    const model = new MockLanguageModelV4({ doGenerate: [toolCallTurn('ping', ''), textTurn] });
    const execute = vi.fn<AiSdkExecute>(async () => 'pong');
    await generateText({ model, prompt: 'x', tools: toAiSdkTools(sampleTools(), execute), stopWhen: isStepCount(2) });
    expect(execute.mock.calls[0]?.slice(0, 2)).toEqual(['ping', {}]);
  });
});
