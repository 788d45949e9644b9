// Which engine runs a pattern: common tool-schema patterns never need the backtracking matcher (the slow path).
import { describe, expect, it, vi } from 'vitest';
import type * as Backtrack from '../src/pattern-backtrack.js';

// Any check that reached the backtracking matcher would throw here.
vi.mock('../src/pattern-backtrack.js', async (original) => ({
  ...(await original<typeof Backtrack>()),
  BacktrackMatcher: class {
    test(): boolean {
      throw new Error('the backtracking matcher was used');
    }
  },
}));

const { compile } = await import('../src/index.js');

const BENIGN: [string, string, string[], string[]][] = [
  [
    'slug',
    '^[a-z0-9]+(?:-[a-z0-9]+)*$',
    ['my-tool-name', 'x'.repeat(5000) + '-y'],
    ['-x', 'a--b', 'x'.repeat(5000) + '-'],
  ],
  [
    'semver',
    '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$',
    ['1.2.3', '10.20.30-rc.1+build.5', '1.0.0-' + 'alpha.'.repeat(500) + '1'],
    ['1.2', '01.2.3', '1.0.0-' + 'alpha.'.repeat(500)],
  ],
  [
    'email',
    '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
    ['someone@example.com', 'a'.repeat(3000) + '@b.co'],
    ['a@b', 'a b@c.d', 'a'.repeat(3000) + '@b'],
  ],
  [
    'hostname',
    '^(?=.{1,253}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$',
    ['example.com', 'api.v2.service.example.org'],
    ['-x.com', 'a.'.repeat(200) + 'com', 'a-'.repeat(2000) + 'a'],
  ],
  ['capitalised word', '\\p{Lu}\\p{Ll}+', ['Élan', 'x'.repeat(5000) + 'Ab'], ['ÉLAN', 'x'.repeat(5000)]],
];

describe('common tool-schema patterns', () => {
  for (const [name, pattern, good, bad] of BENIGN) {
    it(`never need the backtracking matcher: ${name}`, () => {
      const v = compile({ type: 'string', pattern });
      const re = new RegExp(pattern, 'u');
      for (const s of good) expect(v.isValid(s), s.slice(0, 40)).toBe(true);
      for (const s of bad) expect(v.isValid(s), s.slice(0, 40)).toBe(false);
      for (const s of [...good, ...bad]) expect(v.isValid(s)).toBe(re.test(s));
    });
  }

  it('nor does a catastrophic pattern the linear-time matcher can run', () => {
    const v = compile({ type: 'string', pattern: '^(a|aa)+$' });
    expect(v.isValid('a'.repeat(10_000) + '!')).toBe(false);
    expect(v.isValid('a'.repeat(10_000))).toBe(true);
  });
});
