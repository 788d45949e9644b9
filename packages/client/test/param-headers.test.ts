// `x-mcp-header` annotations: reading them, encoding values, and `Mcp-Param-*` headers on a modern HTTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, HeaderMismatchError, streamableHttp, textOf } from '@mcpc/client';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { paramHeaders, readParamHeaders } from '../src/features/param-headers.js';
import { encodeHeaderValue } from '../src/server/headers.js';
import { modernFixture, modernFixturePath, recordingLogger } from './helpers.js';

describe('x-mcp-header annotations', () => {
  it('reads annotations statically reachable through properties, nested objects included', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        where: { type: 'object', properties: { zone: { type: 'integer', 'x-mcp-header': 'Zone' } } },
      },
    };
    expect(readParamHeaders(schema)).toEqual([
      { header: 'mcp-param-region', path: ['region'] },
      { header: 'mcp-param-zone', path: ['where', 'zone'] },
    ]);
    // A property *named* x-mcp-header is a name, not an annotation.
    expect(readParamHeaders({ type: 'object', properties: { 'x-mcp-header': { type: 'object' } } })).toEqual([]);
  });

  it.each([
    ['an empty name', { a: { type: 'string', 'x-mcp-header': '' } }],
    ['a name that is not a token', { a: { type: 'string', 'x-mcp-header': 'Bad Name' } }],
    ['a control character', { a: { type: 'string', 'x-mcp-header': 'A\r\nB' } }],
    [
      'a case-insensitive duplicate',
      { a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'dup' } },
    ],
    ['a number parameter', { a: { type: 'number', 'x-mcp-header': 'N' } }],
    ['an object parameter', { a: { type: 'object', 'x-mcp-header': 'O' } }],
    ['an annotation under items', { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } } }],
    ['an annotation under anyOf', { a: { anyOf: [{ type: 'string', 'x-mcp-header': 'I' }] } }],
  ])('rejects %s', (_what, properties) => {
    expect(typeof readParamHeaders({ type: 'object', properties })).toBe('string');
  });

  it('rejects an annotation under $defs', () => {
    expect(
      typeof readParamHeaders({
        type: 'object',
        properties: { a: { $ref: '#/$defs/x' } },
        $defs: { x: { type: 'string', 'x-mcp-header': 'X' } },
      }),
    ).toBe('string');
  });

  it('encodes values: integers in decimal, booleans lower-case, unsafe values and sentinel look-alikes as base64; null and absent omitted', () => {
    const annotations = [
      { header: 'mcp-param-s', path: ['s'] },
      { header: 'mcp-param-i', path: ['i'] },
      { header: 'mcp-param-b', path: ['b'] },
      { header: 'mcp-param-n', path: ['n'] },
      { header: 'mcp-param-m', path: ['missing'] },
    ];
    expect(paramHeaders(annotations, { s: 'us-west1', i: -7, b: false, n: null })).toEqual({
      'mcp-param-s': 'us-west1',
      'mcp-param-i': '-7',
      'mcp-param-b': 'false',
    });
    expect(encodeHeaderValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(encodeHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(encodeHeaderValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=');
    expect(encodeHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  });
});

describe('Mcp-Param-* on a modern HTTP server', () => {
  let fixture: Fixture;
  let client: Client;
  const logger = recordingLogger();
  const open = async (): Promise<Client> => {
    const c = new Client({ servers: [streamableHttp({ name: 's', url: fixture.url, retries: 0 })], logger });
    await c.connect();
    return c;
  };
  const stats = async (c: Client) =>
    JSON.parse(textOf(await c.callTool('stats'))) as {
      methods: Record<string, number>;
      requests: { method: string; headers: Record<string, string> }[];
    };
  beforeAll(async () => {
    fixture = await startFixture(modernFixturePath('scripted-server.mjs'), ['http']);
    client = await open();
  });
  afterAll(async () => {
    await client?.close();
    await fixture?.stop();
  });

  it('a call made without a prior listTools fetches the definition first and mirrors the annotated arguments', async () => {
    const fresh = await open();
    try {
      const seen = JSON.parse(
        textOf(await fresh.callTool('region', { region: 'Zürich', query: 'q', n: 42, flag: true })),
      );
      expect(seen).toEqual({ region: encodeHeaderValue('Zürich'), n: '42', flag: 'true' });
      const { requests } = await stats(fresh);
      const methods = requests.map((r) => r.method);
      expect(methods.indexOf('tools/list')).toBeLessThan(methods.indexOf('tools/call'));
    } finally {
      await fresh.close();
    }
  });

  it('tools with invalid annotations are left out of listTools, with a warning naming each', async () => {
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['region', 'nested', 'echo']));
    for (const bad of ['bad-number', 'bad-dup', 'bad-items', 'bad-token']) {
      expect(names).not.toContain(bad);
      expect(logger.text('warn')).toContain(`tool "${bad}"`);
    }
  });

  it('a null argument sends no header', async () => {
    expect(JSON.parse(textOf(await client.callTool('region', { region: null, query: 'q' })))).toEqual({
      region: null,
      n: null,
      flag: null,
    });
  });

  it('a HeaderMismatch (-32020) refreshes tools/list once and retries', async () => {
    await client.listTools();
    const before = (await stats(client)).methods['tools/list'] ?? 0;
    const heard: string[] = [];
    const stop = client.onNotification((_server, method) => heard.push(method));
    try {
      expect(textOf(await client.callTool('mismatch'))).toBe('matched after refresh');
    } finally {
      stop();
    }
    expect((await stats(client)).methods['tools/list']).toBe(before + 1);
    // The reference's synthetic notice of the refresh reaches onNotification (it did not before).
    expect(heard).toContain('notifications/tools/list_changed');
  });

  it('a HeaderMismatch after the retry is raised as HeaderMismatchError (one refresh, one retry)', async () => {
    const before = await stats(client);
    const error = await client.callTool('always-mismatch').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeaderMismatchError);
    expect(error).toMatchObject({ rpcCode: -32020, code: 'MCPC_HEADER_MISMATCH' });
    const after = await stats(client);
    expect(after.methods['always-mismatch'] ?? 0).toBe(0);
    expect(
      after.requests.filter((r) => r.method === 'tools/call').length -
        before.requests.filter((r) => r.method === 'tools/call').length,
    ).toBe(3);
  });
});

describe('x-mcp-header over stdio', () => {
  it('is ignored: nothing is screened out', async () => {
    const client = new Client({
      servers: [modernFixture('scripted-server.mjs', ['stdio'], { name: 's' })],
      logger: recordingLogger(),
    });
    try {
      const names = (await client.listTools()).map((t) => t.name);
      expect(names).toContain('bad-number');
    } finally {
      await client.close();
    }
  });
});
