// Validation results: issues, annotations, malformed schemas, the SchemaCache, and `multipleOf`.
import { describe, expect, it } from 'vitest';
import { McpError } from '@mcpc/jsonrpc';
import { SchemaCache, SchemaError, ValidationError, compile } from '../src/index.js';

const tool = {
  type: 'object',
  required: ['query', 'limit'],
  additionalProperties: false,
  properties: {
    query: { type: 'string', minLength: 1 },
    limit: { type: 'integer', maximum: 100 },
    'a/b~c': { type: 'array', items: { $ref: '#/$defs/tag' } },
  },
  $defs: { tag: { type: 'string', enum: ['x', 'y'] } },
};

describe('issues', () => {
  it('carry the instance path (JSON Pointer), the keyword, the schema location and a message', () => {
    const r = compile(tool).validate({ query: '', limit: 101.5, 'a/b~c': ['x', 'z'], extra: 1 });
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual(
      expect.arrayContaining([
        {
          instancePath: '/query',
          keyword: 'minLength',
          schemaPath: '#/properties/query/minLength',
          message: 'must not have fewer than 1 characters',
        },
        { instancePath: '/limit', keyword: 'type', schemaPath: '#/properties/limit/type', message: 'must be integer' },
        {
          instancePath: '/limit',
          keyword: 'maximum',
          schemaPath: '#/properties/limit/maximum',
          message: 'must be <= 100',
        },
        {
          instancePath: '/a~1b~0c/1',
          keyword: 'enum',
          schemaPath: '#/$defs/tag/enum',
          message: 'must be equal to one of the allowed values',
        },
        {
          instancePath: '',
          keyword: 'additionalProperties',
          schemaPath: '#/additionalProperties',
          message: 'must not have additional property "extra"',
        },
      ]),
    );
    expect(r.errors).toHaveLength(5);
    expect(compile(tool).validate({ limit: 1 }).errors).toEqual([
      {
        instancePath: '',
        keyword: 'required',
        schemaPath: '#/required',
        message: 'must have required property "query"',
      },
    ]);
  });

  it('are dropped for branches that did not decide the result', () => {
    const v = compile({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(v.validate(1)).toEqual({ valid: true, errors: [], partial: [] });
    expect(v.validate(null).errors.map((e) => e.keyword)).toEqual(['type', 'type', 'anyOf']);
  });

  it('agree with isValid, which builds none', () => {
    const v = compile(tool);
    for (const d of [{ query: 'a', limit: 1 }, { query: 'a' }, { query: 'a', limit: 1, 'a/b~c': ['q'] }, 5])
      expect(v.isValid(d)).toBe(v.validate(d).valid);
  });

  it('validateOrThrow returns the value or throws a ValidationError', () => {
    const v = compile(tool);
    const ok = { query: 'a', limit: 1 };
    expect(v.validateOrThrow(ok)).toBe(ok);
    let e: unknown;
    try {
      v.validateOrThrow({ query: 'a' }, 'tool output');
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(ValidationError);
    expect(e).toBeInstanceOf(McpError);
    const ve = e as ValidationError;
    expect(ve.code).toBe('MCPC_VALIDATION_FAILED');
    expect(ve.errors[0]?.keyword).toBe('required');
    expect(ve.message).toBe('the tool output does not match its schema: (root) must have required property "limit"');
  });
});

describe('annotations', () => {
  it('treat format and the content keywords as annotations and say so in partial', () => {
    const v = compile({
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time' },
        blob: {
          type: 'string',
          contentEncoding: 'base64',
          contentMediaType: 'application/json',
          contentSchema: { type: 'object' },
        },
      },
    });
    const r = v.validate({ when: 'not a date', blob: '%%%' });
    expect(r.valid).toBe(true);
    expect(r.partial).toEqual(['contentEncoding', 'contentMediaType', 'contentSchema', 'format']);
    expect(v.partial).toEqual(r.partial);
    expect(compile({ type: 'string' }).validate('x').partial).toEqual([]);
  });

  it('only counts annotations the evaluation can reach', () => {
    expect(compile({ $defs: { unused: { format: 'email' } }, type: 'string' }).partial).toEqual([]);
    expect(compile({ $defs: { used: { format: 'email' } }, $ref: '#/$defs/used' }).partial).toEqual(['format']);
  });
});

describe('malformed schemas', () => {
  it('are refused with the keyword and where it is', () => {
    expect(() => compile({ properties: { a: { minLength: -1 } } })).toThrow(
      /minLength at #\/properties\/a must be a non-negative integer/,
    );
    expect(() => compile({ type: 'strin' })).toThrow(SchemaError);
    expect(() => compile({ required: 'a' })).toThrow(SchemaError);
    expect(() => compile(5 as never)).toThrow(SchemaError);
  });
});

describe('SchemaCache', () => {
  it('compiles once per schema object', () => {
    const cache = new SchemaCache();
    const a = { type: 'string' };
    const v = cache.get(a);
    expect(cache.get(a)).toBe(v);
    expect(cache.get({ type: 'string' })).not.toBe(v);
    expect(cache.has(a)).toBe(true);
    expect(cache.delete(a)).toBe(true);
    expect(cache.get(a)).not.toBe(v);
    expect(cache.get(true)).toBe(cache.get(true));
  });

  it('remembers a schema that failed to compile', () => {
    const cache = new SchemaCache();
    const bad = { $ref: 'https://example.com/x' };
    let first: unknown;
    try {
      cache.get(bad);
    } catch (e) {
      first = e;
    }
    expect(first).toBeInstanceOf(SchemaError);
    expect(() => cache.get(bad)).toThrow(first as Error);
  });

  it('applies its options', () => {
    const cache = new SchemaCache({ dialect: 'draft-07' });
    expect(cache.get({ items: [{ type: 'string' }] }).isValid([1])).toBe(false);
  });
});

describe('multipleOf', () => {
  const multiple = (m: number, d: number): boolean => compile({ multipleOf: m }).isValid(d);

  it('is exact for values a double holds exactly', () => {
    // 1000000000000000.25 is a double; its quotient by 0.5 is 2000000000000000.5, not an integer.
    expect(multiple(0.5, 1000000000000000.25)).toBe(false);
    expect(multiple(0.5, 1000000000000000.5)).toBe(true);
    expect(multiple(0.25, 1000000000000000.25)).toBe(true);
    // It prints as 1000000000000000.2 (17 digits, ambiguous): only its exact value counts.
    expect(multiple(0.1, 1000000000000000.25)).toBe(false);
    expect(multiple(1.5, 4.5)).toBe(true);
    expect(multiple(1.5, 35)).toBe(false);
    expect(multiple(2 ** -30, 3 * 2 ** -30)).toBe(true);
    expect(multiple(3, 2 ** 60)).toBe(false);
    // Past float division's range: every integer is a multiple of 0.5 (the suite's optional float-overflow).
    expect(multiple(0.5, 1e308)).toBe(true);
    expect(compile({ type: 'integer', multipleOf: 0.123456789 }).isValid(1e308)).toBe(false);
  });

  it('reads decimals as written where a double cannot hold them', () => {
    expect(multiple(0.1, 0.3)).toBe(true);
    expect(multiple(0.01, 19.99)).toBe(true);
    expect(multiple(0.0001, 0.0075)).toBe(true);
    expect(multiple(0.0001, 0.00751)).toBe(false);
    expect(multiple(1e-8, 12391239123)).toBe(true);
    // 0.1 + 0.2 is not 0.3 as a double, nor as its shortest decimal.
    expect(multiple(0.1, 0.1 + 0.2)).toBe(false);
    expect(multiple(0.1, -0.7)).toBe(true);
    expect(multiple(7, 0)).toBe(true);
  });

  it('takes integers of 16 digits and more as the integers they are (ajv agrees)', () => {
    // Refused before: neither the binary reading of 0.1 nor a 16-digit decimal reading could show it.
    expect(multiple(0.1, 9007199254740991)).toBe(true);
    expect(multiple(0.01, 9007199254740991)).toBe(true);
    expect(multiple(0.01, -1234567890123456)).toBe(true);
    expect(multiple(0.1, 2 ** 64)).toBe(true);
    expect(multiple(0.3, 9007199254740991)).toBe(false);
    expect(multiple(0.3, 9007199254740990)).toBe(true);
    expect(multiple(0.7, 9007199254740991)).toBe(false);
  });
});
