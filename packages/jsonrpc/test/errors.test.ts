import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type * as errors from '@mcpc/jsonrpc';
import { ConnectionClosedError, McpError, RequestTimeoutError, ServerError, TransportError, MessageTooLargeError } from '@mcpc/jsonrpc';

/** A second, independent copy of the errors module, as a duplicate install would load it. */
async function loadDuplicateCopy(): Promise<typeof errors> {
  const transpile = (name: string): string =>
    ts
      .transpileModule(readFileSync(new URL(`../src/${name}.ts`, import.meta.url), 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
      .outputText.replace("'./peer-text.js'", "'./peer-text.mjs'");
  const dir = mkdtempSync(join(tmpdir(), 'mcpc-dup-'));
  const file = join(dir, 'errors.mjs');
  writeFileSync(join(dir, 'peer-text.mjs'), transpile('peer-text'));
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

  it('a third-party subclass without a brand of its own gets ordinary instanceof, not its parent\'s answer', () => {
    class MyTransportError extends TransportError {}
    expect(new MyTransportError('x')).toBeInstanceOf(MyTransportError);
    expect(new MyTransportError('x')).toBeInstanceOf(TransportError);
    expect(new TransportError('x')).not.toBeInstanceOf(MyTransportError);
  });
});
