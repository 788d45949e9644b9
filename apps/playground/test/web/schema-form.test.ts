// The form a JSON Schema makes (web/views/schema-form.ts), without a DOM: fields, initial values, issues by path.
import { describe, expect, it } from 'vitest';
import {
  fieldKind,
  formCanExpress,
  initialValue,
  issuesByPath,
  numberFromInput,
  optionsOf,
  rangeHint,
  stringControl,
} from '../../web/views/schema-form.js';

describe('fieldKind', () => {
  const root = { $defs: { color: { enum: ['red', 'green'] } } };
  it.each([
    [{ type: 'object', properties: {} }, 'fieldset'],
    [{ type: 'string', enum: ['a', 'b'] }, 'select'],
    [{ oneOf: [{ const: 1, title: 'one' }, { const: 2 }] }, 'select'],
    [{ type: 'boolean' }, 'checkbox'],
    [{ type: 'integer' }, 'number'],
    [{ type: ['number', 'null'] }, 'number'],
    [{ type: 'string', format: 'email' }, 'string'],
    [{ type: 'array', items: { $ref: '#/$defs/color' } }, 'multiselect'],
    [{ type: 'array', items: { type: 'string' } }, 'array-rows'],
    [{ type: 'array', items: { type: 'object' } }, 'json'],
    [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, 'json'],
  ] as const)('%j → %s', (schema, kind) => {
    expect(fieldKind(schema, root)).toBe(kind);
  });
});

describe('optionsOf', () => {
  it('labels enum values by enumNames, strings as themselves, others as JSON', () => {
    expect(optionsOf({ enum: ['blue', 2, null], enumNames: ['Blue'] })).toEqual([
      { value: 'blue', label: 'Blue' },
      { value: 2, label: '2' },
      { value: null, label: 'null' },
    ]);
  });

  it('takes const alternatives with their titles, and nothing when an alternative has no const', () => {
    expect(optionsOf({ anyOf: [{ const: 'x', title: 'Ex' }, { const: 'y' }] })).toEqual([
      { value: 'x', label: 'Ex' },
      { value: 'y', label: 'y' },
    ]);
    expect(optionsOf({ anyOf: [{ const: 'x' }, { type: 'string' }] })).toBeUndefined();
  });
});

describe('initialValue', () => {
  it('starts from defaults, required nested objects and required booleans (false)', () => {
    const schema = {
      type: 'object',
      required: ['inner', 'flag'],
      properties: {
        name: { type: 'string', default: 'Ada' },
        flag: { type: 'boolean' },
        optional: { type: 'boolean' },
        inner: { $ref: '#/$defs/inner' },
      },
      $defs: { inner: { type: 'object', properties: { n: { type: 'number', default: 3 } } } },
    };
    expect(initialValue(schema)).toEqual({ name: 'Ada', flag: false, inner: { n: 3 } });
  });

  it('copies a default (editing the form never changes the schema)', () => {
    const schema = { type: 'object', properties: { list: { type: 'array', default: [1] } } };
    const value = initialValue(schema) as { list: number[] };
    value.list.push(2);
    expect(schema.properties.list.default).toEqual([1]);
  });
});

describe('formCanExpress', () => {
  it('is true for fields the form has controls for, false for open-ended objects and arrays of objects', () => {
    expect(formCanExpress({ type: 'object', properties: { a: { type: 'string' }, b: { enum: [1] } } })).toBe(true);
    expect(formCanExpress({ type: 'object', additionalProperties: { type: 'string' } })).toBe(false);
    expect(formCanExpress({ type: 'object', properties: { a: { type: 'array', items: { type: 'object' } } } })).toBe(
      false,
    );
  });

  it('stops at a self-referencing schema', () => {
    const schema = { type: 'object', properties: { next: { $ref: '#' } } };
    expect(formCanExpress(schema)).toBe(false);
  });
});

describe('issuesByPath', () => {
  it('maps validator issues to field paths, a missing property to the property itself', () => {
    const issue = (instancePath: string, keyword: string, message: string) => ({
      instancePath,
      keyword,
      message,
      schemaPath: '',
    });
    expect(
      issuesByPath([
        issue('/a/0', 'type', 'must be number'),
        issue('/in', 'required', "must have required property 'name'"),
        issue('', 'required', 'must have required property "top"'),
        issue('/a~1b', 'minLength', 'too short'),
      ]),
    ).toEqual({
      'a.0': ['must be number'],
      'in.name': ["must have required property 'name'"],
      top: ['must have required property "top"'],
      'a/b': ['too short'],
    });
  });
});

describe('controls', () => {
  it('makes a string field a textarea when long or media, else an input typed by its format', () => {
    expect(stringControl({ type: 'string', format: 'email' })).toEqual({
      multiline: false,
      type: 'email',
      placeholder: undefined,
    });
    expect(stringControl({ maxLength: 1000 }).multiline).toBe(true);
    expect(stringControl({ format: 'date-time' }).placeholder).toBe('YYYY-MM-DDThh:mm:ssZ');
    expect(stringControl({ examples: ['e.g. this'] }).placeholder).toBe('e.g. this');
  });

  it('reads a number input: empty is none, text that is no number stays text for the check to report', () => {
    expect(numberFromInput(' ')).toBeUndefined();
    expect(numberFromInput('4.5')).toBe(4.5);
    expect(numberFromInput('4x')).toBe('4x');
    expect(rangeHint({ minimum: 0 })).toBe('0 … ∞');
    expect(rangeHint({})).toBeUndefined();
  });
});
