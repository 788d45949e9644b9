// The built package: transports loaded on demand, the root exports, instanceof across copies.
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

  it('loads yaml only when a skill is loaded: a dynamic import, nowhere a static one', () => {
    const sources = files(SRC).map((f) => [f, readFileSync(f, 'utf8')] as const);
    const statics = sources.filter(([, text]) => /^(?:import|export)\s+(?!type\b)[^;]*?from\s+'yaml'/m.test(text));
    expect(statics.map(([f]) => f)).toEqual([]);
    const dynamic = sources.filter(([, text]) => text.includes("await import('yaml')"));
    expect(dynamic.map(([f]) => f.slice(SRC.length))).toEqual(['/skills/frontmatter.ts']);
  });

  it('loads transports only on demand', () => {
    // `import type` is erased from the built output: the factories take the transports' option types.
    const offenders = files(SRC).filter((f) =>
      /^(?:import|export)\s+(?!type\b)[^;]*?from\s+'@mcpc\/transport-/m.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  // Every error class of every package (its code, brand, instanceof across copies, cause) is checked on
  // the built output by tooling/scripts/test/errors.test.ts.
  it('exports the client and the configs from its root', () => {
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
  });

  it('keeps instanceof across copies of the package through brands', () => {
    const error = new api.CapabilityError('s', 'logging', 'logging/setLevel');
    expect(error).toBeInstanceOf(api.McpError);
    expect(error.cause).toBeUndefined();
    // A look-alike from another copy: same brands, different prototype chain.
    const foreign = Object.assign(Object.create(Error.prototype), {
      [Symbol.for('@mcpc/error.brands')]: [
        Symbol.for('@mcpc/client.CapabilityError'),
        Symbol.for('@mcpc/jsonrpc.McpError'),
      ],
    });
    expect(foreign).toBeInstanceOf(api.CapabilityError);
    expect(foreign).not.toBeInstanceOf(api.ValidationError);
  });
});
