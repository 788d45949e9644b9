// Dialects (`$schema`, the shipped meta-schemas) and `$ref` resolution.
import { describe, expect, it } from 'vitest';
import { McpError } from '@mcpc/jsonrpc';
import {
  SchemaError,
  SchemaReferenceError,
  SUPPORTED_DIALECTS,
  UnsupportedDialectError,
  compile,
} from '../src/index.js';

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('dialects', () => {
  it('defaults to 2020-12 and reads $schema', () => {
    // prefixItems exists in 2020-12 only; draft-07 reads items as an array.
    const s = { prefixItems: [{ type: 'string' }] };
    expect(compile(s).dialect).toBe('2020-12');
    expect(compile(s).isValid([1])).toBe(false);
    expect(compile({ ...s, $schema: 'http://json-schema.org/draft-07/schema#' }).isValid([1])).toBe(true);
    expect(
      compile({ items: [{ type: 'string' }], $schema: 'http://json-schema.org/draft-07/schema#' }).isValid([1]),
    ).toBe(false);
    expect(
      compile({ $schema: 'https://json-schema.org/draft/2019-09/schema', items: [{ type: 'string' }] }).isValid([1]),
    ).toBe(false);
    expect(compile(s, { dialect: 'draft-07' }).dialect).toBe('draft-07');
  });

  it('ignores $ref siblings in draft-07 only', () => {
    const s = {
      $defs: { n: { type: 'number' } },
      definitions: { n: { type: 'number' } },
      properties: { x: { $ref: '#/definitions/n', maximum: 1 } },
    };
    expect(compile({ ...s, $schema: 'http://json-schema.org/draft-07/schema#' }).isValid({ x: 5 })).toBe(true);
    expect(compile(s).isValid({ x: 5 })).toBe(false);
  });

  it('refuses an unsupported $schema, naming it and the supported ones', () => {
    const e = thrown(() => compile({ $schema: 'urn:unknown-dialect', type: 'string' }));
    expect(e).toBeInstanceOf(UnsupportedDialectError);
    expect(e).toBeInstanceOf(SchemaError);
    expect(e).toBeInstanceOf(McpError);
    const u = e as UnsupportedDialectError;
    expect(u.code).toBe('MCPC_SCHEMA_UNSUPPORTED_DIALECT');
    expect(u.dialect).toBe('urn:unknown-dialect');
    expect(u.supported).toEqual(SUPPORTED_DIALECTS);
    expect(u.message).toContain('"urn:unknown-dialect"');
    for (const d of SUPPORTED_DIALECTS) expect(u.message).toContain(d);
    expect(() => compile({ $schema: 'http://json-schema.org/draft-04/schema#' })).toThrow(UnsupportedDialectError);
    expect(() => compile({}, { dialect: 'draft-04' })).toThrow(UnsupportedDialectError);
  });

  it('ships the three meta-schemas', () => {
    const meta = compile({ $ref: 'https://json-schema.org/draft/2020-12/schema' });
    expect(meta.isValid({ type: 'string', minLength: 1 })).toBe(true);
    expect(meta.isValid({ type: 'strin' })).toBe(false);
    expect(meta.isValid({ $defs: { a: { minLength: -1 } } })).toBe(false);
    expect(compile({ $ref: 'http://json-schema.org/draft-07/schema#' }).isValid({ minItems: 'x' })).toBe(false);
    expect(compile({ $ref: 'https://json-schema.org/draft/2019-09/schema' }).isValid({ properties: { a: 1 } })).toBe(
      false,
    );
  });
});

describe('references', () => {
  it('resolves inside the document: $defs, anchors, embedded $id, relative URIs, ""', () => {
    const v = compile({
      $id: 'https://example.com/root.json',
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/a' },
        b: { $ref: '#named' },
        c: { $ref: 'other.json' },
        d: { $ref: 'https://example.com/nested/deep.json#/$defs/x' },
        e: { $ref: 'urn:example:thing' },
        self: { $ref: '' },
      },
      $defs: {
        a: { type: 'string' },
        n: { $anchor: 'named', type: 'integer' },
        o: { $id: 'other.json', type: 'boolean' },
        d: { $id: 'nested/deep.json', $defs: { x: { const: 'x' } } },
        u: { $id: 'urn:example:thing', type: 'null' },
      },
    });
    expect(v.isValid({ a: 's', b: 1, c: true, d: 'x', e: null, self: { a: 's' } })).toBe(true);
    for (const bad of [{ a: 1 }, { b: 's' }, { c: 1 }, { d: 'y' }, { e: 0 }, { self: { a: 1 } }])
      expect(v.isValid(bad), JSON.stringify(bad)).toBe(false);
  });

  it('reports a reference to a resource the document does not carry as external, at compile time', () => {
    const e = thrown(() => compile({ properties: { x: { $ref: 'https://example.com/remote.json#/foo' } } }));
    expect(e).toBeInstanceOf(SchemaReferenceError);
    const r = e as SchemaReferenceError;
    expect(r.external).toBe(true);
    expect(r.code).toBe('MCPC_SCHEMA_UNRESOLVED_REF');
    expect(r.ref).toBe('https://example.com/remote.json#/foo');
    expect(r.schemaPath).toBe('#/properties/x/$ref');
    expect(r.message).toMatch(/never fetched/);
  });

  it('resolves an external reference from resources, never fetching', () => {
    const v = compile(
      { $ref: 'https://example.com/remote.json#/$defs/n' },
      { resources: { 'https://example.com/remote.json': { $defs: { n: { type: 'number' } } } } },
    );
    expect(v.isValid(1)).toBe(true);
    expect(v.isValid('1')).toBe(false);
    const m = compile(
      { $ref: 'https://example.com/r' },
      { resources: new Map([['https://example.com/r', { type: 'string' }]]) },
    );
    expect(m.isValid('x')).toBe(true);
  });

  it('reports a missing location inside a present resource as not external', () => {
    const e = thrown(() => compile({ $ref: '#/$defs/missing' })) as SchemaReferenceError;
    expect(e).toBeInstanceOf(SchemaReferenceError);
    expect(e.external).toBe(false);
    expect(() => compile({ $ref: '#nowhere' })).toThrow(SchemaReferenceError);
  });

  it('refuses colliding $ids', () => {
    const e = thrown(() =>
      compile({
        $defs: {
          a: { $id: 'https://example.com/a.json', type: 'string' },
          b: { $id: 'https://example.com/a.json', type: 'number' },
        },
      }),
    ) as SchemaError;
    expect(e).toBeInstanceOf(SchemaError);
    expect(e.code).toBe('MCPC_SCHEMA_DUPLICATE_ID');
    expect(e.message).toMatch(/two schema resources have the \$id https:\/\/example.com\/a.json/);
  });

  it('refuses colliding anchors within one resource, allows them in different resources', () => {
    const e = thrown(() => compile({ $defs: { a: { $anchor: 'x' }, b: { $anchor: 'x' } } })) as SchemaError;
    expect(e.code).toBe('MCPC_SCHEMA_DUPLICATE_ANCHOR');
    expect(() =>
      compile({ $defs: { a: { $id: 'urn:a', $anchor: 'x' }, b: { $id: 'urn:b', $anchor: 'x' } } }),
    ).not.toThrow();
  });
});
