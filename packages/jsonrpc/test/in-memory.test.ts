// The in-memory transport pair against the Transport contract, and an engine over it.
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  CancelledByPeerError,
  ConnectionClosedError,
  InMemoryTransport,
  JsonRpcEngine,
  JsonRpcProtocolError,
  MessageTooLargeError,
  TransportError,
  createInMemoryTransportPair,
  silentLogger,
  type JsonRpcMessage,
  type TransportSink,
} from '@mcpc/jsonrpc';

/** A sink that records what it is told, and whose `close` may be awaited. */
function recordingSink() {
  const messages: JsonRpcMessage[] = [];
  const errors: Error[] = [];
  const sizes: (number | undefined)[] = [];
  let closes = 0;
  let resolveClosed!: (cause: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((r) => (resolveClosed = r));
  const sink: TransportSink = {
    message: (m, info) => {
      messages.push(m);
      sizes.push(info?.byteLength);
    },
    error: (e) => errors.push(e),
    close: (cause) => {
      closes++;
      resolveClosed(cause);
    },
  };
  return { sink, messages, errors, sizes, closed, closes: () => closes };
}

const flush = () => new Promise<void>((r) => setTimeout(r, 0));

async function engines() {
  const [a, b] = createInMemoryTransportPair();
  const client = new JsonRpcEngine(a, { logger: silentLogger });
  const server = new JsonRpcEngine(b, { logger: silentLogger });
  await Promise.all([client.start(), server.start()]);
  return { client, server };
}

describe('the in-memory transport pair: the Transport contract', () => {
  it('delivers asynchronously, in order, as fresh objects, with the frame size', async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const sa = recordingSink();
    const sb = recordingSink();
    await a.start(sa.sink);
    await b.start(sb.sink);
    const sent = { jsonrpc: '2.0' as const, method: 'n', params: { i: 0, text: 'é' } };
    const sends = [a.send(sent)];
    for (let i = 1; i < 100; i++) sends.push(a.send({ jsonrpc: '2.0', method: 'n', params: { i } }));
    expect(sb.messages).toHaveLength(0);
    await Promise.all(sends);
    await flush();
    expect(sb.messages.map((m) => ('params' in m ? m.params?.i : undefined))).toEqual([...Array(100).keys()]);
    expect(sb.messages[0]).toEqual(sent);
    expect(sb.messages[0]).not.toBe(sent);
    expect(sb.sizes[0]).toBe(new TextEncoder().encode(JSON.stringify(sent)).length);
    expect(sa.messages).toHaveLength(0);
  });

  it('holds what is sent before the other end starts, and delivers it first once it does', async () => {
    const [a, b] = createInMemoryTransportPair();
    await a.start(recordingSink().sink);
    await a.send({ jsonrpc: '2.0', method: 'early' });
    const sb = recordingSink();
    await b.start(sb.sink);
    await flush();
    expect(sb.messages).toEqual([{ jsonrpc: '2.0', method: 'early' }]);
  });

  it('closing one end calls its sink once with no cause, and the other end after what was sent, with a cause', async () => {
    const [a, b] = createInMemoryTransportPair();
    const sa = recordingSink();
    const sb = recordingSink();
    await a.start(sa.sink);
    await b.start(sb.sink);
    await a.send({ jsonrpc: '2.0', method: 'last words' });
    await a.close();
    await a.close();
    await expect(sa.closed).resolves.toBeUndefined();
    const cause = await sb.closed;
    expect(cause).toBeInstanceOf(TransportError);
    expect(sb.messages).toEqual([{ jsonrpc: '2.0', method: 'last words' }]);
    await flush();
    expect(sa.closes()).toBe(1);
    expect(sb.closes()).toBe(1);
  });

  it('send after close rejects with ConnectionClosedError on either end, and never throws synchronously', async () => {
    const [a, b] = createInMemoryTransportPair();
    await a.start(recordingSink().sink);
    await b.start(recordingSink().sink);
    await b.close();
    const fromClosed = b.send({ jsonrpc: '2.0', method: 'x' });
    const toClosed = a.send({ jsonrpc: '2.0', method: 'x' });
    await expect(fromClosed).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(toClosed).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('a message over the size bound closes the receiving end with MessageTooLargeError, and so the pair', async () => {
    const [a, b] = createInMemoryTransportPair({ maxMessageBytes: 64 });
    const sa = recordingSink();
    const sb = recordingSink();
    await a.start(sa.sink);
    await b.start(sb.sink);
    await Promise.all([
      a.send({ jsonrpc: '2.0', method: 'small' }),
      a.send({ jsonrpc: '2.0', method: 'big', params: { pad: 'x'.repeat(100) } }),
      a.send({ jsonrpc: '2.0', method: 'after' }),
    ]);
    const cause = await sb.closed;
    expect(cause).toBeInstanceOf(MessageTooLargeError);
    expect(cause).toMatchObject({ code: 'MCPC_MESSAGE_TOO_LARGE', limitBytes: 64 });
    expect(sb.messages).toEqual([{ jsonrpc: '2.0', method: 'small' }]);
    expect(await sa.closed).toBeInstanceOf(TransportError);
  });

  it('bounds what one end holds for the other: the excess send rejects with a TransportError', async () => {
    const [a] = createInMemoryTransportPair({ maxQueuedMessages: 3 });
    await a.start(recordingSink().sink);
    for (let i = 0; i < 3; i++) await a.send({ jsonrpc: '2.0', method: 'x' });
    await expect(a.send({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(TransportError);
  });

  it('a message that is not valid JSON-RPC reaches the receiver as a protocol error; one that is not JSON fails the send', async () => {
    const [a, b] = createInMemoryTransportPair();
    const sb = recordingSink();
    await a.start(recordingSink().sink);
    await b.start(sb.sink);
    await a.send({ jsonrpc: '1.0', method: 'x' } as unknown as JsonRpcMessage);
    await flush();
    expect(sb.errors[0]).toBeInstanceOf(JsonRpcProtocolError);
    expect(sb.messages).toHaveLength(0);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(a.send({ jsonrpc: '2.0', method: 'x', params: cyclic })).rejects.toBeInstanceOf(TransportError);
  });

  it('start twice, or after close, rejects with a TransportError and calls no sink', async () => {
    const [a, b] = createInMemoryTransportPair();
    await a.start(recordingSink().sink);
    await expect(a.start(recordingSink().sink)).rejects.toBeInstanceOf(TransportError);
    await b.close();
    const sb = recordingSink();
    await expect(b.start(sb.sink)).rejects.toBeInstanceOf(TransportError);
    await flush();
    expect(sb.closes()).toBe(0);
  });
});

describe('two engines over the in-memory pair', () => {
  it('make requests both ways, and a handler may request of the other side before answering', async () => {
    const { client, server } = await engines();
    server.setRequestHandler('add', (params) => ({ sum: (params?.a as number) + (params?.b as number) }));
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///tmp' }] }));
    server.setRequestHandler('ask-back', async () =>
      client.closed ? {} : { roots: await server.request('roots/list') },
    );
    await expect(client.request('add', { a: 2, b: 3 })).resolves.toEqual({ sum: 5 });
    await expect(server.request('roots/list')).resolves.toEqual({ roots: [{ uri: 'file:///tmp' }] });
    await expect(client.request('ask-back')).resolves.toEqual({ roots: { roots: [{ uri: 'file:///tmp' }] } });
    await expect(client.request('nope')).rejects.toMatchObject({ rpcCode: -32601 });
    await client.close();
  });

  it('carry notifications and progress', async () => {
    const { client, server } = await engines();
    const seen: string[] = [];
    client.onNotification((method) => seen.push(method));
    server.setRequestHandler('slow', async (params) => {
      const token = (params?._meta as { progressToken: number }).progressToken;
      await server.notify('notifications/progress', { progressToken: token, progress: 1, total: 2 });
      await server.notify('notifications/message', { level: 'info', data: 'hi' });
      return { done: true };
    });
    const progress: number[] = [];
    await expect(client.request('slow', {}, { onProgress: (p) => progress.push(p.progress) })).resolves.toEqual({
      done: true,
    });
    expect(progress).toEqual([1]);
    expect(seen).toEqual(['notifications/message']);
    await client.close();
  });

  it("carry cancellation: the caller's abort reaches the other side's handler signal, and the other side's cancel rejects ours", async () => {
    const { client, server } = await engines();
    let handlerSignal!: AbortSignal;
    const aborted = new Promise<void>((resolve) =>
      server.setRequestHandler('wait', (_p, { signal }) => {
        handlerSignal = signal;
        signal.addEventListener('abort', () => resolve());
        return new Promise(() => {});
      }),
    );
    const controller = new AbortController();
    const call = client.request('wait', {}, { signal: controller.signal });
    await flush();
    controller.abort(new Error('enough'));
    await expect(call).rejects.toBeInstanceOf(AbortError);
    await aborted;
    expect(handlerSignal.aborted).toBe(true);

    // The other way: the server ends one of the client's requests with notifications/cancelled.
    server.setRequestHandler('listen', (_p, { id }) => {
      void server.notify('notifications/cancelled', { requestId: id, reason: 'shutting down' });
      return new Promise(() => {});
    });
    await expect(client.request('listen')).rejects.toBeInstanceOf(CancelledByPeerError);
    await client.close();
  });

  it('propagate a close: the other engine closes with a cause and its pending requests reject', async () => {
    const { client, server } = await engines();
    server.setRequestHandler('never', () => new Promise(() => {}));
    const serverClosed = new Promise<Error | undefined>((r) => server.onClose(r));
    const clientRequest = client.request('never');
    client.setRequestHandler('never', () => new Promise(() => {}));
    const serverRequest = server.request('never');
    await flush();
    await client.close();
    await expect(clientRequest).rejects.toBeInstanceOf(ConnectionClosedError);
    const cause = await serverClosed;
    expect(cause).toBeInstanceOf(TransportError);
    expect(server.closed).toBe(true);
    await expect(serverRequest).rejects.toMatchObject({ name: 'ConnectionClosedError', cause });
  });
});
