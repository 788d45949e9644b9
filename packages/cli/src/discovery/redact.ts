// Credential-bearing values in configured servers, shown as `<redacted>` in every listing.
//
// Only the listings hide them: the values themselves stay usable.
import type { ServerEntry } from './types.js';

/** What a redacted value reads as. */
export const REDACTED = '<redacted>';

/** Header, variable and parameter names whose values are credentials. */
const SECRET_NAME = /authorization|cookie|token|secret|key|password|passwd|credential/i;

/** Whether a header, environment variable or parameter name carries a credential. */
export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

const redactRecord = (record: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, isSecretName(k) && v !== '' ? REDACTED : v]));

/** A URL with its password and its credential-named query parameters redacted (as written when it does not parse). */
export function redactUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  let changed = false;
  if (parsed.password !== '') {
    parsed.password = 'redacted';
    changed = true;
  }
  for (const name of [...new Set(parsed.searchParams.keys())])
    if (isSecretName(name)) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  return changed ? parsed.href.replace(/redacted@/, `${REDACTED}@`).replace(/%3Credacted%3E/gi, REDACTED) : url;
}

/**
 * Command-line words with credential values redacted: `--token=…`, `token=…`, the word after `--api-key`,
 * and a URL's secrets.
 */
export function redactArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const assignment = /^(-{0,2}[\w.-]+)([=:])(.+)$/s.exec(word);
    if (assignment !== null && isSecretName(assignment[1]!) && !/^https?:/i.test(word)) {
      out.push(`${assignment[1]}${assignment[2]}${REDACTED}`);
    } else if (
      /^-{1,2}[\w.-]+$/.test(word) &&
      isSecretName(word) &&
      i + 1 < args.length &&
      !args[i + 1]!.startsWith('-')
    ) {
      out.push(word, REDACTED);
      i++;
    } else out.push(/^https?:\/\//i.test(word) ? redactUrl(word) : word);
  }
  return out;
}

/** The entry as listings show it: header and env values, URL and argument secrets redacted. */
export function redactEntry(entry: ServerEntry): ServerEntry {
  return {
    ...entry,
    ...(entry.url !== undefined && { url: redactUrl(entry.url) }),
    ...(entry.args !== undefined && { args: redactArgs(entry.args) }),
    ...(entry.headers !== undefined && { headers: redactRecord(entry.headers) }),
    ...(entry.env !== undefined && { env: redactRecord(entry.env) }),
  };
}

/** Credential values in a command line or URL kept as text (a session's target): `token=…`, `--api-key=…`, a URL's password. */
export function redactText(text: string): string {
  return text
    .replace(/(\/\/[^\s/:@]*:)[^\s/@]+@/g, `$1${REDACTED}@`)
    .replace(
      /((?:^|[\s?&;])-{0,2}[\w.-]*(?:authorization|cookie|token|secret|key|password|passwd|credential)[\w.-]*[=:])([^\s&'"]+)/gi,
      `$1${REDACTED}`,
    );
}
