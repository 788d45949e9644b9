// A response whose headers stay undici's raw list until asked for: one header is read off it without the rest.
import type { HttpBody, HttpHeaders, HttpResponse } from './types.js';

/**
 * A response of undici's dispatch. Its `headers` object is decoded from the raw list on first use; its
 * `header()` (and so the exported `header(response, name)`) finds one name without decoding the others.
 * The transports read two or three headers of every response, and decoding all of them (a string for each
 * name and value, an object) was a tenth of the HTTP client's allocation per call.
 */
export class RawHeadersResponse implements HttpResponse {
  readonly statusCode: number;
  readonly body: HttpBody;
  readonly #raw: readonly (Buffer | string)[];
  #headers: HttpHeaders | undefined;

  constructor(statusCode: number, raw: readonly (Buffer | string)[], body: HttpBody) {
    this.statusCode = statusCode;
    this.#raw = raw;
    this.body = body;
  }

  get headers(): HttpHeaders {
    return (this.#headers ??= headersOf(this.#raw));
  }

  /** The first value of the header named `name` (lower case), as `headers[name]` would give it. */
  header(name: string): string | undefined {
    if (this.#headers !== undefined) return first(this.#headers[name]);
    const raw = this.#raw;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const candidate = raw[i]!;
      // A Latin-1 name has as many characters as bytes: most names are passed over on their length.
      if (candidate.length === name.length && latin1(candidate).toLowerCase() === name) return latin1(raw[i + 1]!);
    }
    return undefined;
  }
}

/** The first value of a response header, by lower-case name (without decoding the others where it can). */
export function header(response: HttpResponse, name: string): string | undefined {
  return response instanceof RawHeadersResponse ? response.header(name) : first(response.headers[name]);
}

const first = (value: string | readonly string[] | undefined): string | undefined =>
  typeof value === 'string' || value === undefined ? value : value[0];

/**
 * The response head's headers by lower-case name, a repeated one as an array, bytes read as Latin-1 (as
 * undici's `request()` gives them). Nothing inherited: a header named `__proto__` is a header like any other.
 */
export function headersOf(raw: readonly (Buffer | string)[]): HttpHeaders {
  const headers = Object.create(NO_NAMES) as Record<string, string | string[]>;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = latin1(raw[i]!).toLowerCase();
    const value = latin1(raw[i + 1]!);
    const before = headers[name];
    if (before === undefined) headers[name] = value;
    else if (typeof before === 'string') headers[name] = [before, value];
    else before.push(value);
  }
  return headers;
}

/**
 * The prototype of the headers objects: empty, with no prototype of its own, so that no name is inherited
 * (`constructor`, `__proto__`). Not `Object.create(null)` for the headers themselves: V8 makes those
 * dictionaries, three times the size of an object with a prototype.
 */
const NO_NAMES: object = Object.create(null) as object;

const latin1 = (b: Buffer | string): string => (typeof b === 'string' ? b : b.toString('latin1'));
