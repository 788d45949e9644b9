// Names for `mcpc codegen`: tool names (`get-sum`, `a.b/c`) as TypeScript identifiers, unique, never reserved words.

/** Words that cannot name a function or a variable in a strict-mode ES module. */
const RESERVED = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'implements',
  'interface',
  'let',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'yield',
  'await',
  'arguments',
  'eval',
  'undefined',
  'NaN',
  'Infinity',
]);

/** The words of a name: runs of ASCII letters and digits (anything else separates them). */
function wordsOf(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
}

const upperFirst = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** `get-sum` → `GetSum`, `a.b/c` → `ABC`; a leading digit gets a `_`; nothing usable → `fallback`. */
export function pascalCase(name: string, fallback = 'Tool'): string {
  const joined = wordsOf(name).map(upperFirst).join('');
  if (joined.length === 0) return fallback;
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/** `get-sum` → `getSum`, `HTTP-get` → `httpGet`; reserved words get a trailing `_` (`delete` → `delete_`). */
export function camelCase(name: string, fallback = 'tool'): string {
  const words = wordsOf(name);
  if (words.length === 0) return fallback;
  const [first, ...rest] = words as [string, ...string[]];
  const head = first === first.toUpperCase() ? first.toLowerCase() : first.charAt(0).toLowerCase() + first.slice(1);
  const joined = head + rest.map(upperFirst).join('');
  const id = /^[0-9]/.test(joined) ? `_${joined}` : joined;
  return RESERVED.has(id) ? `${id}_` : id;
}

/** Whether `key` can stand unquoted as a property name. */
export const isIdentifier = (key: string): boolean => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key);

/** A property key as TypeScript writes it: bare when an identifier, else a quoted string. */
export const propertyKey = (key: string): string => (isIdentifier(key) ? key : JSON.stringify(key));

/** Hands out names once each: a taken name gets a number (`getSum`, `getSum2`, …). */
export class Namer {
  readonly #taken: Set<string>;

  constructor(reserved: Iterable<string> = []) {
    this.#taken = new Set(reserved);
  }

  /** Whether a name is taken. */
  has(name: string): boolean {
    return this.#taken.has(name);
  }

  /** `base`, or `base2`, `base3`… the first free one for which every `base + suffix` is free too; takes them all. */
  take(base: string, suffixes: readonly string[] = ['']): string {
    for (let n = 1; n < 10_000; n++) {
      const candidate = n === 1 ? base : `${base}${n}`;
      if (suffixes.every((s) => !this.#taken.has(candidate + s))) {
        for (const s of suffixes) this.#taken.add(candidate + s);
        return candidate;
      }
    }
    throw new Error(`no free name for ${base}`);
  }
}
