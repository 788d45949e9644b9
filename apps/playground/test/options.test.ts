// The playground's command line: its flags, and pnpm's `--` separator in front of them (`pnpm playground -- --port N`).
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../server/options.js';

describe('parseOptions', () => {
  it('takes the flags with or without the `--` pnpm passes on', () => {
    const expected = { port: 4000, open: false, demo: true, verbose: false, help: false };
    expect(parseOptions(['--no-open', '--port', '4000'])).toEqual(expected);
    expect(parseOptions(['--', '--no-open', '--port', '4000'])).toEqual(expected);
  });

  it('still refuses what is not a flag of its own', () => {
    expect(() => parseOptions(['--', 'extra'])).toThrow(/Unexpected argument/);
    expect(() => parseOptions(['--port', '70000'])).toThrow(/--port is 0\.\.65535/);
    expect(() => parseOptions(['--host', '0.0.0.0'])).toThrow(/127\.0\.0\.1 only/);
  });
});
