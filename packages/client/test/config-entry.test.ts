// `@mcpc/client/config`: mcpServers entries as the hosts write them, table by table, and the HTTP transports by name.
import { describe, expect, it } from 'vitest';
import { ClientErrorCode, ConfigEntryError } from '@mcpc/client';
import { httpConfig, readConfigEntry, type ConfigEntry } from '@mcpc/client/config';

const entry = (raw: unknown, expand?: (value: string) => string): ConfigEntry => {
  const read = readConfigEntry('srv', raw, expand === undefined ? {} : { expand });
  if (!read.ok) throw read.error;
  return read.entry;
};

describe('readConfigEntry: the spellings hosts write', () => {
  it.each([
    [
      'a command alone',
      { command: 'npx', args: ['-y', 'srv'] },
      { kind: 'stdio', command: 'npx', args: ['-y', 'srv'] },
    ],
    [
      'type stdio, env and cwd',
      { type: 'stdio', command: 'x', env: { A: '1' }, cwd: '/w' },
      { kind: 'stdio', command: 'x', env: { A: '1' }, cwd: '/w' },
    ],
    [
      'numbers and booleans as text',
      { command: 'x', args: [8080, true], env: { PORT: 8080 } },
      { kind: 'stdio', command: 'x', args: ['8080', 'true'], env: { PORT: '8080' } },
    ],
    [
      'an object in args as JSON',
      { command: 'x', args: [{ a: 1 }] },
      { kind: 'stdio', command: 'x', args: ['{"a":1}'] },
    ],
    [
      'a command wins over a url without a type',
      { command: 'x', url: 'https://h.test/mcp' },
      { kind: 'stdio', command: 'x' },
    ],
    ['a url alone: no transport named', { url: 'https://h.test/mcp' }, { kind: 'url', url: 'https://h.test/mcp' }],
    [
      'the hosts\' "http" is Streamable HTTP',
      { type: 'http', url: 'https://h.test/mcp' },
      { kind: 'url', url: 'https://h.test/mcp', transport: 'streamable-http' },
    ],
    [
      'streamable_http',
      { type: 'streamable_http', url: 'https://h.test/mcp' },
      { kind: 'url', url: 'https://h.test/mcp', transport: 'streamable-http' },
    ],
    [
      'streamableHttp',
      { type: 'streamableHttp', url: 'https://h.test/mcp' },
      { kind: 'url', url: 'https://h.test/mcp', transport: 'streamable-http' },
    ],
    [
      'SSE in capitals, under "transport"',
      { transport: 'SSE', url: 'http://h.test/sse' },
      { kind: 'url', url: 'http://h.test/sse', transport: 'sse' },
    ],
    [
      'a type that says URL over a command',
      { type: 'sse', command: 'x', url: 'http://h.test/sse' },
      { kind: 'url', url: 'http://h.test/sse', transport: 'sse' },
    ],
    ['serverUrl (Windsurf)', { serverUrl: 'https://h.test/mcp' }, { kind: 'url', url: 'https://h.test/mcp' }],
    ['httpUrl (Gemini)', { httpUrl: 'https://h.test/mcp' }, { kind: 'url', url: 'https://h.test/mcp' }],
    [
      'headers',
      { url: 'https://h.test/mcp', headers: { 'X-Key': 'k' } },
      { kind: 'url', url: 'https://h.test/mcp', headers: { 'X-Key': 'k' } },
    ],
    [
      "Codex's headers: http_headers, env_http_headers, bearer_token_env_var",
      {
        url: 'https://h.test/mcp',
        http_headers: { A: 'a' },
        env_http_headers: { B: 'B_VAR' },
        bearer_token_env_var: 'TOKEN',
      },
      { kind: 'url', url: 'https://h.test/mcp', headers: { A: 'a', B: '${B_VAR}', Authorization: 'Bearer ${TOKEN}' } },
    ],
    ['null fields as absent', { command: 'x', args: undefined, env: null, cwd: null }, { kind: 'stdio', command: 'x' }],
  ])('%s', (_what, raw, expected) => {
    expect(entry(raw)).toEqual({ name: 'srv', ...expected });
  });

  it('expands every value it uses with `expand`, before the URL is checked, and no name', () => {
    const expand = (value: string): string => value.replaceAll('${HOST}', 'h.test').replaceAll('${T}', 'tok');
    expect(
      entry({ url: 'https://${HOST}/mcp', headers: { '${T}': '${T}' }, bearer_token_env_var: 'T' }, expand),
    ).toEqual({
      name: 'srv',
      kind: 'url',
      url: 'https://h.test/mcp',
      headers: { '${T}': 'tok', Authorization: 'Bearer tok' },
    });
    expect(entry({ command: '${HOST}', args: ['${T}'], env: { K: '${T}' }, cwd: '${HOST}' }, expand)).toEqual({
      name: 'srv',
      kind: 'stdio',
      command: 'h.test',
      args: ['tok'],
      env: { K: 'tok' },
      cwd: 'h.test',
    });
  });
});

describe('readConfigEntry: an entry that cannot be used is a ConfigEntryError naming it and the field', () => {
  it.each([
    ['not an object', 'npx srv', undefined, 'mcpServers["srv"] is not an object'],
    ['an array', ['npx'], undefined, 'mcpServers["srv"] is not an object'],
    ['null', null, undefined, 'mcpServers["srv"] is not an object'],
    ['neither command nor url', {}, undefined, 'mcpServers["srv"] has neither a "command" nor a "url"'],
    ['an empty command', { command: '' }, undefined, 'mcpServers["srv"] has neither a "command" nor a "url"'],
    [
      'an unknown type',
      { type: 'carrier-pigeon', url: 'https://h.test/' },
      'type',
      'mcpServers["srv"] has type "carrier-pigeon", which is no transport mcpc speaks (stdio, streamable-http, http, sse)',
    ],
    [
      'a type named like an Object method',
      { type: 'toString', url: 'https://h.test/' },
      'type',
      'which is no transport mcpc speaks',
    ],
    ['a type that is not text', { type: 3, command: 'x' }, 'type', 'mcpServers["srv"] has a "type" that is not text'],
    [
      'type stdio without a command',
      { type: 'stdio', url: 'https://h.test/' },
      'command',
      'mcpServers["srv"] has type "stdio" but no "command"',
    ],
    ['type sse without a url', { type: 'sse', command: 'x' }, 'url', 'mcpServers["srv"] has type "sse" but no "url"'],
    [
      'transport http without a url',
      { transport: 'http' },
      'url',
      'mcpServers["srv"] has transport "http" but no "url"',
    ],
    [
      'a command that is an object',
      { command: { path: 'x' } },
      'command',
      'mcpServers["srv"] has "command" that is not text',
    ],
    [
      'args that are not an array',
      { command: 'x', args: '-y srv' },
      'args',
      'mcpServers["srv"] has "args" that is not an array',
    ],
    [
      'env that is not an object',
      { command: 'x', env: ['A=1'] },
      'env',
      'mcpServers["srv"] has "env" that is not an object of names to text',
    ],
    [
      'an env value that is an object',
      { command: 'x', env: { A: { b: 1 } } },
      'env.A',
      'mcpServers["srv"] has "env.A" that is not text',
    ],
    ['a cwd that is an array', { command: 'x', cwd: ['/'] }, 'cwd', 'mcpServers["srv"] has "cwd" that is not text'],
    [
      'a url that is no URL',
      { url: 'not a url' },
      'url',
      'mcpServers["srv"] has "url" "not a url", which is not an http(s) URL',
    ],
    ['a url of another scheme', { type: 'sse', url: 'ftp://h.test/sse' }, 'url', 'which is not an http(s) URL'],
    [
      'a serverUrl that is no URL',
      { serverUrl: 'h.test' },
      'serverUrl',
      'mcpServers["srv"] has "serverUrl" "h.test", which is not an http(s) URL',
    ],
    [
      'headers that are text',
      { url: 'https://h.test/', headers: 'X-Key: k' },
      'headers',
      'mcpServers["srv"] has "headers" that is not an object of names to text',
    ],
    [
      'a header value that is a list',
      { url: 'https://h.test/', headers: { A: ['a'] } },
      'headers.A',
      'mcpServers["srv"] has "headers.A" that is not text',
    ],
  ])('%s', (_what, raw, field, message) => {
    const read = readConfigEntry('srv', raw);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.error).toBeInstanceOf(ConfigEntryError);
    expect(read.error.code).toBe(ClientErrorCode.InvalidConfigEntry);
    expect(read.error.entry).toBe('srv');
    expect(read.error.field).toBe(field);
    expect(read.error.message).toContain(message);
    expect(read.error.message).toBe(`mcpServers["srv"] ${read.error.reason}`);
  });

  it('names an entry whose name needs quoting as JSON would', () => {
    const read = readConfigEntry('a "b"\n', 1);
    expect(read.ok || read.error.message).toBe('mcpServers["a \\"b\\"\\n"] is not an object');
  });
});

describe('httpConfig: the HTTP transports by name', () => {
  const url = 'https://user:pw@h.test/mcp?token=t';
  it.each([
    ['streamable-http', 'streamable-http', false],
    ['http', 'http', false],
    ['sse', 'sse', false],
    ['auto', 'streamable-http', true],
  ] as const)('%s → a %s config (with fallbacks: %s)', (name, kind, falls) => {
    const config = httpConfig(name, { name: 'n', url });
    expect(config.kind).toBe(kind);
    expect(config.label).toBe('https://h.test/mcp');
    expect(typeof config.fallback === 'function').toBe(falls);
  });

  it('refuses any other name with a TypeError that lists them', () => {
    expect(() => httpConfig('streamable_http' as 'http', { url })).toThrow(TypeError);
    expect(() => httpConfig('stdio' as 'http', { url })).toThrow(/"stdio"; use auto, streamable-http, http, sse/);
  });
});
