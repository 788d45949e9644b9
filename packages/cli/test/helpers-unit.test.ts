// The CLI's pure helpers, table by table: argument coercion, codegen naming, and escaping of server text.
//
// The end-to-end tests run them through the built binary; these pin each case on its own.
import { describe, expect, it } from 'vitest';
import { camelCase, Namer, pascalCase, propertyKey } from '../src/codegen/names.js';
import { coerceValue } from '../src/coerce.js';
import { UsageError } from '../src/errors.js';
import { oneLine, safe } from '../src/output.js';

describe('coerceValue: a key=value argument as its property schema wants it', () => {
  it.each([
    ['no schema: the text', undefined, '5', '5'],
    ['a string stays a string, even "5"', { type: 'string' }, '5', '5'],
    ['an integer', { type: 'integer' }, '42', 42],
    ['a negative number with an exponent', { type: 'number' }, '-1.5e3', -1500],
    ['a number from .5', { type: 'number' }, '.5', 0.5],
    ['a boolean, true', { type: 'boolean' }, 'yes', true],
    ['a boolean, false', { type: 'boolean' }, 'OFF', false],
    ['null', { type: ['null', 'integer'] }, 'null', null],
    ['a JSON object', { type: 'object' }, '{"a":1}', { a: 1 }],
    ['a JSON array', { type: 'array' }, '[1,2]', [1, 2]],
    ['a comma list coerced by items', { type: 'array', items: { type: 'integer' } }, '1, 2,3', [1, 2, 3]],
    ['an empty list', { type: 'array' }, '', []],
    ['an enum of numbers', { enum: [1, 2, 3] }, '2', 2],
    ['anyOf with a string branch: the text', { anyOf: [{ type: 'integer' }, { type: 'string' }] }, '7', '7'],
    ['oneOf of number and boolean', { oneOf: [{ type: 'number' }, { type: 'boolean' }] }, 'true', true],
  ])('%s', (_what, schema, value, expected) => {
    expect(coerceValue('k', value, schema)).toEqual(expected);
  });

  it.each([
    ['a fraction for an integer', { type: 'integer' }, '1.5', /whole number/],
    ['text for a number', { type: 'number' }, 'ten', /must be of type number/],
    ['text for a boolean', { type: 'boolean' }, 'maybe', /k:=<json>/],
    ['broken JSON for an object', { type: 'object' }, '{"a":', /not valid JSON/],
    ['a bad item in a list', { type: 'array', items: { type: 'integer' } }, '1,x', /must be of type integer/],
  ])('refuses %s with a UsageError that says why', (_what, schema, value, message) => {
    expect(() => coerceValue('k', value, schema)).toThrow(UsageError);
    expect(() => coerceValue('k', value, schema)).toThrow(message);
  });
});

describe('codegen names: tool names as TypeScript identifiers', () => {
  it.each([
    ['get-sum', 'getSum', 'GetSum'],
    ['HTTP-get', 'httpGet', 'HTTPGet'],
    ['a.b/c', 'aBC', 'ABC'],
    ['delete', 'delete_', 'Delete'],
    ['2fa-check', '_2faCheck', '_2faCheck'],
    ['---', 'tool', 'Tool'],
    ['émoji 😀 tool', 'mojiTool', 'MojiTool'],
  ])('%s → %s / %s', (name, camel, pascal) => {
    expect(camelCase(name)).toBe(camel);
    expect(pascalCase(name)).toBe(pascal);
  });

  it.each([
    ['plain', 'plain'],
    ['with-dash', '"with-dash"'],
    ['$ok_1', '$ok_1'],
    ['1st', '"1st"'],
    ['quote"d', '"quote\\"d"'],
  ])('property key %s → %s', (key, written) => {
    expect(propertyKey(key)).toBe(written);
  });

  it('hands out each name once: a taken one gets a number, reserved ones are taken from the start', () => {
    const namer = new Namer(['connect']);
    expect(namer.has('connect')).toBe(true);
    const names = ['getSum', 'getSum', 'getSum', 'connect'].map((n) => namer.take(n));
    expect(names).toEqual(['getSum', 'getSum2', 'getSum3', 'connect2']);
    // With suffixes (a function and its input type): the first base free under every suffix.
    namer.take('echoInput');
    expect(namer.take('echo', ['', 'Input'])).toBe('echo2');
    expect(namer.has('echo2Input')).toBe(true);
  });
});

describe('server text on a terminal: shown, never obeyed', () => {
  it.each([
    ['plain text', 'hello', 'hello'],
    ['a tab and a newline stay', 'a\tb\nc', 'a\tb\nc'],
    ['ESC (a colour, a title change)', '\u001b[31mred\u001b]0;t\u0007', '\\x1b[31mred\\x1b]0;t\\x07'],
    ['C1 CSI', 'x\u009by', 'x\\x9by'],
    ['a bidirectional override', 'abc\u202edef', 'abc\\u202edef'],
    ['DEL', 'a\u007fb', 'a\\x7fb'],
    ['a non-string value as JSON', { a: 1 }, '{"a":1}'],
    ['undefined as nothing', undefined, ''],
  ])('%s', (_what, text, shown) => {
    expect(safe(text)).toBe(shown);
  });

  it('cuts long text with an ellipsis, and oneLine keeps the first line only', () => {
    expect(safe('x'.repeat(10), 4)).toBe('xxxx…');
    expect(oneLine('first line\nsecond', 100)).toBe('first line');
    expect(oneLine('y'.repeat(50), 10)).toBe(`${'y'.repeat(9)}…`);
    expect(oneLine(undefined)).toBe('');
  });
});
