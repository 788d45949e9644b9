// `toGoogleTools` and `toGoogleFunctionDeclarations`: the types of @google/genai, and the tools through the SDK.
import { GoogleGenAI, type FunctionDeclaration, type GenerateContentConfig, type Tool } from '@google/genai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  mapToolNames,
  toGoogleFunctionDeclarations,
  toGoogleTools,
  type GoogleFunctionDeclaration,
  type GoogleTool,
} from '../../src/convert/index.js';
import { recordingFetch, sampleTools } from './helpers.js';

describe('toGoogleTools / toGoogleFunctionDeclarations', () => {
  it('has the types of the @google/genai package', () => {
    const tools = sampleTools();
    // Type-level: `tsc` checks these against the official types.
    const googleTools: Tool[] = toGoogleTools(tools);
    const declarations: FunctionDeclaration[] = toGoogleFunctionDeclarations(tools);
    const config: GenerateContentConfig = { tools: toGoogleTools(tools) };
    const combined: Tool[] = [{ functionDeclarations: toGoogleFunctionDeclarations(tools) }, { googleSearch: {} }];
    expectTypeOf<GoogleTool>().toExtend<Tool>();
    expectTypeOf<GoogleFunctionDeclaration>().toExtend<FunctionDeclaration>();
    // Raw JSON Schema goes in `parametersJsonSchema`, never in the OpenAPI-subset `parameters`.
    expectTypeOf<GoogleFunctionDeclaration>().not.toHaveProperty('parameters');
    expect([googleTools.length, declarations.length, config.tools?.length, combined.length]).toEqual([1, 3, 1, 2]);
  });

  it('puts every declaration in one Tool, keeps dotted names and sends the schema as JSON Schema', () => {
    expect(toGoogleTools(sampleTools())).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Current weather for a city',
            parametersJsonSchema: {
              type: 'object',
              properties: {
                city: { type: 'string', description: 'City name' },
                units: { enum: ['metric', 'imperial'] },
              },
              required: ['city'],
              additionalProperties: false,
            },
          },
          {
            name: 'github.create_issue',
            description: 'Create issue',
            parametersJsonSchema: { type: 'object', properties: { title: { type: 'string' } } },
          },
          { name: 'ping', parametersJsonSchema: { type: 'object', properties: {} } },
        ],
      },
    ]);
  });

  it('returns no Tool at all for no tools, rather than one with no declarations', () => {
    expect(toGoogleTools([])).toEqual([]);
    expect(toGoogleFunctionDeclarations([])).toEqual([]);
  });

  it('goes through the SDK into the request body unchanged, and a function call maps back', async () => {
    const tools = sampleTools();
    const { fetch, requests } = recordingFetch(() => ({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'github.create_issue', args: { title: 'Bug' } } }],
          },
          finishReason: 'STOP',
        },
      ],
    }));
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: 'http://127.0.0.1:9', fetch } });
    const converted = toGoogleTools(tools);
    const response = await ai.models.generateContent({
      model: 'gemini-test',
      contents: 'file a bug',
      config: { tools: converted },
    });

    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:9\/.*models\/gemini-test:generateContent$/);
    expect(requests[0]?.body['tools']).toEqual(JSON.parse(JSON.stringify(converted)));
    const call = response.functionCalls?.[0];
    expect(call?.args).toEqual({ title: 'Bug' });
    expect(mapToolNames(tools, 'google').get(call?.name ?? '')).toBe(tools[1]);
  });
});
