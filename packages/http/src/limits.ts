// Validation of the count options HTTP transports share (connections, replies in flight).

/** A whole count of at least one (a bound of 0 would let nothing through); `fallback` when not given. */
export function atLeastOne(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 1))
    throw new RangeError(`${name} must be at least 1, not ${String(value)}`);
  return Math.floor(value);
}
