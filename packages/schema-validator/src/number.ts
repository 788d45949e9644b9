// `multipleOf` without floating-point division: exact rational arithmetic on BigInts.
//
// So 1000000000000000.25 is not a multiple of 0.5, and 0.0075 is one of 0.0001.

/** `m · 2^e` exactly, with `m` odd (or zero): every finite double is one. */
function binary(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = hi >>> 20;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  if (m === 0n) return { m, e: 0 };
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return { m, e };
}

/**
 * `m · 10^e` exactly, read from the shortest decimal that round-trips to `x`, when that decimal has at
 * most 15 significant digits: no other decimal that short reads as the same double, so it is what the
 * JSON text said. Longer ones are ambiguous (1000000000000000.25 prints as 1000000000000000.2): undefined.
 */
function decimal(x: number): { m: bigint; e: number } | undefined {
  const s = String(Math.abs(x));
  const [mant = '0', exp = '0'] = s.split('e');
  const dot = mant.indexOf('.');
  const digits = dot === -1 ? mant : mant.slice(0, dot) + mant.slice(dot + 1);
  if (digits.replace(/^0+/, '').replace(/0+$/, '').length > 15) return undefined;
  return { m: BigInt(digits), e: Number(exp) - (dot === -1 ? 0 : mant.length - dot - 1) };
}

/** Whether `a · base^ea` is an integer multiple of `b · base^eb` (`b` > 0). */
function divides(a: bigint, ea: number, b: bigint, eb: number, base: bigint): boolean {
  if (a === 0n) return true;
  const shift = ea - eb;
  return shift >= 0 ? (a * base ** BigInt(shift)) % b === 0n : a % (b * base ** BigInt(-shift)) === 0n;
}

/**
 * The cheap exact case: `m` is `mInt · 10^-k` with few digits, so a `data` that reads as `n · 10^-k`
 * (`n` below 10^15: no other decimal that short is the same double) is a multiple when `mInt` divides
 * `n`, all in safe integers. Undefined when `m` does not qualify.
 */
function decimalFastPath(m: number): ((data: number) => boolean) | undefined {
  for (let k = 0; k <= 15; k++) {
    const p = 10 ** k;
    const mInt = Math.round(m * p);
    if (mInt / p !== m) continue;
    if (!Number.isSafeInteger(mInt) || mInt >= 1e15) return undefined;
    // True only: a no here may still be a yes of the exact binary reading.
    return (data) => {
      const n = Math.round(data * p);
      return Math.abs(n) < 1e15 && n / p === data && n % mInt === 0;
    };
  }
  return undefined;
}

/**
 * A test for "is an integer multiple of `m`" (`m` > 0). Numbers are read two ways: as the binary values
 * they are, exactly, and, when both print with at most 15 significant digits, as those decimals (0.1 is
 * a tenth, not the double nearest to it); either reading being an exact multiple is enough. Values a
 * double holds exactly (0.5, 1.5, 1000000000000000.25) are therefore judged exactly.
 */
export function multipleOfTest(m: number): (data: number) => boolean {
  const fast = decimalFastPath(m);
  const bm = binary(m);
  const dm = decimal(m);
  return (data) => {
    if (!Number.isFinite(data)) return false;
    if (Number.isSafeInteger(data) && Number.isSafeInteger(m)) return data % m === 0;
    if (fast !== undefined && fast(data)) return true;
    // Most other cases, decided cheaply: a quotient far from any integer (relative to the rounding of a
    // division, ~1e-15 of it) cannot become one in exact arithmetic.
    const q = data / m;
    if (Number.isFinite(q) && Math.abs(q) < 1e9 && Math.abs(q - Math.round(q)) > 1e-6) return false;
    const bd = binary(data);
    if (divides(bd.m, bd.e, bm.m, bm.e, 2n)) return true;
    // An integer is exactly itself, however many digits it has (9007199254740991 is a multiple of 0.1):
    // compared with the divisor's decimal reading, in BigInts.
    if (Number.isInteger(data) && dm !== undefined && divides(BigInt(data), 0, dm.m, dm.e, 10n)) return true;
    const dd = decimal(data);
    return dd !== undefined && dm !== undefined && divides(dd.m, dd.e, dm.m, dm.e, 10n);
  };
}

/** Whether `data` is an integer multiple of `m` (> 0); see `multipleOfTest`. */
export const isMultipleOf = (data: number, m: number): boolean => multipleOfTest(m)(data);
