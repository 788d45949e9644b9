// Input schemas as each target needs them: keywords added or narrowed, inputs never written to.
import { describe, expect, it } from 'vitest';
import {
  toAiSdkTools,
  toAnthropicTools,
  toGoogleFunctionDeclarations,
  toGoogleTools,
  toOpenAIResponsesTools,
  toOpenAITools,
  ToolConversionError,
  type ConvertibleTool,
  type ToolNameTarget,
} from '../../src/convert/index.js';
import { deepFreeze, sampleTools } from './helpers.js';

const noop = async (): Promise<unknown> => undefined;

/** Every converter reduced to "tools in, [name, description | undefined, schema][] out". */
type Flat = [string, string | undefined, Record<string, unknown>][];
const FLATTENED: [string, ToolNameTarget, (tools: Iterable<ConvertibleTool>) => Flat][] = [
  [
    'toOpenAITools',
    'openai',
    (t) => toOpenAITools(t).map((x) => [x.function.name, x.function.description, x.function.parameters]),
  ],
  [
    'toOpenAIResponsesTools',
    'openai',
    (t) => toOpenAIResponsesTools(t).map((x) => [x.name, x.description, x.parameters]),
  ],
  ['toAnthropicTools', 'anthropic', (t) => toAnthropicTools(t).map((x) => [x.name, x.description, x.input_schema])],
  [
    'toGoogleFunctionDeclarations',
    'google',
    (t) => toGoogleFunctionDeclarations(t).map((x) => [x.name, x.description, x.parametersJsonSchema]),
  ],
  [
    'toAiSdkTools',
    'ai-sdk',
    (t) => Object.entries(toAiSdkTools(t, noop)).map(([k, x]) => [k, x.description, x.inputSchema.jsonSchema]),
  ],
];

const withSchema = (inputSchema: unknown): ConvertibleTool => deepFreeze({ name: 't', inputSchema }) as ConvertibleTool;
const schemaOf = (convert: (tools: Iterable<ConvertibleTool>) => Flat, inputSchema: unknown) =>
  convert([withSchema(inputSchema)])[0]?.[2];

describe.each(FLATTENED)('%s: input schemas', (_, target, convert) => {
  it('adds `type: "object"` and `properties` when missing, and treats a missing schema as no arguments', () => {
    expect(schemaOf(convert, { type: 'object' })).toEqual({ type: 'object', properties: {} });
    expect(schemaOf(convert, {})).toEqual({ type: 'object', properties: {} });
    expect(schemaOf(convert, undefined)).toEqual({ type: 'object', properties: {} });
    expect(schemaOf(convert, null)).toEqual({ type: 'object', properties: {} });
    expect(schemaOf(convert, { properties: null })).toEqual({ type: 'object', properties: {} });
    expect(schemaOf(convert, { properties: { q: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
    });
  });

  it('narrows a type list containing "object" to "object": arguments are always an object', () => {
    expect(schemaOf(convert, { type: ['object', 'null'], properties: {} })).toEqual({ type: 'object', properties: {} });
  });

  it('keeps every other keyword as it is', () => {
    const input = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { item: { $ref: '#/$defs/item' } },
      required: ['item'],
      additionalProperties: false,
      $defs: { item: { type: 'string', minLength: 1 } },
      'x-vendor': { anything: [1, 2] },
    };
    expect(schemaOf(convert, input)).toEqual(input);
  });

  it.each([
    ['a non-object type', { type: 'string' }],
    ['a type list without "object"', { type: ['string', 'null'] }],
    ['an array', [{ type: 'object' }]],
    ['a string', 'object'],
    ['properties that are not an object', { type: 'object', properties: ['a'] }],
  ])('rejects %s with a typed invalid-schema error', (_label, inputSchema) => {
    expect(() => convert([withSchema(inputSchema)])).toThrow(
      expect.objectContaining({ name: 'ToolConversionError', reason: 'invalid-schema', target, toolName: 't' }),
    );
  });

  it('never writes to the input, which may be deeply frozen, and returns a new top-level schema', () => {
    const tools = sampleTools();
    const before = JSON.stringify(tools);
    const out = convert(tools);
    expect(JSON.stringify(tools)).toBe(before);
    out.forEach(([, , schema], i) => expect(schema).not.toBe(tools[i]?.inputSchema));
    // Nested schemas are shared, not copied (documented): unchanged subtrees cost nothing.
    expect(out[0]?.[2]['properties']).toBe(tools[0].inputSchema.properties);
  });

  it('gives each tool its own schema object, even when none was given', () => {
    const [a, b] = convert([withSchema(undefined), { ...withSchema(undefined), name: 'u' }]);
    expect(a?.[2]).not.toBe(b?.[2]);
  });

  it('describes a tool by description, else title, else annotations.title, else not at all', () => {
    const base = { inputSchema: { type: 'object' } };
    const out = convert(
      deepFreeze([
        { ...base, name: 'a', description: 'Desc', title: 'Title', annotations: { title: 'Ann' } },
        { ...base, name: 'b', title: 'Title', annotations: { title: 'Ann' } },
        { ...base, name: 'c', description: '  \n', title: 'Title' },
        { ...base, name: 'd', annotations: { title: 'Ann' } },
        { ...base, name: 'e', description: '', title: ' ' },
      ]),
    );
    expect(out.map(([, d]) => d)).toEqual(['Desc', 'Title', 'Title', 'Ann', undefined]);
  });

  it('converts an empty list to an empty result and accepts any iterable', () => {
    expect(convert([])).toEqual([]);
    function* generate() {
      yield withSchema({ type: 'object' });
    }
    expect(convert(generate())).toHaveLength(1);
    expect(convert(new Set([withSchema({})]))).toHaveLength(1);
  });
});

describe('top-level combinators', () => {
  const union = {
    anyOf: [
      { type: 'object', properties: { a: { type: 'string' } } },
      { type: 'object', properties: { b: { type: 'number' } } },
    ],
  };

  it.each(['anyOf', 'oneOf', 'allOf', 'enum', 'not'])(
    'OpenAI rejects a top-level %s up front, as its API would with a 400',
    (keyword) => {
      const tools = [withSchema({ type: 'object', [keyword]: keyword === 'not' ? {} : [{}] })];
      for (const convert of [toOpenAITools, toOpenAIResponsesTools]) {
        expect(() => convert(tools)).toThrow(
          expect.objectContaining({ reason: 'unsupported-schema', target: 'openai' }),
        );
      }
    },
  );

  it.each(['anyOf', 'oneOf', 'allOf'])('Anthropic rejects a top-level %s up front', (keyword) => {
    expect(() => toAnthropicTools([withSchema({ [keyword]: [{}] })])).toThrow(
      expect.objectContaining({ reason: 'unsupported-schema', target: 'anthropic' }),
    );
  });

  it('Anthropic takes a top-level enum or not; Google and the AI SDK take combinators as they are', () => {
    expect(toAnthropicTools([withSchema({ not: { required: ['x'] } })])[0]?.input_schema).toEqual({
      type: 'object',
      properties: {},
      not: { required: ['x'] },
    });
    expect(toGoogleTools([withSchema(union)])[0]?.functionDeclarations[0]?.parametersJsonSchema).toEqual({
      ...union,
      type: 'object',
      properties: {},
    });
    expect(toAiSdkTools([withSchema(union)], noop)['t']?.inputSchema.jsonSchema).toEqual({
      ...union,
      type: 'object',
      properties: {},
    });
  });

  it('the error is a ToolConversionError naming the tool and the keyword', () => {
    expect(() => toOpenAITools([{ name: 'pick', inputSchema: union }])).toThrow(ToolConversionError);
    expect(() => toOpenAITools([{ name: 'pick', inputSchema: union }])).toThrow(
      /tool "pick": openai does not accept `anyOf`/,
    );
  });
});
