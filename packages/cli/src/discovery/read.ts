// Reading a host's config file: regular files only, bounded in size and nesting, JSONC or TOML.
//
// JSONC is JSON with comments and trailing commas.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { digestOf } from './trust.js';

/** What reading one file gave: its parsed document and digest, nothing (no such file), or why it could not be used. */
export type ReadResult =
  | { readonly kind: 'missing' }
  | { readonly kind: 'parsed'; readonly document: unknown; readonly digest: string }
  | { readonly kind: 'problem'; readonly message: string };

/** Larger files are refused (a config file is a few kilobytes; a huge one is a mistake or hostile). */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/**
 * Deeper documents are refused before parsing: a server entry is four levels down, and a few megabytes of
 * `[[[[…` otherwise cost seconds and hundreds of megabytes in the parser (or overflow the stack) on every run.
 */
export const MAX_DEPTH = 64;

/**
 * Opening a FIFO for reading blocks until a writer comes; with O_NONBLOCK it opens at once and the stat
 * below refuses it. (Windows has no FIFOs in the file system and no such flag.)
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Reads and parses `path` (TOML when it ends in `.toml`, else JSONC). Never throws. */
export async function readConfigFile(path: string, maxBytes = DEFAULT_MAX_BYTES): Promise<ReadResult> {
  let bytes: Buffer;
  try {
    const handle = await open(path, OPEN_FLAGS);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { kind: 'problem', message: 'is not a regular file; skipped' };
      if (stat.size > maxBytes)
        return { kind: 'problem', message: `is ${stat.size} bytes, more than the ${maxBytes} read; skipped` };
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'problem', message: `cannot be read (${code ?? (error as Error).message})` };
  }
  // A file that grew between the stat and the read.
  if (bytes.length > maxBytes) return { kind: 'problem', message: `is larger than ${maxBytes} bytes; skipped` };
  const digest = digestOf(bytes);
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const toml = /\.toml$/i.test(path);
  const depth = nestingDepth(text, toml ? 'toml' : 'json', MAX_DEPTH);
  if (depth > MAX_DEPTH)
    return { kind: 'problem', message: `nests arrays or objects deeper than ${MAX_DEPTH} levels; skipped` };
  try {
    if (toml) {
      // Loaded only when a TOML file exists, so a run without one never pays for the parser.
      const { parse } = await import('smol-toml');
      return { kind: 'parsed', document: parse(text), digest };
    }
    if (text.trim() === '') return { kind: 'parsed', document: {}, digest };
    return { kind: 'parsed', document: JSON.parse(stripJsonc(text)) as unknown, digest };
  } catch (error) {
    const message = ((error as Error).message.split('\n', 1)[0] ?? 'unknown error').replace(
      /at position (\d+)(?: \(line \d+ column \d+\))?/,
      (_, at: string) => lineColumn(text, Number(at)),
    );
    return { kind: 'problem', message: `is not valid ${toml ? 'TOML' : 'JSON'}: ${message}` };
  }
}

/**
 * How deep `[` and `{` nest outside strings and comments, counting no further than `stop + 1` (one linear
 * pass, no allocation). JSONC strings are `"…"`; TOML's are `"…"`, `'…'` and their triple-quoted forms, and
 * its comments run from `#` to the end of the line.
 */
export function nestingDepth(text: string, syntax: 'json' | 'toml', stop: number): number {
  let depth = 0;
  let deepest = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */ || (syntax === 'toml' && c === 0x27) /* ' */) {
      const triple = syntax === 'toml' && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c;
      const close = triple ? String.fromCharCode(c).repeat(3) : String.fromCharCode(c);
      let j = i + close.length;
      for (;;) {
        const at = text.indexOf(close, j);
        if (at === -1) return deepest; // unterminated: the parser says so
        // A `"` after an odd run of backslashes is escaped (TOML's literal strings have no escapes).
        let slashes = 0;
        if (c === 0x22) while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) {
          i = at + close.length - 1;
          break;
        }
        j = at + 1;
      }
    } else if (syntax === 'json' && c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? n : end;
    } else if (syntax === 'json' && c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 1;
    } else if (syntax === 'toml' && c === 0x23 /* # */) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? n : end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > deepest) deepest = depth;
      if (deepest > stop) return deepest;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (depth > 0) depth--;
    }
  }
  return deepest;
}

/**
 * JSONC as plain JSON: `//` and `/* … *\/` comments become spaces (so error positions still match the file)
 * and a comma before `}` or `]` is dropped; strings, with their escapes, are left exactly as they are.
 */
export function stripJsonc(text: string): string {
  // Plain runs are copied whole (a character at a time made a 5 MB file cost seconds).
  const parts: string[] = [];
  let from = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < n && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i++;
    } else if (c === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      parts.push(text.slice(from, i), ' '.repeat(stop - i));
      i = from = stop;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      parts.push(text.slice(from, i), text.slice(i, stop).replace(/[^\n]/g, ' '));
      i = from = stop;
    } else if (c === 0x2c /* , */ && closesNext(text, i + 1)) {
      parts.push(text.slice(from, i), ' ');
      i = from = i + 1;
    } else i++;
  }
  parts.push(text.slice(from, Math.min(i, n)));
  return parts.join('');
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
