// `decodeMessage`: valid messages decoded fresh, every malformed input a typed JsonRpcProtocolError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMessage, JsonRpcProtocolError, validateMessage, type ProtocolErrorReason } from '@mcpc/jsonrpc';

const reasonOf = (input: string): ProtocolErrorReason | 'ok' => {
  const r = decodeMessage(input);
  return r.ok ? 'ok' : r.error.reason;
};

describe('decodeMessage: valid messages', () => {
  it('decodes requests, notifications, results and errors into fresh objects with only JSON-RPC members', () => {
    const req = decodeMessage('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"a"},"extra":true}');
    expect(req).toEqual({
      ok: true,
      message: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'a' } },
    });
    expect(decodeMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toEqual({
      ok: true,
      message: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expect(decodeMessage('{"jsonrpc":"2.0","id":"x","result":{"a":1}}')).toEqual({
      ok: true,
      message: { jsonrpc: '2.0', id: 'x', result: { a: 1 } },
    });
    expect(
      decodeMessage('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":{"x":1}}}'),
    ).toEqual({
      ok: true,
      message: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error', data: { x: 1 } } },
    });
  });

  it('accepts UTF-8 bytes and a result of any JSON type, including null', () => {
    const r = decodeMessage(new TextEncoder().encode('{"jsonrpc":"2.0","id":7,"result":null}'));
    expect(r).toEqual({ ok: true, message: { jsonrpc: '2.0', id: 7, result: null } });
  });

  it('drops the members of a result response that JSON-RPC does not define, "__proto__" included', () => {
    for (const extra of ['"extra":true', '"__proto__":{"polluted":true}']) {
      const r = decodeMessage(`{"result":{"a":1},${extra},"jsonrpc":"2.0","id":3}`);
      expect(r.ok && Object.keys(r.message)).toEqual(['jsonrpc', 'id', 'result']);
      expect(r).toEqual({ ok: true, message: { jsonrpc: '2.0', id: 3, result: { a: 1 } } });
    }
    // validateMessage never hands back the caller's own object, even a well-formed one.
    const value = { jsonrpc: '2.0', id: 1, result: 1 };
    const v = validateMessage(value);
    expect(v.ok && v.message).not.toBe(value);
  });

  it('keeps a "__proto__" key as data, never as a prototype', () => {
    const r = decodeMessage('{"jsonrpc":"2.0","method":"m","params":{"__proto__":{"polluted":true}}}');
    expect(r.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('decodeMessage: every malformed input is a typed JsonRpcProtocolError naming the problem', () => {
  it.each<[string, ProtocolErrorReason]>([
    ['not json', 'parse-error'],
    ['{"jsonrpc":"2.0","id":1,"result":', 'parse-error'],
    ['', 'parse-error'],
    ['42', 'not-an-object'],
    ['null', 'not-an-object'],
    ['"str"', 'not-an-object'],
    ['[{"jsonrpc":"2.0","method":"a"}]', 'batch-unsupported'],
    ['{"id":1,"method":"a"}', 'invalid-version'],
    ['{"jsonrpc":"1.0","id":1,"method":"a"}', 'invalid-version'],
    ['{"jsonrpc":2.0,"id":1,"method":"a"}', 'invalid-version'],
    ['{"jsonrpc":"2.0","id":{},"method":"a"}', 'invalid-id'],
    ['{"jsonrpc":"2.0","id":null,"method":"a"}', 'invalid-id'],
    ['{"jsonrpc":"2.0","id":true,"result":{}}', 'invalid-id'],
    ['{"jsonrpc":"2.0","id":null,"result":{}}', 'invalid-id'],
    ['{"jsonrpc":"2.0","id":[1],"error":{"code":1,"message":"m"}}', 'invalid-id'],
    ['{"jsonrpc":"2.0","id":1,"method":""}', 'invalid-method'],
    ['{"jsonrpc":"2.0","id":1,"method":5}', 'invalid-method'],
    ['{"jsonrpc":"2.0","id":1,"method":"a","params":[1,2]}', 'invalid-params'],
    ['{"jsonrpc":"2.0","id":1,"method":"a","params":"x"}', 'invalid-params'],
    ['{"jsonrpc":"2.0","method":"a","params":null}', 'invalid-params'],
    ['{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}', 'result-and-error'],
    ['{"jsonrpc":"2.0","id":1}', 'no-result-or-error'],
    ['{"jsonrpc":"2.0"}', 'unknown-shape'],
    ['{"jsonrpc":"2.0","id":1,"method":"a","result":{}}', 'unknown-shape'],
    ['{"jsonrpc":"2.0","id":1,"error":"boom"}', 'invalid-error-object'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"m"}}', 'invalid-error-object'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}', 'invalid-error-object'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":1}}', 'invalid-error-object'],
  ])('%s → %s', (input, reason) => {
    expect(reasonOf(input)).toBe(reason);
  });

  it('rejects bytes that are not UTF-8 as a parse error', () => {
    const r = decodeMessage(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.reason).toBe('parse-error');
  });

  it('carries the id of a request whose params are bad, so it can still be answered, and the JSON-RPC code', () => {
    const r = decodeMessage('{"jsonrpc":"2.0","id":"abc","method":"a","params":[]}');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(JsonRpcProtocolError);
    expect(r.error.id).toBe('abc');
    expect(r.error.rpcCode).toBe(-32600);
    expect(r.error.code).toBe('MCPC_PROTOCOL_ERROR');
    const parse = decodeMessage('{');
    expect(!parse.ok && parse.error.rpcCode).toBe(-32700);
  });

  it('never echoes the content of a JSON message in the error message', () => {
    const r = decodeMessage('{"jsonrpc":"2.0","id":1,"method":"a","params":"SECRET"}');
    expect(!r.ok && r.error.message).not.toContain('SECRET');
  });

  it('quotes text that is not JSON (a banner on the protocol stream) escaped and capped, so the user can tell what printed it', () => {
    const banner = decodeMessage('Welcome to the weather server v1.2\n');
    expect(!banner.ok && banner.error.message).toBe(
      "the message is not JSON (35 characters): 'Welcome to the weather server v1.2'",
    );
    expect(!banner.ok && banner.error.excerpt).toBe('Welcome to the weather server v1.2');
    const hostile = decodeMessage(`\u001b[31mred\r\n[ERROR] forged ${'x'.repeat(500)}`);
    const message = !hostile.ok ? hostile.error.message : '';
    expect(message).toContain("'\\x1B[31mred\\r\\n[ERROR] forged x");
    expect(message).not.toMatch(/\p{Cc}/u);
    expect(message.length).toBeLessThan(200);
  });
});

// Valid frames the decoder must accept, and mutations of them it must survive.
const idArb = fc.oneof(fc.string(), fc.integer());
const paramsArb = fc.dictionary(fc.string(), fc.jsonValue());
const validArb = fc.oneof(
  fc.record(
    { jsonrpc: fc.constant('2.0'), id: idArb, method: fc.string({ minLength: 1 }), params: paramsArb },
    { requiredKeys: ['jsonrpc', 'id', 'method'] },
  ),
  fc.record(
    { jsonrpc: fc.constant('2.0'), method: fc.string({ minLength: 1 }), params: paramsArb },
    { requiredKeys: ['jsonrpc', 'method'] },
  ),
  fc.record({ jsonrpc: fc.constant('2.0'), id: idArb, result: fc.jsonValue() }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(idArb, fc.constant(null)),
    error: fc.record(
      { code: fc.integer(), message: fc.string(), data: fc.jsonValue() },
      { requiredKeys: ['code', 'message'] },
    ),
  }),
);

const expectWellFormedOutcome = (input: string | Uint8Array): void => {
  const r = decodeMessage(input);
  if (r.ok) {
    expect(validateMessage(r.message).ok).toBe(true);
  } else {
    expect(r.error).toBeInstanceOf(JsonRpcProtocolError);
    expect(typeof r.error.reason).toBe('string');
  }
};

describe('decoder properties', () => {
  it('accepts every valid frame and returns an equal message', () => {
    fc.assert(
      fc.property(validArb, (msg) => {
        const r = decodeMessage(JSON.stringify(msg));
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.message).toEqual(JSON.parse(JSON.stringify(msg)));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on random JSON values: each ends as a message or a typed error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => expectWellFormedOutcome(JSON.stringify(v) ?? 'null')),
      { numRuns: 1000 },
    );
  });

  it('never throws on valid frames with a member replaced, dropped or added', () => {
    const mutation = fc.tuple(
      validArb,
      fc.constantFrom('jsonrpc', 'id', 'method', 'params', 'result', 'error'),
      fc.option(fc.jsonValue()),
    );
    fc.assert(
      fc.property(mutation, ([msg, key, value]) => {
        const copy: Record<string, unknown> = { ...msg };
        if (value === null) delete copy[key];
        else copy[key] = value;
        expectWellFormedOutcome(JSON.stringify(copy));
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on truncated or byte-flipped frames', () => {
    const damaged = fc.tuple(validArb, fc.nat(), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(damaged, ([msg, at, byte]) => {
        const bytes = new TextEncoder().encode(JSON.stringify(msg));
        const i = at % Math.max(bytes.length, 1);
        expectWellFormedOutcome(bytes.subarray(0, i));
        const flipped = bytes.slice();
        flipped[i] = byte;
        expectWellFormedOutcome(flipped);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => expectWellFormedOutcome(s)),
      { numRuns: 1000 },
    );
  });
});
