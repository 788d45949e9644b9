// Request `_meta` on the wire: keys hoisted out of arguments, merged with the call's, progress tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, textOf } from '@mcpc/client';
import { scripted } from './helpers.js';

describe('request _meta', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ servers: [scripted('s')] });
    await client.connect();
  });
  afterAll(() => client.close());
  const received = async (args: Record<string, unknown>, options = {}) =>
    JSON.parse(textOf(await client.callTool('params', args, options)));

  it('hoists a _meta key in the arguments to the params _meta, never sending it as an argument', async () => {
    const params = await received({ city: 'Oslo', _meta: { 'example.com/trace': 't-1', progressToken: 'mine' } });
    expect(params).toEqual({
      name: 'params',
      arguments: { city: 'Oslo' },
      _meta: { 'example.com/trace': 't-1', progressToken: 'mine' },
    });
  });

  it('merges the call meta option over the hoisted one, and keeps the arguments object the caller passed intact', async () => {
    const args = { city: 'Oslo', _meta: { a: 1, b: 1 } };
    const params = await received(args, { meta: { b: 2 } });
    expect(params._meta).toEqual({ a: 1, b: 2 });
    expect(args).toEqual({ city: 'Oslo', _meta: { a: 1, b: 1 } });
  });

  it('adds a progressToken when onProgress is given, and sends no _meta otherwise', async () => {
    const withProgress = await received({}, { onProgress: () => {} });
    expect(withProgress._meta).toEqual({ progressToken: expect.any(Number) });
    expect(await received({ x: 1 })).toEqual({ name: 'params', arguments: { x: 1 } });
  });
});
