// The app panel's decisions (web/apps-host/panel-logic.ts), without a DOM: the result a View gets, keys, file names.
import { describe, expect, it } from 'vitest';
import { fileName, keyOf, normalizeResult, short } from '../../web/apps-host/panel-logic.js';

describe('normalizeResult', () => {
  const text = (t: string) => [{ type: 'text', text: t }];
  const cases: [string, unknown, ReturnType<typeof normalizeResult>][] = [
    [
      'a CallToolResult as it is',
      { content: text('3'), structuredContent: { sum: 3 } },
      {
        result: { content: text('3'), structuredContent: { sum: 3 } },
      },
    ],
    [
      'structured content alone, given an empty content',
      { structuredContent: { a: 1 } },
      {
        result: { structuredContent: { a: 1 }, content: [] },
      },
    ],
    ['the result event', { result: { content: text('ok') } }, { result: { content: text('ok') } }],
    [
      'an error, as an isError result',
      { error: { code: -32603, message: 'boom' } },
      {
        result: { content: text('boom'), isError: true },
      },
    ],
    ['a cancellation by code', { error: { code: -32800, message: 'gone' } }, { cancelled: 'gone' }],
    [
      'a cancellation by message',
      { error: { code: 'MCPC_ABORTED', message: 'Call cancelled' } },
      {
        cancelled: 'Call cancelled',
      },
    ],
    ['nothing yet', undefined, undefined],
    ['not an object', 'text', undefined],
    ['an object without a result', { callId: 'c1' }, undefined],
  ];
  it.each(cases)('%s', (_, value, expected) => {
    expect(normalizeResult(value)).toEqual(expected);
  });
});

describe('keyOf and short', () => {
  it('keys equal values alike and an unserializable one apart from everything', () => {
    expect(keyOf({ a: [1, 2] })).toBe(keyOf({ a: [1, 2] }));
    expect(keyOf(undefined)).toBe('undefined');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(keyOf(cyclic)).not.toBe(keyOf(cyclic));
  });

  it('cuts long text with an ellipsis and shows values as JSON', () => {
    expect(short('x'.repeat(10), 4)).toBe('xxxx…');
    expect(short({ a: 1 })).toBe('{"a":1}');
    expect(short('short')).toBe('short');
  });
});

describe('fileName', () => {
  const cases: [string, string][] = [
    ['demo://files/report.pdf', 'report.pdf'],
    ['ui://demo/chart', 'chart'],
    ['demo://a/b c?.txt', 'b_c_.txt'],
    ['', 'fallback'],
    ['demo://', 'demo'],
  ];
  it.each(cases)('%s → %s', (uri, name) => {
    expect(fileName(uri, 'fallback')).toBe(name);
  });
});
