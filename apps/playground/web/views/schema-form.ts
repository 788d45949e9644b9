// A form from a JSON Schema, decided without a DOM: $ref resolution, field kinds, initial values, issues by path.
import type { Issue } from '../../contract/api.js';
import { isObject, type Obj } from '../json.js';

export type IssueMap = Record<string, string[]>;

export interface Option {
  value: unknown;
  label: string;
}

/** `Object.entries` of a schema keyword that should be an object (missing → none). */
export const entriesOf = (v: unknown): [string, unknown][] => Object.entries(v ?? {});

/** A schema keyword as a DOM attribute value (the DOM would stringify it anyway). */
export const attr = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));

/** A schema keyword as a numeric DOM property (the DOM would convert it anyway). */
export const numAttr = (v: unknown): number | undefined => (v === undefined || v === null ? undefined : Number(v));

/** Resolve a local `$ref` (`#/...`) against the root schema; bounded depth. */
export function deref(schema: unknown, root: Obj, depth = 0): Obj {
  let s: Obj = isObject(schema) ? schema : {};
  for (let i = 0; i < 8 && typeof s.$ref === 'string' && s.$ref.startsWith('#'); i++) {
    let target: unknown = root;
    for (const part of s.$ref.slice(1).split('/').filter(Boolean)) {
      target = isObject(target) ? target[decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~'))] : undefined;
    }
    if (!target || typeof target !== 'object' || depth > 8) break;
    const { $ref: _r, ...rest } = s;
    s = { ...target, ...rest };
  }
  return s;
}

export function typeOf(s: Obj): string | undefined {
  if (Array.isArray(s.type)) {
    const types: unknown[] = s.type;
    const t = types.find((x) => x !== 'null');
    return typeof t === 'string' ? t : undefined;
  }
  if (typeof s.type === 'string') return s.type;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
}

export function optionsOf(s: Obj): Option[] | undefined {
  if (Array.isArray(s.enum)) {
    const values: unknown[] = s.enum;
    const names: unknown[] = Array.isArray(s.enumNames) ? s.enumNames : [];
    // A string reads as itself ("blue" was shown with its JSON quotes); other values as JSON.
    return values.map((v, i) => ({
      value: v,
      label: String(names[i] ?? (typeof v === 'string' ? v : JSON.stringify(v))),
    }));
  }
  for (const key of ['oneOf', 'anyOf']) {
    const alts: unknown = s[key];
    if (!Array.isArray(alts)) continue;
    const list: unknown[] = alts;
    if (list.length && list.every((a): a is Obj => isObject(a) && 'const' in a)) {
      return list.map((a) => ({
        value: a.const,
        label: String(a.title ?? (typeof a.const === 'string' ? a.const : JSON.stringify(a.const))),
      }));
    }
  }
  return undefined;
}

export function isPrimitiveType(t: string | undefined): boolean {
  return t === 'string' || t === 'number' || t === 'integer' || t === 'boolean';
}

/** The value a fresh form starts with: defaults, and required nested objects. */
export function initialValue(schema: unknown, root: Obj = isObject(schema) ? schema : {}, depth = 0): unknown {
  const s = deref(schema, root);
  if (s.default !== undefined) return structuredClone(s.default);
  if (depth > 6) return undefined;
  if (typeOf(s) === 'object' || depth === 0) {
    const out: Obj = {};
    const req: unknown[] = Array.isArray(s.required) ? s.required : [];
    for (const [k, sub] of entriesOf(s.properties)) {
      const d = deref(sub, root);
      if (d.default !== undefined) out[k] = structuredClone(d.default);
      else if (typeOf(d) === 'object' && req.includes(k)) out[k] = initialValue(d, root, depth + 1);
      else if (typeOf(d) === 'boolean' && req.includes(k)) out[k] = false;
    }
    return out;
  }
  return undefined;
}

/** Map validator issues to form paths (`a.b.0`); `required` goes to the missing property. */
export function issuesByPath(issues: Issue[]): IssueMap {
  const out: IssueMap = {};
  for (const i of issues) {
    let path = (i.instancePath ?? '')
      .split('/')
      .filter(Boolean)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
    if (i.keyword === 'required') {
      const m = /property\s+["']?([^"']+)["']?/.exec(i.message);
      if (m) path = path ? `${path}.${m[1]}` : m[1]!;
    }
    (out[path] ??= []).push(i.message);
  }
  return out;
}

/** Whether the schema can be edited fully by the form (else the raw editor is suggested). */
export function formCanExpress(schema: unknown, root: Obj = isObject(schema) ? schema : {}, depth = 0): boolean {
  const s = deref(schema, root);
  if (depth > 6) return false;
  if (optionsOf(s)) return true;
  const t = typeOf(s);
  if (isPrimitiveType(t)) return true;
  if (t === 'object') {
    if (s.additionalProperties && typeof s.additionalProperties === 'object') return false;
    return entriesOf(s.properties).every(([, p]) => formCanExpress(p, root, depth + 1));
  }
  if (t === 'array') {
    const items = deref(s.items, root);
    return !!optionsOf(items) || isPrimitiveType(typeOf(items));
  }
  return false;
}

export function rangeHint(s: Obj): string | undefined {
  const lo = s.minimum ?? s.exclusiveMinimum;
  const hi = s.maximum ?? s.exclusiveMaximum;
  if (lo === undefined && hi === undefined) return undefined;
  return `${lo ?? '−∞'} … ${hi ?? '∞'}`;
}

const FORMAT_INPUT: Record<string, string> = { email: 'email', uri: 'url', url: 'url', date: 'date', time: 'time' };

/**
 * The control a field gets: a fieldset of fields, a select (enum or const alternatives), a checkbox, a number or
 * string input, a multi-select or rows for an array of simple items, else a JSON editor.
 */
export type FieldKind =
  'fieldset' | 'select' | 'checkbox' | 'number' | 'string' | 'multiselect' | 'array-rows' | 'json';

export function fieldKind(schema: Obj, root: Obj): FieldKind {
  const opts = optionsOf(schema);
  const t = typeOf(schema);
  if (t === 'object' && !opts) return 'fieldset';
  if (opts) return 'select';
  if (t === 'boolean') return 'checkbox';
  if (t === 'number' || t === 'integer') return 'number';
  if (t === 'string') return 'string';
  if (t === 'array') {
    const items = deref(schema.items, root);
    if (optionsOf(items)) return 'multiselect';
    if (isPrimitiveType(typeOf(items))) return 'array-rows';
  }
  return 'json';
}

/** What a string field is: a textarea for long or media text, else an input of the type its format hints at. */
export function stringControl(s: Obj): { multiline: boolean; type: string; placeholder: string | undefined } {
  const firstExample: unknown = Array.isArray(s.examples) ? s.examples[0] : undefined;
  const placeholder = s.format === 'date-time' ? 'YYYY-MM-DDThh:mm:ssZ' : attr(s.pattern ?? firstExample);
  const multiline = Number(s.maxLength ?? 0) > 200 || !!s.contentMediaType || !!s['x-multiline'];
  const type = (typeof s.format === 'string' ? FORMAT_INPUT[s.format] : undefined) ?? 'text';
  return { multiline, type, placeholder };
}

/** A number input's text as a value: empty is none, a number is itself, anything else stays text (for the check). */
export function numberFromInput(raw: string): number | string | undefined {
  if (raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isNaN(n) ? raw : n;
}
