// The command line: every flag `mcpc` knows, and how the words split into a target, a command and its arguments.
import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

/** Every flag, for every command: commands say which of them they take (`checkFlags`). */
export const FLAGS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v', multiple: true },
  'no-color': { type: 'boolean' },
  timeout: { type: 'string' },
  header: { type: 'string', short: 'H', multiple: true },
  transport: { type: 'string' },
  stdio: { type: 'string' },
  config: { type: 'string' },
  profile: { type: 'string' },
  protocol: { type: 'string' },
  schema: { type: 'boolean' },
  args: { type: 'string' },
  'args-file': { type: 'string' },
  output: { type: 'string', short: 'o' },
  out: { type: 'string' },
  tools: { type: 'boolean' },
  prompts: { type: 'boolean' },
  resources: { type: 'boolean' },
  resource: { type: 'string', multiple: true },
  task: { type: 'string', multiple: true },
  ttl: { type: 'string' },
  wait: { type: 'boolean' },
  'no-browser': { type: 'boolean' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'private-key': { type: 'string' },
  scope: { type: 'string' },
  all: { type: 'boolean' },
  'trust-project': { type: 'boolean' },
  remove: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  'allow-dynamic': { type: 'boolean' },
  to: { type: 'string' },
  trace: { type: 'boolean' },
} as const;

export type FlagName = keyof typeof FLAGS;
export type Flags = {
  -readonly [K in FlagName]?: (typeof FLAGS)[K] extends { multiple: true }
    ? (typeof FLAGS)[K] extends { type: 'boolean' }
      ? boolean[]
      : string[]
    : (typeof FLAGS)[K] extends { type: 'boolean' }
      ? boolean
      : string;
};

/** Flags every command takes. */
export const GLOBAL_FLAGS: readonly FlagName[] = [
  'help',
  'json',
  'verbose',
  'no-color',
  'timeout',
  'header',
  'transport',
  'stdio',
  'config',
  'profile',
  'protocol',
  'trust-project',
];

/** The command line, split. */
export interface CommandLine {
  readonly flags: Flags;
  /** Words before `--`. */
  readonly words: readonly string[];
  /** The command line after `--` (a server to spawn). */
  readonly trailing: readonly string[];
}

/** Splits argv (without node and the script) into flags, words and what follows `--`. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const cut = argv.indexOf('--');
  const before = cut === -1 ? argv : argv.slice(0, cut);
  const trailing = cut === -1 ? [] : argv.slice(cut + 1);
  let parsed;
  try {
    parsed = parseArgs({ args: [...before], options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.replace(/\. To specify.*$/s, '') : String(error));
  }
  return { flags: parsed.values as Flags, words: parsed.positionals, trailing };
}

/** Refuses flags the command does not take (beyond the global ones). */
export function checkFlags(command: string, flags: Flags, allowed: readonly FlagName[]): void {
  for (const name of Object.keys(flags) as FlagName[]) {
    if (flags[name] === undefined || GLOBAL_FLAGS.includes(name) || allowed.includes(name)) continue;
    throw new UsageError(`\`${command}\` does not take --${name}`, command);
  }
}

/** A positive integer flag (milliseconds, counts), or undefined when absent. */
export function intFlag(flags: Flags, name: 'timeout' | 'ttl'): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new UsageError(`--${name} takes a positive whole number of milliseconds, not "${raw}"`);
  return value;
}

/** `-H 'Name: value'` flags as a header object. */
export function headerFlags(flags: Flags): Record<string, string> | undefined {
  const list = flags.header;
  if (list === undefined || list.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const entry of list) {
    const colon = entry.indexOf(':');
    if (colon <= 0) throw new UsageError(`-H takes 'Name: value', not "${entry}"`);
    headers[entry.slice(0, colon).trim()] = entry.slice(colon + 1).trim();
  }
  return headers;
}
