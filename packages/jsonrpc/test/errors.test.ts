// The kernel's error classes: codes, causes, instanceof across copies, and the code constants.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type * as errors from '@mcpc/jsonrpc';
import {
  AbortError,
  brandFor,
  CancelledByPeerError,
  ConnectionClosedError,
  EngineStateError,
  ErrorReply,
  JsonRpcEngine,
  JsonRpcErrorCode,
  JsonRpcProtocolError,
  McpError,
  RequestTimeoutError,
  ServerError,
  TransportError,
  MessageTooLargeError,
  createInMemoryTransportPair,
  silentLogger,
} from '@mcpc/jsonrpc';

/** A second, independent copy of the errors module, as a duplicate install would load it. */
async function loadDuplicateCopy(): Promise<typeof errors> {
  const transpile = (name: string): string =>
    ts
      .transpileModule(readFileSync(new URL(`../src/${name}.ts`, import.meta.url), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      })
      .outputText.replace("'./peer-text.js'", "'./peer-text.mjs'")
      .replace("'./codes.js'", "'./codes.mjs'");
  const dir = mkdtempSync(join(tmpdir(), 'mcpc-dup-'));
  const file = join(dir, 'errors.mjs');
  writeFileSync(join(dir, 'peer-text.mjs'), transpile('peer-text'));
  writeFileSync(join(dir, 'codes.mjs'), transpile('codes'));
  writeFileSync(file, transpile('errors'));
  return (await import(pathToFileURL(file).href)) as typeof errors;
}

describe('error classes', () => {
  it('carry a stable string code, the JSON-RPC code where there is one, and the cause', () => {
    const cause = new Error('pipe closed');
    const closed = new ConnectionClosedError('tools/call', cause);
    expect(closed.code).toBe('MCPC_CONNECTION_CLOSED');
    expect(closed.cause).toBe(cause);
    expect(closed.message).toContain('pipe closed');
    expect(closed.name).toBe('ConnectionClosedError');
    const server = new ServerError(-32602, 'bad params', { data: { field: 'x' }, method: 'tools/call' });
    expect(server.rpcCode).toBe(-32602);
    expect(server.data).toEqual({ field: 'x' });
    expect(new RequestTimeoutError('ping', 10).code).toBe('MCPC_REQUEST_TIMEOUT');
  });

  it('instanceof follows the class chain', () => {
    const e = new MessageTooLargeError(10);
    expect(e).toBeInstanceOf(MessageTooLargeError);
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toBeInstanceOf(McpError);
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(ServerError);
    expect(new TransportError('x')).not.toBeInstanceOf(MessageTooLargeError);
    expect({ code: 'MCPC_ERROR' }).not.toBeInstanceOf(McpError);
    expect(null).not.toBeInstanceOf(McpError);
  });

  it('a request timeout is a TransportError: the connection did not deliver the answer in time', () => {
    const e = new RequestTimeoutError('ping', 10);
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toBeInstanceOf(McpError);
    expect(e.code).toBe(JsonRpcErrorCode.RequestTimeout);
  });

  it('brands each class with a symbol scoped to this package, kept off its type', () => {
    const brand = Object.getOwnPropertyDescriptor(RequestTimeoutError, Symbol.for('@mcpc/error.brand'))?.value;
    expect(brand).toBe(Symbol.for('@mcpc/jsonrpc.RequestTimeoutError'));
    expect(Object.keys(RequestTimeoutError)).toEqual([]);
    expect('brand' in RequestTimeoutError).toBe(false);
  });

  it('instanceof holds across two copies of the package, both ways', async () => {
    const dup = await loadDuplicateCopy();
    expect(dup.McpError).not.toBe(McpError);
    const fromDup = new dup.RequestTimeoutError('ping', 5);
    expect(fromDup).toBeInstanceOf(RequestTimeoutError);
    expect(fromDup).toBeInstanceOf(McpError);
    expect(fromDup).not.toBeInstanceOf(ServerError);
    const fromHere = new MessageTooLargeError(1);
    expect(fromHere).toBeInstanceOf(dup.TransportError);
    expect(fromHere).not.toBeInstanceOf(dup.ConnectionClosedError);
  });

  it('brandFor: a package of its own brands its subclasses, instanceof holds across its copies, names are checked', () => {
    const brand = brandFor('@acme/mcp-extras');
    // Two copies of one third-party class, as two installs of its package would load.
    const copy = () => {
      class QuotaError extends TransportError {
        static {
          brand(this, 'QuotaError');
        }
      }
      return QuotaError;
    };
    const [A, B] = [copy(), copy()];
    expect(new A('x')).toBeInstanceOf(B);
    expect(new A('x')).toBeInstanceOf(TransportError);
    expect(new TransportError('x')).not.toBeInstanceOf(A);
    expect(Object.getOwnPropertyDescriptor(A, Symbol.for('@mcpc/error.brand'))?.value).toBe(
      Symbol.for('@acme/mcp-extras.QuotaError'),
    );
    for (const pkg of ['', 'Acme', '@acme', '../x', 'a b']) expect(() => brandFor(pkg)).toThrow(TypeError);
    expect(() => brand(A, 'not a name')).toThrow(TypeError);
  });

  it("a third-party subclass without a brand of its own gets ordinary instanceof, not its parent's answer", () => {
    class MyTransportError extends TransportError {}
    expect(new MyTransportError('x')).toBeInstanceOf(MyTransportError);
    expect(new MyTransportError('x')).toBeInstanceOf(TransportError);
    expect(new TransportError('x')).not.toBeInstanceOf(MyTransportError);
  });
});

describe('codes as constants', () => {
  it('every class that fixes its code raises the constant from JsonRpcErrorCode, one code per class', () => {
    const fixed = [
      [new JsonRpcProtocolError('parse-error', 'x'), JsonRpcErrorCode.ProtocolError],
      [new ServerError(-1, 'x'), JsonRpcErrorCode.ServerError],
      [new ErrorReply(-1, 'x'), JsonRpcErrorCode.ErrorReply],
      [new RequestTimeoutError('ping', 1), JsonRpcErrorCode.RequestTimeout],
      [new AbortError(undefined, undefined), JsonRpcErrorCode.Aborted],
      [new TransportError('x'), JsonRpcErrorCode.TransportError],
      [new MessageTooLargeError(1), JsonRpcErrorCode.MessageTooLarge],
      [new ConnectionClosedError(undefined), JsonRpcErrorCode.ConnectionClosed],
      [new CancelledByPeerError('x', undefined), JsonRpcErrorCode.CancelledByPeer],
      [new EngineStateError('x'), JsonRpcErrorCode.AlreadyStarted],
      [new McpError('x'), JsonRpcErrorCode.Error],
    ] as const;
    for (const [error, code] of fixed) expect(error.code).toBe(code);
    expect(new Set(fixed.map(([, code]) => code)).size).toBe(fixed.length);
    // The type follows: a fixed code is the literal, so a switch over it is checked.
    const timeout: 'MCPC_REQUEST_TIMEOUT' = new RequestTimeoutError('ping', 1).code;
    expect(timeout).toBe('MCPC_REQUEST_TIMEOUT');
  });

  it('the engine\'s "already started" is an EngineStateError with a code of its own', async () => {
    expect(JsonRpcErrorCode.AlreadyStarted).toBe('MCPC_ENGINE_ALREADY_STARTED');
    const [a] = createInMemoryTransportPair();
    const engine = new JsonRpcEngine(a, { logger: silentLogger });
    await engine.start();
    const again = engine.start();
    await expect(again).rejects.toBeInstanceOf(EngineStateError);
    await expect(again).rejects.toMatchObject({ code: 'MCPC_ENGINE_ALREADY_STARTED', name: 'EngineStateError' });
    await engine.close();
  });
});
