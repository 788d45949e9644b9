// An elicitation form from the requested schema: one field per property, how each is asked, how an answer is checked.
import type { ElicitationValue } from '@mcpc/client/types';
import { safe } from '../output.js';

/** One choice of an enum field: the value sent and the label shown. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

/** A form field, read from one property of the requested schema. */
export interface Field {
  readonly key: string;
  readonly title: string;
  readonly description: string | undefined;
  readonly required: boolean;
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi';
  readonly choices: readonly Choice[];
  readonly default: ElicitationValue | undefined;
  readonly format: string | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly pattern: string | undefined;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
}

type Json = { readonly [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The choices an enum schema offers: `enum` (with legacy `enumNames`), or `oneOf`/`anyOf` of `{const, title}`. */
function choicesOf(schema: Json): Choice[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      .map((v, i) => ({ value: String(v), label: str(names[i]) ?? String(v) }));
  }
  const list = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (list === undefined) return undefined;
  const choices = list
    .filter(isObject)
    .filter((o) => typeof o.const === 'string' || typeof o.const === 'number')
    .map((o) => ({ value: String(o.const), label: str(o.title) ?? String(o.const) }));
  return choices.length > 0 ? choices : undefined;
}

/** The fields of a requested schema, in its order (unknown kinds are asked as text). */
export function fieldsOf(schema: Json): Field[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const fields: Field[] = [];
  for (const [key, raw] of Object.entries(properties)) {
    const p = isObject(raw) ? raw : {};
    const type = Array.isArray(p.type) ? str(p.type.find((t) => t !== 'null')) : str(p.type);
    const items = isObject(p.items) ? p.items : undefined;
    const single = choicesOf(p);
    const multi = type === 'array' && items !== undefined ? choicesOf(items) : undefined;
    const kind: Field['kind'] =
      multi !== undefined
        ? 'multi'
        : single !== undefined
          ? 'enum'
          : type === 'number' || type === 'integer' || type === 'boolean'
            ? type
            : 'string';
    const d = p.default;
    const defaultValue: ElicitationValue | undefined =
      typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean'
        ? d
        : Array.isArray(d) && d.every((x) => typeof x === 'string')
          ? (d as string[])
          : undefined;
    fields.push({
      key,
      title: str(p.title) ?? key,
      description: str(p.description),
      required: required.has(key),
      kind,
      choices: multi ?? single ?? [],
      default: defaultValue,
      format: str(p.format),
      minLength: num(p.minLength),
      maxLength: num(p.maxLength),
      pattern: str(p.pattern),
      minimum: num(p.minimum),
      maximum: num(p.maximum),
      minItems: num(p.minItems),
      maxItems: num(p.maxItems),
    });
  }
  return fields;
}

/** A short hint of what the field takes: `(email)`, `(integer 1–100)`, `(y/n)`, `(numbers, e.g. 1,3)`. */
export function hintOf(field: Field): string {
  const range = (lo: number | undefined, hi: number | undefined): string =>
    lo !== undefined && hi !== undefined
      ? ` ${lo}–${hi}`
      : lo !== undefined
        ? ` ≥ ${lo}`
        : hi !== undefined
          ? ` ≤ ${hi}`
          : '';
  switch (field.kind) {
    case 'boolean':
      return 'y/n';
    case 'number':
    case 'integer':
      return `${field.kind}${range(field.minimum, field.maximum)}`;
    case 'enum':
      return `a number 1–${field.choices.length}`;
    case 'multi':
      return `numbers separated by commas${field.minItems !== undefined || field.maxItems !== undefined ? `,${range(field.minItems, field.maxItems)} of them` : ''}`;
    default: {
      const parts = [
        field.format,
        field.minLength !== undefined || field.maxLength !== undefined
          ? `length${range(field.minLength, field.maxLength)}`
          : undefined,
        field.pattern !== undefined ? `matching ${safe(field.pattern, 80)}` : undefined,
      ].filter((x) => x !== undefined);
      return parts.length > 0 ? parts.join(', ') : 'text';
    }
  }
}

/** The default as the user would type it (choice numbers for enums). */
export function defaultText(field: Field): string | undefined {
  const d = field.default;
  if (d === undefined) return undefined;
  if (field.kind === 'boolean') return d === true ? 'y' : 'n';
  if (field.kind === 'enum') {
    const i = field.choices.findIndex((c) => c.value === String(d));
    return i === -1 ? undefined : String(i + 1);
  }
  if (field.kind === 'multi' && Array.isArray(d)) {
    const numbers = d.map((v) => field.choices.findIndex((c) => c.value === v) + 1);
    return numbers.includes(0) ? undefined : numbers.join(',');
  }
  return String(d);
}

/** What the field's default means, for display (`Monica`, `Guitar, Piano`). */
export function defaultLabel(field: Field): string | undefined {
  const d = field.default;
  if (d === undefined) return undefined;
  const label = (v: string): string => field.choices.find((c) => c.value === v)?.label ?? v;
  if (field.kind === 'enum') return label(String(d));
  if (Array.isArray(d)) return d.map(label).join(', ');
  if (field.kind === 'boolean') return d === true ? 'yes' : 'no';
  return String(d);
}

/** An answer checked: the value to send, nothing (left empty, not required), or why it is refused. */
export type Checked =
  { readonly ok: true; readonly value: ElicitationValue | undefined } | { readonly ok: false; readonly why: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Checks one typed answer against its field (an empty answer takes the default, or is refused when required). */
export function checkAnswer(field: Field, typed: string): Checked {
  const text = typed.trim();
  if (text === '') {
    if (field.default !== undefined) return { ok: true, value: field.default };
    if (field.required) return { ok: false, why: 'this field is required' };
    return { ok: true, value: undefined };
  }
  switch (field.kind) {
    case 'boolean': {
      if (/^(y|yes|true|1)$/i.test(text)) return { ok: true, value: true };
      if (/^(n|no|false|0)$/i.test(text)) return { ok: true, value: false };
      return { ok: false, why: 'answer y or n' };
    }
    case 'number':
    case 'integer': {
      const value = Number(text);
      if (!Number.isFinite(value) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
        return { ok: false, why: `"${text}" is not a number` };
      if (field.kind === 'integer' && !Number.isInteger(value)) return { ok: false, why: 'a whole number, please' };
      if (field.minimum !== undefined && value < field.minimum) return { ok: false, why: `at least ${field.minimum}` };
      if (field.maximum !== undefined && value > field.maximum) return { ok: false, why: `at most ${field.maximum}` };
      return { ok: true, value };
    }
    case 'enum': {
      const choice = pick(field.choices, text);
      return choice === undefined
        ? { ok: false, why: `pick a number from 1 to ${field.choices.length}` }
        : { ok: true, value: choice.value };
    }
    case 'multi': {
      const parts = text
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '');
      const picked: string[] = [];
      for (const part of parts) {
        const choice = pick(field.choices, part);
        if (choice === undefined) return { ok: false, why: `"${part}" is not one of 1–${field.choices.length}` };
        if (!picked.includes(choice.value)) picked.push(choice.value);
      }
      if (field.minItems !== undefined && picked.length < field.minItems)
        return { ok: false, why: `pick at least ${field.minItems}` };
      if (field.maxItems !== undefined && picked.length > field.maxItems)
        return { ok: false, why: `pick at most ${field.maxItems}` };
      return { ok: true, value: picked };
    }
    default: {
      const value = typed;
      if (field.minLength !== undefined && value.length < field.minLength)
        return { ok: false, why: `at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return { ok: false, why: `at most ${field.maxLength} characters` };
      if (field.pattern !== undefined) {
        let re: RegExp | undefined;
        try {
          re = new RegExp(field.pattern, 'u');
        } catch {
          re = undefined; // a pattern we cannot read is the server's problem; it checks the answer itself
        }
        if (re !== undefined && !re.test(value)) return { ok: false, why: `must match ${safe(field.pattern, 80)}` };
      }
      switch (field.format) {
        case 'email':
          if (!EMAIL.test(text)) return { ok: false, why: 'an email address, like name@example.com' };
          return { ok: true, value: text };
        case 'uri':
          if (!URL.canParse(text)) return { ok: false, why: 'a full URI, like https://example.com/' };
          return { ok: true, value: text };
        case 'date':
          if (!validDate(text)) return { ok: false, why: 'a date as YYYY-MM-DD' };
          return { ok: true, value: text };
        case 'date-time':
          if (!DATE_TIME.test(text) || Number.isNaN(Date.parse(text)) || !validDate(text.slice(0, 10)))
            return { ok: false, why: 'a date and time as YYYY-MM-DDTHH:MM:SSZ (or with an offset)' };
          return { ok: true, value: text };
        default:
          return { ok: true, value };
      }
    }
  }
}

/** A choice by its number (1-based) or its exact value or label. */
function pick(choices: readonly Choice[], text: string): Choice | undefined {
  if (/^\d+$/.test(text)) return choices[Number(text) - 1];
  return choices.find((c) => c.value === text) ?? choices.find((c) => c.label.toLowerCase() === text.toLowerCase());
}

/** A value as shown back in the summary (labels for choices). */
export function valueLabel(field: Field, value: ElicitationValue): string {
  const label = (v: string): string => field.choices.find((c) => c.value === v)?.label ?? v;
  if (Array.isArray(value)) return value.map((v: string) => label(v)).join(', ');
  if (field.kind === 'enum') return label(String(value));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}
