// Reading a host's config file: bounded in size, JSON with comments and trailing commas (JSONC), or TOML.
import { open } from 'node:fs/promises';

/** What reading one file gave: its parsed document, nothing (no such file), or why it could not be used. */
export type ReadResult =
  | { readonly kind: 'missing' }
  | { readonly kind: 'parsed'; readonly document: unknown }
  | { readonly kind: 'problem'; readonly message: string };

/** Larger files are refused (a config file is a few kilobytes; a huge one is a mistake or hostile). */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

/** Reads and parses `path` (TOML when it ends in `.toml`, else JSONC). Never throws. */
export async function readConfigFile(path: string, maxBytes = DEFAULT_MAX_BYTES): Promise<ReadResult> {
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { kind: 'problem', message: 'is not a file' };
      if (stat.size > maxBytes)
        return { kind: 'problem', message: `is ${stat.size} bytes, more than the ${maxBytes} read; skipped` };
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'problem', message: `cannot be read (${code ?? (error as Error).message})` };
  }
  if (text.length > maxBytes) return { kind: 'problem', message: `is larger than ${maxBytes} bytes; skipped` };
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    if (/\.toml$/i.test(path)) {
      // Loaded only when a TOML file exists, so a run without one never pays for the parser.
      const { parse } = await import('smol-toml');
      return { kind: 'parsed', document: parse(text) };
    }
    if (text.trim() === '') return { kind: 'parsed', document: {} };
    return { kind: 'parsed', document: JSON.parse(stripJsonc(text)) as unknown };
  } catch (error) {
    const message = ((error as Error).message.split('\n', 1)[0] ?? 'unknown error').replace(
      /at position (\d+)(?: \(line \d+ column \d+\))?/,
      (_, at: string) => lineColumn(text, Number(at)),
    );
    return { kind: 'problem', message: `is not valid ${/\.toml$/i.test(path) ? 'TOML' : 'JSON'}: ${message}` };
  }
}

/**
 * JSONC as plain JSON: `//` and `/* … *\/` comments become spaces (so error positions still match the file)
 * and a comma before `}` or `]` is dropped; strings, with their escapes, are left exactly as they are.
 */
export function stripJsonc(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      const start = i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      out += text.slice(start, i);
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === ',' && closesNext(text, i + 1)) {
      out += ' ';
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Whether the next thing after `from` (past blanks and comments) is `}` or `]`. */
function closesNext(text: string, from: number): boolean {
  let i = from;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? n : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 2;
    } else return c === '}' || c === ']';
  }
  return false;
}

/** `at line L, column C` for an offset into `text`. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `at line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}
