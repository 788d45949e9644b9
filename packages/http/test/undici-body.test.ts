// The undici client's bodies (dispatch, a pushed body): held while unread, in order, decoded; headers inherit no names.
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyChunks, readPlainText } from '../src/body.js';
import { header } from '../src/raw-headers.js';
import type { HttpClient, HttpRequest } from '../src/types.js';
import { undiciLoopback, type UndiciLoopback } from './undici-loopback.js';

/** 1 MiB whose every 4 bytes are their own index: any chunk out of order or lost shows. */
const BIG = (() => {
  const bytes = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < bytes.length / 4; i++) bytes.writeUInt32BE(i, i * 4);
  return bytes;
})();

let loopback: UndiciLoopback;
let base: URL;
let client: HttpClient;
const closedEarly: string[] = [];

beforeAll(async () => {
  loopback = await undiciLoopback((req, res: ServerResponse) => {
    if (req.url === '/big') return res.end(BIG);
    if (req.url === '/gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      return res.end(gzipSync(BIG));
    }
    if (req.url === '/headers') {
      res.writeHead(200, [
        ['Set-Cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['__proto__', 'plain'],
        ['X-Latin', 'caf\u00e9'],
      ]);
      return res.end('ok');
    }
    if (req.url === '/endless') {
      res.on('close', () => {
        if (!res.writableFinished) closedEarly.push('endless');
      });
      const timer = setInterval(() => res.write(BIG.subarray(0, 16 * 1024)), 5);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  ({ base, client } = loopback);
});

afterAll(() => loopback.close());

function get(path: string): HttpRequest {
  return {
    url: new URL(path, base),
    method: 'GET',
    headers: {},
    body: undefined,
    signal: new AbortController().signal,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function iterate(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of body) parts.push(chunk);
  return Buffer.concat(parts);
}

describe('undici client bodies', () => {
  it('holds a body nobody reads yet (pausing the connection) and gives it whole and in order by iteration', async () => {
    const response = await client.request(get('/big'));
    await pause(100); // the client fills past its mark and is paused
    expect((await iterate(response.body)).equals(BIG)).toBe(true);
    expect(response.body.readableEnded).toBe(true);
  });

  it('gives the same body to a late data listener, then ends', async () => {
    const response = await client.request(get('/big'));
    await pause(100);
    const { bytes, text } = await readPlainText(response.body, 4 * 1024 * 1024);
    expect(bytes).toBe(BIG.length);
    expect(Buffer.from(text, 'utf8').length).toBeGreaterThan(0);
  });

  it('decodes a gzip body through the node:zlib stages', async () => {
    const response = await client.request(get('/gzip'));
    const decoded = await iterate(bodyChunks(response.body, 'gzip', 4 * 1024 * 1024));
    expect(decoded.equals(BIG)).toBe(true);
  });

  it('gives headers by lower-case name, repeats as arrays, Latin-1 bytes, no inherited names', async () => {
    const response = await client.request(get('/headers'));
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    for (const inherited of ['constructor', 'toString', 'hasOwnProperty'])
      expect(response.headers[inherited]).toBe(undefined);
    expect(Object.getOwnPropertyDescriptor(response.headers, '__proto__')?.value).toBe('plain');
    expect(response.headers['x-latin']).toBe('caf\u00e9');
    await iterate(response.body);
  });

  it('reads one header off the raw list as the headers object would give it, before and after that is made', async () => {
    const response = await client.request(get('/headers'));
    const read = () => ['set-cookie', 'x-latin', '__proto__', 'constructor', 'x-latix'].map((n) => header(response, n));
    const expected = ['a=1', 'caf\u00e9', 'plain', undefined, undefined];
    expect(read()).toEqual(expected);
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(read()).toEqual(expected);
    await iterate(response.body);
  });

  it('aborts the exchange when an iterator leaves early: the server sees the connection go', async () => {
    const response = await client.request(get('/endless'));
    for await (const chunk of response.body) if (chunk.length > 0) break;
    expect(response.body.destroyed).toBe(true);
    for (let i = 0; i < 100 && !closedEarly.includes('endless'); i++) await pause(20);
    expect(closedEarly).toContain('endless');
  });
});
