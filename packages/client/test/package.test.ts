import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '@mcpc/client';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) =>
    statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : [],
  );

describe('the package', () => {
  // That the root entry loads nothing Node-only (no node: import, no Buffer or process) is checked on
  // the built output, imports and globals both: tooling/scripts/test/architecture.test.ts.

  it('loads transports only on demand', () => {
    const offenders = files(SRC).filter((f) => /from\s+'@mcpc\/transport-/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('exports the client, the configs and the whole error taxonomy from its root', () => {
    for (const name of [
      'Client',
      'connect',
      'stdio',
      'Server',
      'serversFromConfig',
      'deprecations',
      'DEPRECATIONS',
      'textOf',
    ]) {
      expect(api).toHaveProperty(name);
    }
    const errors = [
      'McpError',
      'ServerError',
      'ErrorReply',
      'RequestTimeoutError',
      'AbortError',
      'TransportError',
      'MessageTooLargeError',
      'ConnectionClosedError',
      'JsonRpcProtocolError',
      'CapabilityError',
      'ValidationError',
      'ConnectionError',
      'UnsupportedProtocolVersionError',
      'AmbiguousNameError',
      'NotFoundError',
      'ToolNotFoundError',
      'PromptNotFoundError',
      'ResourceNotFoundError',
      'UnknownServerError',
      'PaginationError',
      'ClientClosedError',
      'TransportUnavailableError',
    ] as const;
    for (const name of errors) {
      const cls = api[name] as unknown as { brand?: string; prototype: unknown };
      expect(Object.hasOwn(cls, 'brand'), `${name} declares its own brand`).toBe(true);
      expect(cls.brand).toBe(name);
    }
  });

  it('keeps instanceof across copies of the package through brands', () => {
    const error = new api.CapabilityError('s', 'logging', 'logging/setLevel');
    expect(error).toBeInstanceOf(api.McpError);
    expect(error.cause).toBeUndefined();
    // A look-alike from another copy: same brands, different prototype chain.
    const foreign = Object.assign(Object.create(Error.prototype), {
      [Symbol.for('@mcpc/error.brands')]: ['CapabilityError', 'McpError'],
    });
    expect(foreign).toBeInstanceOf(api.CapabilityError);
    expect(foreign).not.toBeInstanceOf(api.ValidationError);
  });
});
