// A send's and an exchange's request carry `signal` as a prototype getter: no AbortSignal unless read, no own accessor.
import { describe, expect, it } from 'vitest';
import { Abort } from '../src/abort.js';
import { exchange } from '../src/exchange.js';
import { Sends } from '../src/sends.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../src/types.js';

// An accessor defined in an object literal gives every object made there accessors of its own: per request
// that cost more CPU than the HTTP client's own work (bench/clients). These shapes keep it on the prototype.
const ownAccessor = (o: object, name: string): boolean =>
  typeof Object.getOwnPropertyDescriptor(o, name)?.get === 'function';

describe('lazy signals without own accessors', () => {
  it("a Send's signal is a prototype getter, made on first read and aborted with the send", () => {
    const sends = new Sends();
    const send = sends.begin({ jsonrpc: '2.0', id: 7, method: 'tools/call' }, undefined);
    expect(ownAccessor(send, 'signal')).toBe(false);
    const signal = send.signal;
    expect(send.signal).toBe(signal);
    sends.abandon(7, new Error('gone'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('gone');
    send.done();
  });

  it('exchange hands its client a request whose signal is a prototype getter, read only when asked', async () => {
    let seen: HttpRequest | undefined;
    const client: HttpClient = {
      request: async (r) => {
        seen = r;
        return { statusCode: 200, headers: {}, body: undefined as unknown as HttpResponse['body'] };
      },
      close: async () => {},
    };
    const abort = new Abort();
    let signalReads = 0;
    const settings = {
      url: new URL('http://127.0.0.1:9/mcp'),
      retries: 0,
      retryDelay: { initialMs: 1, maxMs: 1 },
      readTimeout: 1_000,
    };
    await exchange(client, settings, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      get signal() {
        signalReads++;
        return abort.signal;
      },
      abort,
      retryable: false,
    });
    expect(seen).toBeDefined();
    expect(ownAccessor(seen!, 'signal')).toBe(false);
    expect(signalReads).toBe(0);
    expect(seen!.signal).toBe(abort.signal);
    expect(signalReads).toBe(1);
    expect(seen!.abort).toBe(abort);
    expect(seen!.headersTimeout).toBe(1_000);
    expect(seen!.bodyTimeout).toBe(1_000);
  });
});
