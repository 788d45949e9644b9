// Tool and prompt arguments from the command line: key=value, key:=json, --args and --args-file.
//
// The value of a key=value is coerced by the input schema.
import { readFile } from 'node:fs/promises';
import type { Flags } from './args.js';
import { UsageError } from './errors.js';

type Schema = Readonly<Record<string, unknown>>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON types a property schema allows (`type`, or those of its `anyOf`/`oneOf` branches). */
function typesOf(schema: unknown): Set<string> {
  const out = new Set<string>();
  if (!isObject(schema)) return out;
  const t = schema.type;
  if (typeof t === 'string') out.add(t);
  else if (Array.isArray(t)) for (const x of t) if (typeof x === 'string') out.add(x);
  if (schema.enum !== undefined && Array.isArray(schema.enum))
    for (const v of schema.enum) out.add(v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) for (const x of typesOf(b)) out.add(x);
  }
  return out;
}

/** `value` as the property's schema wants it: a number for an integer, true for a boolean, … */
export function coerceValue(key: string, value: string, property: unknown): unknown {
  const types = typesOf(property);
  // A string is a string, even "5": only a schema that does not take strings coerces.
  if (types.size === 0 || types.has('string')) return value;
  if ((types.has('integer') || types.has('number')) && /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) {
    const n = Number(value);
    if (types.has('integer') && !types.has('number') && !Number.isInteger(n))
      throw new UsageError(`argument "${key}" must be a whole number, not "${value}"`);
    return n;
  }
  if (types.has('boolean') && /^(true|false|yes|no|1|0|on|off)$/i.test(value)) return /^(true|yes|1|on)$/i.test(value);
  if (types.has('null') && value === 'null') return null;
  if (types.has('array') || types.has('object')) {
    const trimmed = value.trim();
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) return parseJson(key, trimmed);
    if (types.has('array')) {
      const items = isObject(property) ? property.items : undefined;
      return value === '' ? [] : value.split(',').map((v) => coerceValue(key, v.trim(), items));
    }
  }
  throw new UsageError(
    `argument "${key}" must be of type ${[...types].join(' or ')}, not "${value}" (use ${key}:=<json> to pass JSON)`,
  );
}

function parseJson(key: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`argument "${key}" is not valid JSON: ${text.slice(0, 80)}`);
  }
}

/** Reads all of a stream as text (for `--args-file -`). */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}

/**
 * The arguments of a call: `--args JSON` or `--args-file F` (`-` for stdin) first, then each `key=value`
 * (coerced by `schema`'s property) or `key:=json` over them. A key the schema forbids is refused, as is a
 * missing required one, before anything is sent.
 */
export async function readArguments(
  words: readonly string[],
  flags: Flags,
  schema: Schema | undefined,
  stdin: NodeJS.ReadableStream,
): Promise<Record<string, unknown>> {
  let args: Record<string, unknown> = {};
  if (flags.args !== undefined && flags['args-file'] !== undefined)
    throw new UsageError('give --args or --args-file, not both');
  const source =
    flags.args !== undefined
      ? flags.args === '-'
        ? await readAll(stdin)
        : flags.args
      : flags['args-file'] !== undefined
        ? flags['args-file'] === '-'
          ? await readAll(stdin)
          : await readFile(flags['args-file'], 'utf8').catch((e: unknown) => {
              throw new UsageError(`cannot read --args-file: ${(e as Error).message}`);
            })
        : undefined;
  if (source !== undefined) {
    const parsed = parseJson('--args', source);
    if (!isObject(parsed)) throw new UsageError('--args must be a JSON object');
    args = parsed;
  }
  const properties = isObject(schema?.properties) ? (schema.properties as Record<string, unknown>) : {};
  for (const word of words) {
    const json = /^([^=:\s]+):=(.*)$/s.exec(word);
    const plain = json === null ? /^([^=\s]+)=(.*)$/s.exec(word) : null;
    if (json === null && plain === null) throw new UsageError(`"${word}" is not key=value (or key:=json)`);
    const key = (json ?? plain)![1]!;
    const raw = (json ?? plain)![2]!;
    if (schema?.additionalProperties === false && !Object.hasOwn(properties, key)) {
      const known = Object.keys(properties);
      throw new UsageError(
        `the tool takes no argument "${key}"${known.length > 0 ? `; it takes: ${known.join(', ')}` : ''}`,
      );
    }
    const value = json !== null ? parseJson(key, raw) : coerceValue(key, raw, properties[key]);
    Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
  }
  const required = Array.isArray(schema?.required) ? (schema.required as unknown[]) : [];
  const missing = required.filter((k): k is string => typeof k === 'string' && !Object.hasOwn(args, k));
  if (missing.length > 0)
    throw new UsageError(`missing required argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  return args;
}
