// JSON Schema → TypeScript for `mcpc codegen`, with `$ref`s as named types.
//
// It maps object types, unions and tuples; the rest becomes `unknown`.
import { pascalCase, propertyKey, type Namer } from './names.js';

type SchemaObject = { readonly [key: string]: unknown };

/** A TypeScript type as text, with how tightly it binds (to know when it needs parentheses). */
interface TypeText {
  readonly text: string;
  /** 0: a union, 1: an intersection, 2: an atom (a name, a literal, an object, an array). */
  readonly prec: 0 | 1 | 2;
}

const UNKNOWN: TypeText = { text: 'unknown', prec: 2 };
const NEVER: TypeText = { text: 'never', prec: 2 };
const atom = (text: string): TypeText => ({ text, prec: 2 });

/** Where a schema is being mapped: its root document (for `$ref`), the indentation, the aliases it must not name. */
interface Scope {
  readonly root: SchemaObject;
  /** The name of the root's own type, for `$ref: "#"`. */
  readonly rootName: string | undefined;
  /** A key identifying the root's definitions (two roots with the same definitions share named types). */
  readonly rootKey: string;
  readonly indent: string;
  /**
   * Named types whose alias is being written and that a reference here would name directly (not inside an object
   * or an array): naming them would make a circular alias, so such a reference becomes `unknown`.
   */
  readonly direct: ReadonlySet<string>;
}

const isObject = (value: unknown): value is SchemaObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text for a JSDoc comment: `*\/` cannot close it early, every line starts with ` * `. */
export function jsDoc(lines: readonly string[], indent: string): string {
  const body = lines
    .join('\n')
    .replace(/\*\//g, '*\\/')
    .split(/\r\n|\r|\n|\u2028|\u2029/)
    .map((l) => l.replace(/\s+$/, ''));
  while (body.length > 0 && body[body.length - 1] === '') body.pop();
  if (body.length === 0) return '';
  if (body.length === 1) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((l) => (l === '' ? `${indent} *` : `${indent} * ${l}`)).join('\n')}\n${indent} */\n`;
}

/** The documentation lines of a schema: its description (or title), default and deprecation. */
function docOf(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const lines: string[] = [];
  const text = typeof schema.description === 'string' ? schema.description : schema.title;
  if (typeof text === 'string' && text.trim() !== '')
    lines.push(text.length > 4_000 ? `${text.slice(0, 4_000)}…` : text);
  if (schema.default !== undefined) {
    const json = JSON.stringify(schema.default);
    if (json !== undefined) lines.push(`@default ${json.length > 200 ? `${json.slice(0, 200)}…` : json}`);
  }
  if (schema.deprecated === true) lines.push('@deprecated');
  return lines;
}

function union(parts: readonly TypeText[]): TypeText {
  const seen = new Set<string>();
  const kept: TypeText[] = [];
  for (const p of parts) {
    if (p.text === 'unknown') return UNKNOWN;
    if (p.text === 'never' || seen.has(p.text)) continue;
    seen.add(p.text);
    kept.push(p);
  }
  if (kept.length === 0) return NEVER;
  if (kept.length === 1) return kept[0]!;
  return { text: kept.map((p) => p.text).join(' | '), prec: 0 };
}

function intersection(parts: readonly TypeText[]): TypeText {
  const seen = new Set<string>();
  const kept: TypeText[] = [];
  for (const p of parts) {
    if (p.text === 'never') return NEVER;
    if (p.text === 'unknown' || seen.has(p.text)) continue;
    seen.add(p.text);
    kept.push(p);
  }
  if (kept.length === 0) return UNKNOWN;
  if (kept.length === 1) return kept[0]!;
  return { text: kept.map((p) => (p.prec === 0 ? `(${p.text})` : p.text)).join(' & '), prec: 1 };
}

/** A JSON value as a literal type (`"a"`, `1`, `null`, `{ "k": true }`, `[1, 2]`). */
function literal(value: unknown): TypeText {
  if (value === null) return atom('null');
  switch (typeof value) {
    case 'string':
      return atom(JSON.stringify(value));
    case 'number':
      return Number.isFinite(value) ? atom(String(value)) : atom('number');
    case 'boolean':
      return atom(String(value));
    case 'object':
      if (Array.isArray(value)) return atom(`[${value.map((v) => literal(v).text).join(', ')}]`);
      return atom(
        `{ ${Object.entries(value as SchemaObject)
          .map(([k, v]) => `${propertyKey(k)}: ${literal(v).text}`)
          .join('; ')} }`,
      );
    default:
      return UNKNOWN;
  }
}

/** Reads a JSON pointer fragment (`#/$defs/a~1b`) into its segments, or undefined when it is none. */
function pointerOf(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return undefined;
  }
}

/** The TypeScript types of JSON Schemas, with the named types (`$ref`s) they need, for one module. */
export class TypeEmitter {
  readonly #namer: Namer;
  /** Named types by root key and pointer. */
  readonly #named = new Map<string, string>();
  /** Declarations written and not yet drained, in the order they were finished. */
  #pending: string[] = [];

  constructor(namer: Namer) {
    this.#namer = namer;
  }

  /** The declarations written since the last call (named types a schema referred to). */
  drain(): string[] {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }

  /**
   * Declares `name` (already taken by the caller) as the type of a root schema: an interface when the schema is
   * a plain object, else a type alias. Returns the declaration; the named types it refers to go to `drain()`.
   */
  declare(name: string, schema: unknown, doc: readonly string[] = []): { text: string; plainObject: boolean } {
    const root = isObject(schema) ? schema : {};
    const scope: Scope = { root, rootName: name, rootKey: rootKeyOf(root), indent: '', direct: new Set([name]) };
    return this.#declaration(name, schema, scope, doc);
  }

  /** A schema's type as one expression (no declaration for the root itself). */
  typeOf(schema: unknown): string {
    const root = isObject(schema) ? schema : {};
    return this.#type(schema, { root, rootName: undefined, rootKey: rootKeyOf(root), indent: '', direct: new Set() })
      .text;
  }

  #declaration(
    name: string,
    schema: unknown,
    scope: Scope,
    doc: readonly string[],
  ): { text: string; plainObject: boolean } {
    const comment = jsDoc([...doc, ...docOf(schema)], '');
    if (isObject(schema) && isPlainObject(schema)) {
      const members = this.#members(schema, { ...scope, indent: '  ', direct: new Set() });
      return { text: `${comment}export interface ${name} {\n${members}}\n`, plainObject: true };
    }
    const type = this.#type(schema, scope);
    return { text: `${comment}export type ${name} = ${type.text};\n`, plainObject: false };
  }

  #type(schema: unknown, scope: Scope): TypeText {
    if (schema === true) return UNKNOWN;
    if (schema === false) return NEVER;
    if (!isObject(schema)) return UNKNOWN;
    const parts: TypeText[] = [];
    if (typeof schema.$ref === 'string') parts.push(this.#ref(schema.$ref, scope));
    if ('const' in schema) parts.push(literal(schema.const));
    else if (Array.isArray(schema.enum)) parts.push(union(schema.enum.map(literal)));
    else parts.push(this.#base(schema, scope));
    if (Array.isArray(schema.anyOf)) parts.push(union(schema.anyOf.map((s) => this.#type(s, scope))));
    if (Array.isArray(schema.oneOf)) parts.push(union(schema.oneOf.map((s) => this.#type(s, scope))));
    if (Array.isArray(schema.allOf)) parts.push(intersection(schema.allOf.map((s) => this.#type(s, scope))));
    const type = intersection(parts);
    return schema.nullable === true ? union([type, atom('null')]) : type;
  }

  /** The type the `type` keyword (or the structural keywords, without it) gives. */
  #base(schema: SchemaObject, scope: Scope): TypeText {
    let types: unknown[];
    if (typeof schema.type === 'string') types = [schema.type];
    else if (Array.isArray(schema.type)) types = schema.type;
    else if (
      'properties' in schema ||
      'additionalProperties' in schema ||
      'patternProperties' in schema ||
      'required' in schema
    )
      types = ['object'];
    else if ('items' in schema || 'prefixItems' in schema) types = ['array'];
    else return UNKNOWN;
    return union(
      types.map((t): TypeText => {
        switch (t) {
          case 'string':
            return atom('string');
          case 'number':
          case 'integer':
            return atom('number');
          case 'boolean':
            return atom('boolean');
          case 'null':
            return atom('null');
          case 'object':
            return this.#object(schema, scope);
          case 'array':
            return this.#array(schema, scope);
          default:
            return UNKNOWN;
        }
      }),
    );
  }

  #object(schema: SchemaObject, scope: Scope): TypeText {
    const inner = { ...scope, indent: `${scope.indent}  `, direct: new Set<string>() };
    const members = this.#members(schema, inner);
    return atom(`{\n${members}${scope.indent}}`);
  }

  /** The members of an object type: its properties (optional unless required) and an index signature. */
  #members(schema: SchemaObject, scope: Scope): string {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(
      Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
    );
    const lines: string[] = [];
    const memberTypes: TypeText[] = [];
    for (const [key, sub] of Object.entries(properties)) {
      const type = this.#type(sub, scope);
      memberTypes.push(type);
      lines.push(
        `${jsDoc(docOf(sub), scope.indent)}${scope.indent}${propertyKey(key)}${required.has(key) ? '' : '?'}: ${type.text};\n`,
      );
    }
    for (const key of required) {
      if (Object.hasOwn(properties, key)) continue;
      memberTypes.push(UNKNOWN);
      lines.push(`${scope.indent}${propertyKey(key)}: unknown;\n`);
    }
    // Extra keys: typed by additionalProperties / patternProperties; any value when it is `true`, or when the
    // object names no properties at all (`{ type: "object" }`); none when it is `false` or absent.
    const extra: TypeText[] = [];
    const additional = schema.additionalProperties;
    if (additional === true) extra.push(UNKNOWN);
    else if (isObject(additional)) extra.push(this.#type(additional, scope));
    if (isObject(schema.patternProperties))
      for (const sub of Object.values(schema.patternProperties)) extra.push(this.#type(sub, scope));
    if (extra.length === 0 && additional === undefined && lines.length === 0) extra.push(UNKNOWN);
    if (extra.length > 0) {
      // Every property must fit the index signature, so its type widens to theirs.
      const index = union([...extra, ...(union(extra).text === 'unknown' ? [] : memberTypes)]);
      lines.push(`${scope.indent}[key: string]: ${index.text};\n`);
    } else if (lines.length === 0) {
      lines.push(`${scope.indent}[key: string]: never;\n`);
    }
    return lines.join('');
  }

  #array(schema: SchemaObject, scope: Scope): TypeText {
    const inner = { ...scope, direct: new Set<string>() };
    // A tuple: prefixItems (2020-12, the rest from items) or an items array (draft-07, the rest from additionalItems).
    const prefix = Array.isArray(schema.prefixItems)
      ? { items: schema.prefixItems as unknown[], rest: schema.items }
      : Array.isArray(schema.items)
        ? { items: schema.items as unknown[], rest: schema.additionalItems }
        : undefined;
    if (prefix !== undefined) {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const elements = prefix.items.map((s, i) => {
        const t = this.#type(s, inner);
        return i < min ? t.text : `${t.prec === 2 ? t.text : `(${t.text})`}?`;
      });
      if (prefix.rest !== false) {
        const rest = prefix.rest === undefined ? UNKNOWN : this.#type(prefix.rest, inner);
        elements.push(`...${arrayOf(rest)}`);
      }
      return atom(`[${elements.join(', ')}]`);
    }
    if (schema.items === false) return atom('[]');
    const items = schema.items === undefined ? UNKNOWN : this.#type(schema.items, inner);
    return atom(arrayOf(items));
  }

  /** A `$ref` as the named type of what it points to (`#`, `#/$defs/…`, `#/definitions/…`, any local pointer). */
  #ref(ref: string, scope: Scope): TypeText {
    const pointer = pointerOf(ref);
    if (pointer === undefined) return UNKNOWN;
    if (pointer.length === 0) {
      if (scope.rootName === undefined || scope.direct.has(scope.rootName)) return UNKNOWN;
      return atom(scope.rootName);
    }
    let target: unknown = scope.root;
    for (const segment of pointer) {
      if (!isObject(target) && !Array.isArray(target)) return UNKNOWN;
      target = (target as Record<string, unknown>)[segment];
    }
    if (target === undefined) return UNKNOWN;
    const shared = pointer[0] === '$defs' || pointer[0] === 'definitions';
    const key = `${shared ? scope.rootKey : JSON.stringify(scope.root)}\u0000${pointer.join('\u0000')}`;
    const known = this.#named.get(key);
    if (known !== undefined) return scope.direct.has(known) ? UNKNOWN : atom(known);
    const name = this.#namer.take(pascalCase(pointer[pointer.length - 1]!, 'Def'));
    this.#named.set(key, name);
    const { text } = this.#declaration(
      name,
      target,
      {
        ...scope,
        indent: '',
        direct: new Set([...scope.direct, name]),
      },
      [],
    );
    this.#pending.push(text);
    return atom(name);
  }
}

/** `T[]`, parenthesized when T is a union or an intersection. */
const arrayOf = (t: TypeText): string => (t.prec === 2 ? `${t.text}[]` : `(${t.text})[]`);

/** Whether a schema is an object and nothing else: it can be an interface. */
function isPlainObject(schema: SchemaObject): boolean {
  const type = schema.type;
  const objectType =
    type === 'object' ||
    (type === undefined &&
      ('properties' in schema || 'additionalProperties' in schema || 'patternProperties' in schema));
  if (!objectType) return false;
  return !['$ref', 'const', 'enum', 'anyOf', 'oneOf', 'allOf'].some((k) => k in schema) && schema.nullable !== true;
}

/** Identifies a root by its definitions, so two roots that share them share the named types. */
function rootKeyOf(root: SchemaObject): string {
  return JSON.stringify({ $defs: root.$defs, definitions: root.definitions }) ?? '';
}
