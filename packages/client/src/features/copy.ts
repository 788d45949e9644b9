// Copies of the objects a peer sent, key by key: what `{ ...raw, key: value }` gives, without its cost.

/**
 * A copy of `raw`'s own enumerable keys, in order — `{ ...raw }`. Assigning keys to the copy afterwards
 * gives `{ ...raw, key: value }`. Why not the spread: a spread followed by new keys gave every result a
 * map of its own (~0.7 µs per object, on every request and every list item); `Object.assign` onto `{}`
 * then a store is ~0.1 µs. `Object.assign` sets rather than defines, so an own `__proto__` key (JSON.parse
 * makes one) would replace the prototype: such an object is copied key by key instead.
 */
export function copyOwn(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!Object.hasOwn(raw, '__proto__')) return Object.assign({}, raw);
  const copy: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(raw)) {
    const descriptor = Object.getOwnPropertyDescriptor(raw, key);
    if (descriptor?.enumerable === true)
      Object.defineProperty(copy, key, {
        value: (raw as Record<PropertyKey, unknown>)[key],
        writable: true,
        enumerable: true,
        configurable: true,
      });
  }
  return copy;
}
