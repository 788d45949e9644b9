// The kernel's deprecation registry: once per feature per process, a host switch, and logger failures contained.
import { afterEach, describe, expect, it } from 'vitest';
import {
  deprecationNoticesEnabled,
  deprecationsNoted,
  forgetDeprecations,
  noteDeprecation,
  setDeprecationNotices,
  type Logger,
} from '@mcpc/jsonrpc';

function recording(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, error() {}, warn: (m: string) => void warnings.push(m) };
}

describe('the deprecation registry', () => {
  afterEach(() => {
    forgetDeprecations();
    setDeprecationNotices(true);
  });

  it('gives one notice per feature per process, whichever logger the later uses come through', () => {
    const first = recording();
    const second = recording();
    let built = 0;
    const message = () => `notice ${++built}`;
    expect(noteDeprecation('test-feature', first, message)).toBe(true);
    expect(noteDeprecation('test-feature', first, message)).toBe(false);
    expect(noteDeprecation('test-feature', second, message)).toBe(false);
    expect(first.warnings).toEqual(['notice 1']);
    expect(second.warnings).toEqual([]);
    expect(built).toBe(1); // a spent notice is never built again
    expect(noteDeprecation('other-feature', second, () => 'other')).toBe(true);
    expect([...deprecationsNoted()]).toEqual(['test-feature', 'other-feature']);
  });

  it('is switched off and on for the whole process, and a use while off leaves the notice owed', () => {
    const logger = recording();
    setDeprecationNotices(false);
    expect(deprecationNoticesEnabled()).toBe(false);
    expect(noteDeprecation('test-feature', logger, () => 'x')).toBe(false);
    expect(logger.warnings).toEqual([]);
    expect(deprecationsNoted().has('test-feature')).toBe(false);
    setDeprecationNotices(true);
    expect(noteDeprecation('test-feature', logger, () => 'x')).toBe(true);
    expect(logger.warnings).toEqual(['x']);
  });

  it('survives a logger or a message that throws, and a logger with warnings off: the notice stays owed', () => {
    const throwing: Logger = {
      debug() {},
      info() {},
      error() {},
      warn() {
        throw new Error('logger down');
      },
    };
    expect(noteDeprecation('test-feature', throwing, () => 'x')).toBe(false);
    expect(
      noteDeprecation('test-feature', recording(), () => {
        throw new Error('no message');
      }),
    ).toBe(false);
    const off = { ...recording(), isLevelEnabled: () => false };
    expect(noteDeprecation('test-feature', off, () => 'x')).toBe(false);
    expect(off.warnings).toEqual([]);
    const logger = recording();
    expect(noteDeprecation('test-feature', logger, () => 'x')).toBe(true);
    expect(logger.warnings).toEqual(['x']);
  });

  it('stands a reentrant use down instead of writing a second notice', () => {
    const warnings: string[] = [];
    const reentrant: Logger = {
      debug() {},
      info() {},
      error() {},
      warn(m) {
        noteDeprecation('test-feature', reentrant, () => 'inner');
        warnings.push(m);
      },
    };
    expect(noteDeprecation('test-feature', reentrant, () => 'outer')).toBe(true);
    expect(warnings).toEqual(['outer']);
  });

  it('hands out a copy of what was noted, and forgets one feature or all', () => {
    noteDeprecation('a', recording(), () => 'a');
    noteDeprecation('b', recording(), () => 'b');
    const noted = deprecationsNoted();
    (noted as Set<string>).clear();
    expect([...deprecationsNoted()]).toEqual(['a', 'b']);
    forgetDeprecations('a');
    expect([...deprecationsNoted()]).toEqual(['b']);
    forgetDeprecations();
    expect(deprecationsNoted().size).toBe(0);
  });

  it('keeps its state in the module, with nothing on globalThis for another package to reach or forge', () => {
    noteDeprecation('test-feature', recording(), () => 'x');
    const keys = [...Object.getOwnPropertySymbols(globalThis), ...Object.getOwnPropertyNames(globalThis)].map(String);
    expect(keys.filter((k) => /deprecation/i.test(k))).toEqual([]);
  });
});
