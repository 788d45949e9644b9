// A hostile server: malformed lists and results refused or dropped, server fields kept from overriding ours.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, ValidationError, textOf, type LogMessage } from '@mcpc/client';
import { recordingLogger, scripted, until } from './helpers.js';

// Each test scripts the server's answers with the `set` tool; the scripted server answers tools/call
// whatever its tools/list claims, and with one server and validation off the client does not look the
// tool up (so the lists scripted here meet only the calls that ask for them).
describe('a hostile server', () => {
  let client: Client;
  const logger = recordingLogger();
  const logs: LogMessage[] = [];
  const set = async (method: string, result: unknown) => {
    await client.callTool('set', { method, result });
    client.clearCache();
  };

  beforeAll(async () => {
    client = new Client({
      servers: [scripted('evil')],
      logger,
      logMessageLimit: 100,
      validateStructuredContent: 'off',
    });
    client.onLog((_server, message) => void logs.push(message));
    await client.connect();
  });
  afterAll(() => client.close());
  beforeEach(() => {
    logger.lines.length = 0;
  });

  it('fails a list whose array is not an array with ValidationError', async () => {
    await set('tools/list', { tools: 'surprise' });
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'MCPC_INVALID_SHAPE', server: 'evil', method: 'tools/list' });
    await set('prompts/list', null);
    await expect(client.listPrompts()).rejects.toBeInstanceOf(ValidationError);
  });

  it('drops invalid items with one warning, keeping the valid ones', async () => {
    await set('tools/list', {
      tools: [
        { name: 'good', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'yes' } },
        { inputSchema: { type: 'object' } },
        42,
        { name: 'bad\u001b[2Jschema', inputSchema: 'nope' },
        { name: 'legacy' },
      ],
    });
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['good', 'legacy']);
    // A non-boolean hint is no hint: the less-safe default applies.
    expect(tools[0]?.annotations.readOnlyHint).toBe(false);
    expect(tools[1]?.inputSchema).toEqual({ type: 'object' });
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(
      /dropped from tools\/list: tool #1: no string "name"; tool #2: not an object; tool #3: "bad\\u001b\[2Jschema": inputSchema/,
    );
  });

  it('keeps a server-sent field from overriding what the client sets on a tool', async () => {
    await set('tools/list', {
      tools: [{ name: 't', inputSchema: { type: 'object' }, server: 'someone-else', taskSupport: 'required' }],
    });
    expect((await client.listTools())[0]).toMatchObject({ server: 'evil', taskSupport: 'forbidden' });
  });

  it('escapes and caps log messages before delivering them', async () => {
    logs.length = 0;
    const data = 'line one\n[mcpc] forged line\u202e' + 'A'.repeat(500);
    await client.callTool('notify', {
      method: 'notifications/message',
      params: { level: 'error', logger: 'x\u001b[31m', data },
    });
    await client.callTool('notify', {
      method: 'notifications/message',
      params: { level: 'bogus', data: { nested: ['ok\u0007'], __proto__: { polluted: true } } },
    });
    await until(() => logs.length === 2);
    // Escaped with escapePeerText, then capped at logMessageLimit (100) characters, marker included.
    expect(logs[0]).toEqual({
      level: 'error',
      logger: 'x\\x1B[31m',
      data: expect.stringMatching(/^line one\\n\[mcpc\] forged line\\u202EA+…\(528 chars\)$/),
    });
    expect((logs[0]?.data as string).length).toBeLessThanOrEqual(100);
    expect(logs[1]?.level).toBe('info');
    expect(logs[1]?.data).toEqual({ nested: ['ok\\x07'] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a resources/read or tools/call result of the wrong shape', async () => {
    await set('resources/read', { contents: { uri: 'x' } });
    await expect(client.readResource('mem://x')).rejects.toBeInstanceOf(ValidationError);
    await set('resources/read', { contents: [{ uri: 'mem://x', text: 'ok', isText: 'shadow' }, { uri: 'mem://y' }] });
    const contents = await client.readResource('mem://x');
    expect(contents).toHaveLength(1);
    expect(contents[0]?.isText()).toBe(true);
  });

  it('caps a completion at 100 values and drops values that are not strings', async () => {
    await set('completion/complete', {
      completion: { values: [...Array.from({ length: 500 }, (_, i) => `v${i}`), 7] },
    });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'p' },
      argument: { name: 'a', value: '' },
    });
    expect(completion.values).toHaveLength(100);
    expect(completion.values[99]).toBe('v99');
  });

  it('answers a server request without any host detail when a handler-less method is asked', async () => {
    const reply = JSON.parse(
      textOf(
        await client.callTool('ask', { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }),
      ),
    );
    expect(reply.error).toEqual({ code: -32601, message: 'Method not found' });
  });
});
