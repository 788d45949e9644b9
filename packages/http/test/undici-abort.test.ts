// Aborting a request on undici through its AbortLink, with no AbortSignal made: before the head, mid-body, already.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Abort } from '../src/abort.js';
import type { HttpClient, HttpRequest } from '../src/types.js';
import { undiciLoopback, type UndiciLoopback } from './undici-loopback.js';

let loopback: UndiciLoopback;
let base: URL;
let client: HttpClient;

beforeAll(async () => {
  // /silent never answers; /trickle sends its head and one chunk, then holds the body open.
  loopback = await undiciLoopback((req, res) => {
    if (req.url === '/trickle') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first');
    }
  });
  ({ base, client } = loopback);
});

afterAll(() => loopback.close());

/** A request whose `signal` throws when read: the client must listen on the link alone. */
function request(path: string, abort: Abort): HttpRequest {
  return {
    url: new URL(path, base),
    method: 'GET',
    headers: {},
    body: undefined,
    get signal(): AbortSignal {
      throw new Error('the AbortSignal was read');
    },
    abort,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  };
}

describe('undici client, aborted through the AbortLink', () => {
  it('rejects a request waiting for its head with the abort reason', async () => {
    const abort = new Abort();
    const pending = client.request(request('/silent', abort));
    setTimeout(() => abort.abort(new Error('stop waiting')), 50);
    await expect(pending).rejects.toThrow('stop waiting');
  });

  it('ends a body being read with the abort reason', async () => {
    const abort = new Abort();
    const response = await client.request(request('/trickle', abort));
    expect(response.statusCode).toBe(200);
    const body = response.body as unknown as AsyncIterable<Uint8Array>;
    const read = (async () => {
      for await (const chunk of body) if (chunk.length > 0) abort.abort(new Error('enough'));
    })();
    await expect(read).rejects.toThrow('enough');
  });

  it('refuses a request whose link is already aborted, without sending it', async () => {
    const abort = new Abort();
    abort.abort(new Error('too late'));
    await expect(client.request(request('/silent', abort))).rejects.toThrow('too late');
  });
});
