// `convertToolName` and tool naming per target: the encoding, length cuts, and names kept apart.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { McpError } from '@mcpc/jsonrpc';
import {
  convertToolName,
  mapToolNames,
  toAiSdkTools,
  toAnthropicTools,
  toGoogleTools,
  toOpenAIResponsesTools,
  toOpenAITools,
  ToolConversionError,
  type ConvertibleTool,
  type ToolNameTarget,
} from '../../src/convert/index.js';
import { GITHUB_OPENAI_NAME, deepFreeze } from './helpers.js';

/** Each SDK's documented rule, written out independently of the implementation. */
const RULES: Record<ToolNameTarget, RegExp> = {
  openai: /^[a-zA-Z0-9_-]{1,64}$/,
  anthropic: /^[a-zA-Z0-9_-]{1,64}$/,
  google: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
  'ai-sdk': /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/,
};
const TARGETS = Object.keys(RULES) as ToolNameTarget[];

const tool = (name: string, extra: Partial<ConvertibleTool> = {}): ConvertibleTool => ({
  name,
  inputSchema: { type: 'object' },
  ...extra,
});
const noop = async (): Promise<unknown> => undefined;

/** Every converter, as a function of the tool list, keyed by the naming target it uses. */
const CONVERTERS: [string, ToolNameTarget, (tools: readonly ConvertibleTool[]) => unknown][] = [
  ['toOpenAITools', 'openai', (t) => toOpenAITools(t)],
  ['toOpenAIResponsesTools', 'openai', (t) => toOpenAIResponsesTools(t)],
  ['toAnthropicTools', 'anthropic', (t) => toAnthropicTools(t)],
  ['toGoogleTools', 'google', (t) => toGoogleTools(t)],
  ['toAiSdkTools', 'ai-sdk', (t) => toAiSdkTools(t, noop)],
];

describe('convertToolName', () => {
  it.each(TARGETS)('keeps a name %s accepts, including one of exactly 64 characters', (target) => {
    for (const name of ['get_weather', 'search-docs', 'Tool_2', 'x'.repeat(64)])
      expect(convertToolName(name, target)).toBe(name);
  });

  it('keeps dots and colons for Google only', () => {
    expect(convertToolName('github.create_issue', 'google')).toBe('github.create_issue');
    expect(convertToolName('ns:tool', 'google')).toBe('ns:tool');
    expect(convertToolName('github.create_issue', 'openai')).toBe(GITHUB_OPENAI_NAME);
    expect(convertToolName('github.create_issue', 'anthropic')).toBe(GITHUB_OPENAI_NAME);
    expect(convertToolName('github.create_issue', 'ai-sdk')).toBe(GITHUB_OPENAI_NAME);
  });

  it('pins the encoding: `_` for each bad code point, then `_` and the FNV-1a hash of the full name', () => {
    // FNV-1a-32("") is the offset basis 0x811c9dc5, the published test vector.
    expect(convertToolName('', 'openai')).toBe('_811c9dc5');
    expect(convertToolName('', 'google')).toBe('__811c9dc5');
    expect(convertToolName('server/tool name', 'google')).toBe('server_tool_name_81051348');
    // One `_` per code point, so an astral character is one `_`, not two.
    expect(convertToolName('ünïcødé 🚀', 'openai')).toBe('_n_c_d____24dfa8a9');
  });

  it('prefixes `_` where a leading letter or underscore is required (Google, AI SDK), not elsewhere', () => {
    expect(convertToolName('1st', 'openai')).toBe('1st');
    expect(convertToolName('1st', 'anthropic')).toBe('1st');
    expect(convertToolName('1st', 'google')).toBe('_1st_35d9a56b');
    expect(convertToolName('-x', 'ai-sdk')).toMatch(/^_-x_[0-9a-f]{8}$/);
  });

  it('cuts long names to 64 characters and keeps names that share the first 64 apart', () => {
    const a = `${'a'.repeat(100)}_one`;
    const b = `${'a'.repeat(100)}_two`;
    expect(convertToolName(a, 'openai')).toHaveLength(64);
    expect(convertToolName(a, 'openai')).not.toBe(convertToolName(b, 'openai'));
    expect(convertToolName(a, 'openai').startsWith('a'.repeat(55))).toBe(true);
  });

  it.each(TARGETS)('always yields a name %s accepts, deterministically, and is idempotent (property)', (target) => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (name) => {
        const converted = convertToolName(name, target);
        expect(converted).toMatch(RULES[target]);
        expect(convertToolName(name, target)).toBe(converted);
        expect(convertToolName(converted, target)).toBe(converted);
        if (RULES[target].test(name)) expect(converted).toBe(name);
      }),
      { numRuns: 300 },
    );
  });

  it('separates distinct names that sanitize alike (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), (stem) => {
        expect(convertToolName(`${stem}.x`, 'openai')).not.toBe(convertToolName(`${stem}/x`, 'openai'));
      }),
      { numRuns: 200 },
    );
  });
});

describe('mapToolNames', () => {
  it('maps each converted name back to the very tool object it came from', () => {
    const tools = deepFreeze([tool('get_weather'), tool('github.create_issue')]);
    const openai = mapToolNames(tools, 'openai');
    expect([...openai.keys()]).toEqual(['get_weather', GITHUB_OPENAI_NAME]);
    expect(openai.get(GITHUB_OPENAI_NAME)).toBe(tools[1]);
    expect(mapToolNames(tools, 'google').get('github.create_issue')).toBe(tools[1]);
    expect(mapToolNames([], 'anthropic').size).toBe(0);
  });

  it('agrees with the names every converter produces', () => {
    const tools = [tool('a.b'), tool('ok'), tool('9lives')];
    const names = (target: ToolNameTarget) => [...mapToolNames(tools, target).keys()];
    expect(toOpenAITools(tools).map((t) => t.function.name)).toEqual(names('openai'));
    expect(toOpenAIResponsesTools(tools).map((t) => t.name)).toEqual(names('openai'));
    expect(toAnthropicTools(tools).map((t) => t.name)).toEqual(names('anthropic'));
    expect(toGoogleTools(tools)[0]?.functionDeclarations.map((d) => d.name)).toEqual(names('google'));
    expect(Object.keys(toAiSdkTools(tools, noop))).toEqual(names('ai-sdk'));
  });

  it('applies the `name` option before the rules, so tools of two servers can share an MCP name', () => {
    const a = { ...tool('search'), server: 'docs' };
    const b = { ...tool('search'), server: 'web.v2' };
    const name = (t: { server: string; name: string }) => `${t.server}__${t.name}`;
    expect(() => mapToolNames([a, b], 'openai')).toThrow(ToolConversionError);
    const byName = mapToolNames([a, b], 'openai', { name });
    expect(byName.get('docs__search')).toBe(a);
    expect(byName.get(convertToolName('web.v2__search', 'openai'))?.server).toBe('web.v2');
    expect(toOpenAITools([a, b], { name }).map((t) => t.function.name)).toEqual([...byName.keys()]);
  });
});

describe('duplicate and invalid names', () => {
  it.each(CONVERTERS)('%s throws a typed duplicate-name error instead of dropping a tool', (_, target, convert) => {
    const tools = [tool('search', { description: 'server one' }), tool('search', { description: 'server two' })];
    const error = (() => {
      try {
        convert(tools);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ToolConversionError);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      reason: 'duplicate-name',
      code: 'MCPC_TOOL_CONVERSION',
      target,
      toolName: 'search',
      convertedName: 'search',
    });
  });

  it.each(CONVERTERS)('%s detects a sanitized name meeting a literal one', (_, target, convert) => {
    const literal = convertToolName('a/b', target);
    expect(literal).not.toBe('a/b');
    expect(() => convert([tool('a/b'), tool(literal)])).toThrow(
      expect.objectContaining({ reason: 'duplicate-name', convertedName: literal }),
    );
    // Two different names that merely sanitize alike do not clash: the hash keeps them apart.
    expect(() => convert([tool('a/b'), tool('a.b'), tool('a b')])).not.toThrow();
  });

  it('names the clashing tools in the message, escaped', () => {
    expect(() => toOpenAITools([tool('x\u001b[31m'), tool('x\u001b[31m')])).toThrow(
      /"x\\u001b\[31m" and "x\\u001b\[31m"/,
    );
  });

  it.each(CONVERTERS)('%s rejects a name that is not a string with invalid-name', (_, target, convert) => {
    const bad = { name: 42, inputSchema: { type: 'object' } } as unknown as ConvertibleTool;
    expect(() => convert([bad])).toThrow(
      expect.objectContaining({ reason: 'invalid-name', target, toolName: undefined }),
    );
  });

  it('rejects a `name` option that returns a non-string, naming the tool', () => {
    const rename = (() => undefined) as unknown as (t: ConvertibleTool) => string;
    expect(() => toAnthropicTools([tool('ok')], { name: rename })).toThrow(
      expect.objectContaining({ reason: 'invalid-name', toolName: 'ok' }),
    );
  });
});

describe('ToolConversionError', () => {
  it('is an McpError with a stable code, a brand and its own name', () => {
    const e = new ToolConversionError('invalid-schema', 'bad', { target: 'google', toolName: 't' });
    expect(e).toBeInstanceOf(McpError);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('ToolConversionError');
    expect(e.code).toBe('MCPC_TOOL_CONVERSION');
    const brand: unknown = Object.getOwnPropertyDescriptor(ToolConversionError, Symbol.for('@mcpc/error.brand'))?.value;
    expect(brand).toBe(Symbol.for('@mcpc/client.ToolConversionError'));
    expect(e.convertedName).toBeUndefined();
    expect(new McpError('x')).not.toBeInstanceOf(ToolConversionError);
  });
});
