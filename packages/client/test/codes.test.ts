// Error codes as constants: the client's own in one object, each naming one class, and no code matched by literal.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ClientErrorCode, ToolSchemaError, ValidationError } from '@mcpc/client';
import { JsonRpcErrorCode, TransportErrorCode } from '@mcpc/jsonrpc';
import { UnsupportedDialectError, ValidationError as SchemaValidationError } from '@mcpc/schema-validator';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) =>
    statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : [],
  );

describe('error codes', () => {
  it('declares every code string once, in src/codes.ts, and matches the kernel’s and transports’ by constant', () => {
    const offenders = files(SRC)
      .filter((f) => !f.endsWith(join('src', 'codes.ts')))
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/'MCPC_[A-Z_]+'/g)].map((m) => `${f.slice(SRC.length + 1)}: ${m[0]}`),
      );
    expect(offenders).toEqual([]);
  });

  it('gives the client’s codes values of their own, apart from the kernel’s and the transports’', () => {
    const client = Object.values(ClientErrorCode);
    expect(new Set(client).size).toBe(client.length);
    const others = new Set<string>([...Object.values(JsonRpcErrorCode), ...Object.values(TransportErrorCode)]);
    expect(client.filter((c) => others.has(c))).toEqual([]);
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
