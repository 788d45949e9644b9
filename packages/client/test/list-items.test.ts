// Reading list items without spreads: the same objects (keys, order, prototype) `{ ...raw, ... }` gave.
import { describe, expect, it } from 'vitest';
import { copyOwn } from '../src/features/copy.js';
import { readTool, resolveAnnotations } from '../src/features/tools.js';
import { readPrompt } from '../src/features/prompts.js';
import { readResourceItem, readTemplate } from '../src/features/resources.js';
import { withMeta } from '../src/server/meta.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What readTool returned when it spread the raw tool and deleted what was invalid (the reference). */
function spreadTool(raw: Record<string, unknown>, server: string): Record<string, unknown> {
  const a = isObject(raw.annotations) ? raw.annotations : {};
  const annotations: Record<string, unknown> = {
    ...a,
    readOnlyHint: typeof a.readOnlyHint === 'boolean' ? a.readOnlyHint : false,
    destructiveHint: typeof a.destructiveHint === 'boolean' ? a.destructiveHint : true,
    idempotentHint: typeof a.idempotentHint === 'boolean' ? a.idempotentHint : false,
    openWorldHint: typeof a.openWorldHint === 'boolean' ? a.openWorldHint : true,
  };
  if (a.title !== undefined && typeof a.title !== 'string') delete annotations.title;
  const execution = raw.execution;
  const taskSupport =
    isObject(execution) && ['forbidden', 'optional', 'required'].includes(execution.taskSupport as string)
      ? execution.taskSupport
      : 'forbidden';
  const tool: Record<string, unknown> = {
    ...raw,
    server,
    inputSchema: raw.inputSchema ?? { type: 'object' },
    annotations,
    taskSupport,
  };
  if (raw.outputSchema !== undefined && !isObject(raw.outputSchema)) delete tool.outputSchema;
  for (const key of ['title', 'description'])
    if (raw[key] !== undefined && typeof raw[key] !== 'string') delete tool[key];
  if (raw.icons !== undefined && !Array.isArray(raw.icons)) delete tool.icons;
  return tool;
}

/** Own keys in order, prototype, and values: what a spread is observably. */
function shape(value: unknown): unknown {
  if (!isObject(value)) return value;
  return {
    proto: Object.getPrototypeOf(value) === Object.prototype,
    keys: Reflect.ownKeys(value).map(String),
    entries: Reflect.ownKeys(value).map((k) => [String(k), shape((value as Record<PropertyKey, unknown>)[k])]),
  };
}

const TOOLS: Record<string, unknown>[] = [
  { name: 'plain', description: 'd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'bare' },
  {
    name: 'ordered',
    taskSupport: 'bogus',
    server: 'theirs',
    annotations: { openWorldHint: false, z: 1, title: 't', readOnlyHint: 'yes' },
    _meta: { k: 1 },
    execution: { taskSupport: 'optional' },
    '7': 'integer-like key',
  },
  {
    name: 'invalid fields',
    title: 5,
    description: null,
    outputSchema: [],
    icons: {},
    annotations: { title: 3, destructiveHint: false },
  },
  { name: 'undefined fields', title: undefined, outputSchema: undefined, icons: undefined },
  JSON.parse(
    '{"name":"proto","__proto__":{"polluted":true},"annotations":{"__proto__":{"p":1},"idempotentHint":true}}',
  ),
];

describe('list items are read without spreads', () => {
  it('copyOwn is a spread: own keys in order, integer-like keys first, symbols, __proto__ as a plain key', () => {
    const symbol = Symbol('s');
    const cases = [
      { b: 1, a: 2, '2': 3, '1': 4 },
      { [symbol]: 1, x: 2 },
      JSON.parse('{"a":1,"__proto__":{"x":1},"b":2}') as Record<string, unknown>,
      {},
    ];
    for (const raw of cases) {
      const copy = copyOwn(raw);
      expect(copy).not.toBe(raw);
      expect(shape(copy)).toEqual(shape({ ...raw }));
      expect(Object.getOwnPropertySymbols(copy)).toEqual(Object.getOwnPropertySymbols({ ...raw }));
    }
    expect(Object.getPrototypeOf(copyOwn(cases[2]!))).toBe(Object.prototype);
  });

  it('readTool gives what the spread-and-delete version gave, key order included', () => {
    for (const raw of TOOLS) expect(shape(readTool(raw, 'srv'))).toEqual(shape(spreadTool(raw, 'srv')));
  });

  it('resolveAnnotations fills the defaults over the server keys, in their order', () => {
    expect(Object.keys(resolveAnnotations({ openWorldHint: false, x: 1 }))).toEqual([
      'openWorldHint',
      'x',
      'readOnlyHint',
      'destructiveHint',
      'idempotentHint',
    ]);
    expect(resolveAnnotations(undefined)).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('prompts, resources and templates carry the server, after the keys of the item', () => {
    const prompt = readPrompt({ name: 'p', server: 'x', arguments: [{ name: 'a' }, 3] }, 'srv') as object;
    expect(shape(prompt)).toEqual(shape({ name: 'p', server: 'srv', arguments: [{ name: 'a' }] }));
    expect(shape(readResourceItem({ uri: 'u:1', mimeType: 'm' }, 'srv'))).toEqual(
      shape({ uri: 'u:1', mimeType: 'm', name: 'u:1', server: 'srv' }),
    );
    expect(shape(readTemplate({ name: 'n', uriTemplate: 'u:{x}' }, 'srv'))).toEqual(
      shape({ name: 'n', uriTemplate: 'u:{x}', server: 'srv' }),
    );
  });

  it('withMeta copies the params and sets _meta where a spread would', () => {
    const protocol = Object.freeze({ p: 1 });
    const params = { name: 'echo', arguments: { m: 1 } };
    const built = withMeta(params, undefined, protocol)!;
    expect(built).not.toBe(params);
    expect(Object.keys(built)).toEqual(['name', 'arguments', '_meta']);
    expect(built._meta).toBe(protocol);
    expect(params).toEqual({ name: 'echo', arguments: { m: 1 } });
    const own = withMeta({ _meta: { a: 1 }, name: 'x' }, undefined, protocol)!;
    expect(Object.keys(own)).toEqual(['_meta', 'name']);
    expect(own._meta).toEqual({ a: 1, p: 1 });
  });
});
