// Parsing `WWW-Authenticate` challenges (RFC 9110), bounded, and picking the one this client answers.
/** One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1). */
export interface Challenge {
  /** Lower-cased: `bearer`, `dpop`, … */
  readonly scheme: string;
  /** Parameter names lower-cased; values unquoted. */
  readonly params: Readonly<Record<string, string>>;
  readonly token68?: string;
}

const MAX_HEADER = 16 * 1024;
const MAX_CHALLENGES = 16;
const MAX_PARAMS = 32;

const TCHAR = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;

/**
 * Parse `WWW-Authenticate` values (a header may repeat, and one value may hold several challenges).
 * Bounded: a peer cannot make this read more than 16 KiB or keep more than 16 challenges. A challenge
 * that repeats a parameter is dropped rather than guessed at (RFC 9110: each name appears once); a
 * malformed tail ends parsing but keeps what was read before it.
 */
export function parseWwwAuthenticate(value: string | readonly string[] | undefined): Challenge[] {
  if (value === undefined) return [];
  const text = (typeof value === 'string' ? value : value.join(', ')).slice(0, MAX_HEADER);
  const out: Challenge[] = [];
  let i = 0;
  const n = text.length;
  const skip = (chars: RegExp) => {
    while (i < n && chars.test(text[i] ?? '')) i++;
  };
  const token = (): string => {
    const start = i;
    while (i < n && TCHAR.test(text[i] ?? '')) i++;
    return text.slice(start, i);
  };
  const quoted = (): string | undefined => {
    if (text[i] !== '"') return undefined;
    i++;
    let v = '';
    while (i < n) {
      const c = text[i++];
      if (c === '"') return v;
      if (c === '\\') {
        if (i >= n) return undefined;
        v += text[i++];
      } else v += c;
    }
    return undefined;
  };

  // `name = value` ahead (a parameter), as opposed to a token68 such as `abc==`.
  const looksLikeParam = (): boolean => {
    const saved = i;
    const name = token();
    skip(/[ \t]/);
    let yes = false;
    if (name !== '' && text[i] === '=') {
      i++;
      skip(/[ \t]/);
      const c = text[i];
      yes = c !== undefined && c !== ',' && c !== '=';
    }
    i = saved;
    return yes;
  };

  while (i < n && out.length < MAX_CHALLENGES) {
    skip(/[\s,]/);
    if (i >= n) break;
    const scheme = token();
    if (scheme === '') break;
    // No prototype: a peer naming a parameter `__proto__` must not reach Object.prototype.
    const params: Record<string, string> = Object.create(null) as Record<string, string>;
    let token68: string | undefined;
    let duplicate = false;
    const afterScheme = i;
    skip(/[ \t]/);
    if (i > afterScheme && i < n && text[i] !== ',') {
      if (!looksLikeParam()) {
        const t68 = TOKEN68.exec(text.slice(i));
        if (t68 !== null) {
          token68 = t68[0];
          i += t68[0].length;
        }
      } else {
        for (let count = 0; i < n && count < MAX_PARAMS; count++) {
          skip(/[\s,]/);
          const start = i;
          const name = token();
          if (name === '') break;
          skip(/[ \t]/);
          if (text[i] !== '=') {
            i = start; // the next challenge's scheme
            break;
          }
          i++;
          skip(/[ \t]/);
          const v = text[i] === '"' ? quoted() : token();
          if (v === undefined) {
            i = n;
            break;
          }
          const key = name.toLowerCase();
          if (Object.hasOwn(params, key)) duplicate = true;
          params[key] = v;
          skip(/[ \t]/);
          if (i < n && text[i] !== ',') {
            i = n; // garbage after a parameter: stop here
            break;
          }
        }
      }
    }
    if (!duplicate)
      out.push(
        token68 === undefined
          ? { scheme: scheme.toLowerCase(), params }
          : { scheme: scheme.toLowerCase(), params, token68 },
      );
  }
  return out;
}

/** The values of a header that may repeat, from the transport's raw header record. */
export function headerValues(headers: Readonly<Record<string, string | string[] | undefined>>, name: string): string[] {
  const v = headers[name] ?? headers[name.toLowerCase()];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The first challenge of one of `schemes` that carries `param`, or else the first of those schemes. */
export function pickChallenge(challenges: readonly Challenge[], schemes: readonly string[]): Challenge | undefined {
  const relevant = challenges.filter((c) => schemes.includes(c.scheme));
  return relevant.find((c) => c.params.error !== undefined || c.params.resource_metadata !== undefined) ?? relevant[0];
}
