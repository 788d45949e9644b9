// Host handlers for sampling, elicitation, roots and ping: requests checked, answers normalized, failures kept local.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ErrorReply } from '@mcpc/client';
import type { ElicitationAnswer, SamplingRequest } from '@mcpc/client/types';
import { ask, recordingLogger, scripted } from './helpers.js';

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const text = (t: string) => ({ type: 'text', text: t });
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'lookup', input: {} });
const toolResult = (id: string) => ({ type: 'tool_result', toolUseId: id, content: [text('42')] });

describe('sampling requests', () => {
  let client: Client;
  let tooled: Client;
  const seen: SamplingRequest[] = [];
  let behaviour: 'answer' | 'throw' | 'reject' = 'answer';
  const logger = recordingLogger();

  beforeAll(async () => {
    const onSampling = (request: SamplingRequest) => {
      seen.push(request);
      if (behaviour === 'throw') throw new Error('secret host detail: /home/me/.keys');
      if (behaviour === 'reject') throw new ErrorReply(-1, 'User rejected sampling request');
      return { model: 'm', content: { type: 'text' as const, text: 'ok' } };
    };
    client = new Client({ servers: [scripted()], onSampling, logger, deprecationNotices: false });
    tooled = new Client({
      servers: [scripted()],
      onSampling,
      samplingSupportsTools: true,
      logger,
      deprecationNotices: false,
    });
    await Promise.all([client.connect(), tooled.connect()]);
  });
  afterAll(async () => {
    await Promise.all([client.close(), tooled.close()]);
  });

  it.each([
    ['no messages', { messages: [], maxTokens: 10 }],
    ['no maxTokens', { messages: [user(text('hi'))] }],
    ['a role other than user or assistant', { messages: [{ role: 'system', content: text('hi') }], maxTokens: 10 }],
    ['a text block without text', { messages: [user({ type: 'text' })], maxTokens: 10 }],
    [
      'tools without the opt-in',
      { messages: [user(text('hi'))], maxTokens: 10, tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] },
    ],
    [
      'tool use without the opt-in',
      { messages: [user(text('hi')), assistant(toolUse('1')), user(toolResult('1'))], maxTokens: 10 },
    ],
  ])('answers -32602 before the handler runs: %s', async (_case, params) => {
    seen.length = 0;
    const reply = await ask(client, 'sampling/createMessage', params);
    expect(reply.error?.code).toBe(-32602);
    expect(seen).toHaveLength(0);
  });

  it.each([
    ['an unanswered tool use', [user(text('hi')), assistant(toolUse('1'))]],
    ['a tool use answered by the wrong id', [user(text('hi')), assistant(toolUse('1')), user(toolResult('2'))]],
    [
      'tool results mixed with other content',
      [user(text('hi')), assistant(toolUse('1')), user([toolResult('1'), text('and more')])],
    ],
    ['a tool result that answers no tool use', [user(toolResult('1'))]],
    [
      'a tool use followed by another assistant message',
      [user(text('hi')), assistant(toolUse('1')), assistant(text('x'))],
    ],
  ])('checks tool-use histories when tools are enabled: %s', async (_case, messages) => {
    seen.length = 0;
    const reply = await ask(tooled, 'sampling/createMessage', { messages, maxTokens: 10 });
    expect(reply.error?.code).toBe(-32602);
    expect(seen).toHaveLength(0);
  });

  it('passes a well-formed tool-use history and the tools to the handler when opted in', async () => {
    seen.length = 0;
    const messages = [user(text('hi')), assistant([text('let me look'), toolUse('1')]), user([toolResult('1')])];
    const reply = await ask(tooled, 'sampling/createMessage', {
      messages,
      maxTokens: 10,
      tools: [{ name: 'lookup', inputSchema: { type: 'object' } }],
      toolChoice: { mode: 'auto' },
    });
    expect(reply.result).toEqual({ model: 'm', role: 'assistant', content: { type: 'text', text: 'ok' } });
    expect(seen[0]?.tools?.[0]?.name).toBe('lookup');
    expect(tooled.server('scripted').clientCapabilities).toEqual({ sampling: { tools: {} } });
  });

  it('answers a throwing handler with a constant message and keeps the detail in the local log', async () => {
    behaviour = 'throw';
    try {
      const reply = await ask(client, 'sampling/createMessage', { messages: [user(text('hi'))], maxTokens: 10 });
      expect(reply.error).toEqual({ code: -32603, message: 'The client could not handle the request' });
      expect(JSON.stringify(reply)).not.toContain('secret');
      expect(logger.text('error')).toContain('secret host detail');
    } finally {
      behaviour = 'answer';
    }
  });

  it('lets a handler answer with a chosen error through ErrorReply', async () => {
    behaviour = 'reject';
    try {
      const reply = await ask(client, 'sampling/createMessage', { messages: [user(text('hi'))], maxTokens: 10 });
      expect(reply.error).toEqual({ code: -1, message: 'User rejected sampling request' });
    } finally {
      behaviour = 'answer';
    }
  });
});

describe('elicitation requests', () => {
  let form: Client;
  let both: Client;
  let answer: ElicitationAnswer;
  const formRequest = {
    mode: 'form',
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  };
  const urlRequest = { mode: 'url', message: 'Sign in', url: 'https://example.com/connect', elicitationId: 'e-1' };

  beforeAll(async () => {
    form = new Client({ servers: [scripted()], onElicitation: () => answer, logger: recordingLogger() });
    both = new Client({
      servers: [scripted()],
      onElicitation: () => answer,
      elicitationModes: ['form', 'url'],
      logger: recordingLogger(),
    });
    await Promise.all([form.connect(), both.connect()]);
  });
  afterAll(async () => {
    await Promise.all([form.close(), both.close()]);
  });

  it('normalizes form answers: content alone is accept, a bad action is cancel', async () => {
    answer = { name: 'Ada' };
    expect((await ask(form, 'elicitation/create', formRequest)).result).toEqual({
      action: 'accept',
      content: { name: 'Ada' },
    });
    answer = { action: 'decline' };
    expect(
      (await ask(form, 'elicitation/create', { message: 'Name?', requestedSchema: formRequest.requestedSchema }))
        .result,
    ).toEqual({ action: 'decline' });
    answer = { action: 'ok' } as never;
    expect((await ask(form, 'elicitation/create', formRequest)).result).toEqual({ action: 'cancel' });
    answer = undefined;
    expect((await ask(form, 'elicitation/create', formRequest)).result).toEqual({ action: 'cancel' });
  });

  it('refuses a mode the client did not declare, and malformed requests, with -32602', async () => {
    expect((await ask(form, 'elicitation/create', urlRequest)).error?.code).toBe(-32602);
    expect((await ask(form, 'elicitation/create', { ...formRequest, mode: 'telepathy' })).error?.code).toBe(-32602);
    expect((await ask(form, 'elicitation/create', { mode: 'form', message: 'no schema' })).error?.code).toBe(-32602);
    expect((await ask(both, 'elicitation/create', { ...urlRequest, url: 'not a url' })).error?.code).toBe(-32602);
  });

  it('answers URL mode with consent only: content is dropped, true is accept, content alone is cancel', async () => {
    answer = { action: 'accept', content: { token: 'leak' }, _meta: { 'example.com/k': 1 } };
    expect((await ask(both, 'elicitation/create', urlRequest)).result).toEqual({
      action: 'accept',
      _meta: { 'example.com/k': 1 },
    });
    answer = true;
    expect((await ask(both, 'elicitation/create', urlRequest)).result).toEqual({ action: 'accept' });
    answer = { token: 'leak' };
    expect((await ask(both, 'elicitation/create', urlRequest)).result).toEqual({ action: 'cancel' });
  });
});

describe('roots and ping from the server', () => {
  it("answers roots/list only when roots were declared, and answers the server's ping", async () => {
    await using undeclared = new Client({ servers: [scripted()] });
    expect((await ask(undeclared, 'roots/list')).error?.code).toBe(-32601);
    expect((await ask(undeclared, 'ping')).result).toEqual({});

    await using declared = new Client({ servers: [scripted()], roots: [], deprecationNotices: false });
    expect((await ask(declared, 'roots/list')).result).toEqual({ roots: [] });
    declared.roots = [{ uri: 'file:///work', name: 'Work' }];
    expect((await ask(declared, 'roots/list')).result).toEqual({ roots: [{ uri: 'file:///work', name: 'Work' }] });
    expect(() => (declared.roots = [{ uri: 'https://not-a-file' }])).toThrow(TypeError);
  });
});
