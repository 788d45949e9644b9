// Building request `_meta`: the host's metadata, merged with the caller's, evaluated per request.
import { describe, expect, it } from 'vitest';
import { META, hostMeta, protocolMeta, withMeta } from '../src/server/meta.js';

describe('request _meta', () => {
  it("the host's requestMeta is copied when a request is built: editing it later changes nothing sent", () => {
    const option = { 'example.com/tags': ['a'], 'example.com/nested': { n: 1 } };
    const built = withMeta(
      { name: 'x' },
      hostMeta(option),
      protocolMeta('2026-07-28', { name: 'c', version: '1' }, {}, undefined),
    );
    option['example.com/tags'].push('b');
    option['example.com/nested'].n = 2;
    expect(built?._meta).toMatchObject({ 'example.com/tags': ['a'], 'example.com/nested': { n: 1 } });
  });

  it("merges host metadata, then the caller's own _meta, then the protocol's keys, which nothing overrides", () => {
    const protocol = protocolMeta('2026-07-28', { name: 'c', version: '1' }, {}, 'info');
    const built = withMeta({ _meta: { k: 'caller', [META.protocolVersion]: 'forged' } }, { k: 'host', h: 1 }, protocol);
    expect(built?._meta).toEqual({ k: 'caller', h: 1, ...protocol });
  });

  it('a function is evaluated per request; anything but an object is refused', () => {
    let n = 0;
    const option = () => ({ n: ++n });
    expect(hostMeta(option)).toEqual({ n: 1 });
    expect(hostMeta(option)).toEqual({ n: 2 });
    expect(() => hostMeta(() => [] as never)).toThrow(TypeError);
  });
});
