// `escapeForLog`, `describeForLog` and the Logger contract.
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { describeForLog, escapeForLog, JsonRpcEngine, type Logger } from '@mcpc/jsonrpc';
import { ScriptedPeer } from './peer.js';

describe('escapeForLog', () => {
  it('escapes control, line-separator and bidi characters so a peer cannot forge or reorder log lines', () => {
    expect(escapeForLog('a\nb\r\u001b[31m\u0000\u2028\u202e\u2066z')).toBe(
      'a\\u000ab\\u000d\\u001b[31m\\u0000\\u2028\\u202e\\u2066z',
    );
  });

  it('caps the length and says how much was cut', () => {
    expect(escapeForLog('x'.repeat(500), 10)).toBe(`${'x'.repeat(10)}…(+490 chars)`);
    expect(escapeForLog('short', 10)).toBe('short');
  });

  it('describes values of unknown type without their content', () => {
    expect(describeForLog('a"b')).toBe('"a\\"b"');
    expect(describeForLog(3)).toBe('3');
    expect(describeForLog({ secret: 1 })).toBe('[object]');
    expect(describeForLog([1])).toBe('[array]');
  });
});

describe('Logger', () => {
  it('console satisfies it', () => {
    const logger: Logger = console;
    expect(typeof logger.warn).toBe('function');
  });

  it("a pino logger satisfies it and receives the engine's lines", async () => {
    const chunks: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const logger: Logger = pino({ level: 'debug' }, sink);
    const peer = new ScriptedPeer();
    const engine = new JsonRpcEngine(peer, { logger });
    await engine.start();
    peer.serverSends({ jsonrpc: '2.0', id: 77, result: {} });
    await new Promise((r) => setTimeout(r, 20));
    const lines = chunks
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(lines.some((l) => l.level === 40 && l.msg.includes('unsolicited') && l.msg.includes('id=77'))).toBe(true);
  });
});
