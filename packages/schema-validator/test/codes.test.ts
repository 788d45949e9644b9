// The validator's error codes: one frozen object, and each code naming one class.
import { describe, expect, it } from 'vitest';
import { SchemaError, SchemaErrorCode, UnsupportedDialectError, compile } from '@mcpc/schema-validator';

describe('SchemaErrorCode', () => {
  it('is frozen and exported from the root', () => {
    expect(Object.isFrozen(SchemaErrorCode)).toBe(true);
    expect(SchemaErrorCode.UnsupportedDialect).toBe('MCPC_SCHEMA_UNSUPPORTED_DIALECT');
  });

  it('gives a meta-schema requiring an unknown vocabulary a code of its own, not UnsupportedDialectError’s', () => {
    const meta = {
      $id: 'https://example.com/meta',
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $vocabulary: {
        'https://json-schema.org/draft/2020-12/vocab/core': true,
        'https://example.com/vocab/unknown': true,
      },
    };
    let thrown: unknown;
    try {
      compile({ $schema: 'https://example.com/meta' }, { resources: { 'https://example.com/meta': meta } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SchemaError);
    expect(thrown).not.toBeInstanceOf(UnsupportedDialectError);
    expect((thrown as SchemaError).code).toBe(SchemaErrorCode.UnsupportedVocabulary);
  });
});
