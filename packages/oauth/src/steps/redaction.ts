// What an exchange record shows of a secret (token, code, verifier, client secret): its first and last 4 characters.

/** Form and JSON fields whose values are secrets. */
const SECRET_FIELDS = [
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'client_assertion',
  'assertion',
  'subject_token',
  'actor_token',
  'registration_access_token',
  'device_code',
];
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const FIELDS = SECRET_FIELDS.join('|');
const JSON_FIELD = new RegExp(`("(?:${FIELDS})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)(")`, 'g');
const FORM_FIELD = new RegExp(`(^|&)((?:${FIELDS})=)([^&]*)`, 'g');

/** A secret as a record shows it: its first and last 4 characters (`…` alone when it is 12 characters or fewer). */
export function redactSecret(value: string): string {
  return value.length <= 12 ? '…' : `${value.slice(0, 4)}…${value.slice(-4)}`;
}

/** Headers as a record: `Authorization` keeps its scheme, the credentials and cookies are redacted. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!SECRET_HEADERS.has(name)) out[name] = value;
    else if (name.endsWith('authorization')) {
      const space = value.indexOf(' ');
      out[name] = space > 0 ? `${value.slice(0, space)} ${redactSecret(value.slice(space + 1))}` : redactSecret(value);
    } else out[name] = redactSecret(value);
  });
  return out;
}

/** A JSON text (whole or cut short) with the values of secret fields redacted. */
export function redactJson(text: string): string {
  return text.replace(
    JSON_FIELD,
    (_m, open: string, value: string, close: string) => open + redactSecret(value) + close,
  );
}

/** An `application/x-www-form-urlencoded` text (a token request, a query) with the secret values redacted. */
export function redactForm(text: string): string {
  return text.replace(FORM_FIELD, (_m, lead: string, name: string, value: string) => lead + name + redactSecret(value));
}

/** A URL with the secret values of its query redacted (a callback's `code`). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const end = hash === -1 ? url.length : hash;
  return url.slice(0, q + 1) + redactForm(url.slice(q + 1, end)) + url.slice(end);
}

/** A body as a record: JSON secrets redacted, and form secrets when the body is a form. */
export function redactBody(text: string, contentType: string | null): string {
  const json = redactJson(text);
  return /application\/x-www-form-urlencoded/i.test(contentType ?? '') ? redactForm(json) : json;
}
