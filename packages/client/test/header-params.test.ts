// HeaderParams: the x-mcp-header validation and the Mcp-Param-* headers, exposed to hosts; legacy annotations.
//
// The class is the seed's HeaderParams.
import { describe, expect, it } from 'vitest';
import { HeaderParams } from '@mcpc/client';
import { resolveAnnotations } from '../src/features/tools.js';

const schema = (properties: Record<string, unknown>): unknown => ({ type: 'object', properties });

describe('HeaderParams', () => {
  it('validates the annotations and names the headers they map', () => {
    expect(
      HeaderParams.validate(
        schema({ region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer', 'x-mcp-header': 'N' } }),
      ),
    ).toEqual({
      valid: true,
      headers: [
        { header: 'mcp-param-region', path: ['region'] },
        { header: 'mcp-param-n', path: ['n'] },
      ],
    });
    expect(HeaderParams.validate({ type: 'object' })).toEqual({ valid: true, headers: [] });
  });

  it.each([
    [schema({ a: { type: 'string', 'x-mcp-header': '' } }), /non-empty string/],
    [schema({ a: { type: 'string', 'x-mcp-header': 'bad name' } }), /not an HTTP token/],
    [schema({ a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } }), /used twice/],
    [schema({ a: { type: 'object', 'x-mcp-header': 'A' } }), /only to string, integer and boolean/],
    [
      { type: 'object', items: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } },
      /not statically reachable/,
    ],
  ])('refuses %j', (inputSchema, reason) => {
    const check = HeaderParams.validate(inputSchema);
    expect(check.valid).toBe(false);
    expect(check.valid ? '' : check.reason).toMatch(reason);
  });

  it('computes the headers of a call, and refuses an invalid schema', () => {
    const s = schema({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
    });
    expect(HeaderParams.headersFor(s, { region: 'eu-west', dry: false, other: 1 })).toEqual({
      'mcp-param-region': 'eu-west',
      'mcp-param-dry': 'false',
    });
    expect(HeaderParams.headersFor(s, {})).toEqual({});
    expect(() => HeaderParams.headersFor(schema({ a: { type: 'array', 'x-mcp-header': 'A' } }), {})).toThrow(TypeError);
  });
});

describe('legacy tool annotations', () => {
  it('are read as booleans beside the four hints, absent when not sent', () => {
    const a = resolveAnnotations({ readOnly: true, destructive: false, requiresConfirmation: true });
    expect(a).toMatchObject({ readOnly: true, destructive: false, requiresConfirmation: true, readOnlyHint: false });
    const none = resolveAnnotations({ readOnlyHint: true });
    expect(none.readOnly).toBeUndefined();
    expect(none.requiresConfirmation).toBeUndefined();
    const odd = resolveAnnotations({ readOnly: 'yes', destructive: 1 });
    expect(odd.readOnly).toBeUndefined();
    expect(odd.destructive).toBeUndefined();
  });
});
