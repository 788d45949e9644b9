// Error codes as constants: the client's own in one frozen object, apart from the kernel's and the validator's.
import { describe, expect, it } from 'vitest';
import { ClientErrorCode, ToolSchemaError, ValidationError } from '@mcpc/client';
import { JsonRpcErrorCode, TransportErrorCode } from '@mcpc/jsonrpc';
import { UnsupportedDialectError, ValidationError as SchemaValidationError } from '@mcpc/schema-validator';

// That no package's source spells a code outside its src/codes.ts, and that every code names one class
// across the repository, is checked for every package by tooling/scripts/test/errors.test.ts.
describe('error codes', () => {
  it('keeps the client’s codes in one frozen object, apart from the kernel’s', () => {
    const others = new Set<string>([...Object.values(JsonRpcErrorCode), ...Object.values(TransportErrorCode)]);
    expect(Object.values(ClientErrorCode).filter((c) => others.has(c))).toEqual([]);
    expect(Object.isFrozen(ClientErrorCode)).toBe(true);
  });

  it('names the client’s ValidationError and ToolSchemaError apart from the schema validator’s errors', () => {
    const validatorsDialect = new UnsupportedDialectError('https://example.com/dialect', [
      'https://json-schema.org/draft/2020-12/schema',
    ]);
    const validatorsValidation = new SchemaValidationError([], []);
    const ours = new ValidationError('bad shape');
    const schema = new ToolSchemaError('s', 't', 'inputSchema', {
      reason: 'unsupported-dialect',
      dialect: 'x',
      supported: [],
      cause: validatorsDialect,
    });
    expect(ours.code).toBe(ClientErrorCode.InvalidShape);
    expect(ours.code).not.toBe(validatorsValidation.code);
    expect(schema.code).toBe(ClientErrorCode.ToolSchemaUnsupportedDialect);
    expect(schema.code).not.toBe(validatorsDialect.code);
  });
});
