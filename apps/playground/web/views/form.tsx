// A form generated from a JSON Schema (tool inputs, elicitation): fields, initial values, issue mapping.
import { useEffect, useState } from 'preact/hooks';
import { isObject, type Issue, type Obj } from '../api.js';

export type IssueMap = Record<string, string[]>;

interface Option {
  value: unknown;
  label: string;
}

/** `Object.entries` of a schema keyword that should be an object (missing → none). */
const entriesOf = (v: unknown): [string, unknown][] => Object.entries(v ?? {});

/** A schema keyword as a DOM attribute value (the DOM would stringify it anyway). */
const attr = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));

/** A schema keyword as a numeric DOM property (the DOM would convert it anyway). */
const numAttr = (v: unknown): number | undefined => (v === undefined || v === null ? undefined : Number(v));

/** Resolve a local `$ref` (`#/...`) against the root schema; bounded depth. */
function deref(schema: unknown, root: Obj, depth = 0): Obj {
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

function typeOf(s: Obj): string | undefined {
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

function optionsOf(s: Obj): Option[] | undefined {
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

function isPrimitiveType(t: string | undefined): boolean {
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

interface FormProps {
  schema: Obj;
  value: unknown;
  onChange: (v: unknown) => void;
  issues?: IssueMap;
  idPrefix?: string;
}

/** The whole form for an object schema. */
export function SchemaForm({ schema, value, onChange, issues = {}, idPrefix = 'field-' }: FormProps) {
  const s = deref(schema, schema);
  const props = entriesOf(s.properties);
  if (!props.length) return <p class="muted">No arguments.</p>;
  return (
    <div class="schema-form">
      <ObjectFields
        schema={s}
        root={schema}
        value={value ?? {}}
        onChange={onChange}
        path=""
        issues={issues}
        idPrefix={idPrefix}
        depth={0}
      />
    </div>
  );
}

interface FieldCtx {
  root: Obj;
  path: string;
  issues: IssueMap;
  idPrefix: string;
  depth: number;
}

function ObjectFields(p: FieldCtx & { schema: Obj; value: unknown; onChange: (v: unknown) => void }) {
  const req: unknown[] = Array.isArray(p.schema.required) ? p.schema.required : [];
  const obj: Obj = isObject(p.value) && !Array.isArray(p.value) ? p.value : {};
  return (
    <>
      {entriesOf(p.schema.properties).map(([name, sub]) => (
        <Field
          key={name}
          name={name}
          schema={deref(sub, p.root)}
          required={req.includes(name)}
          value={obj[name]}
          onChange={(v) => {
            const next = { ...obj };
            if (v === undefined) delete next[name];
            else next[name] = v;
            p.onChange(next);
          }}
          root={p.root}
          path={p.path ? `${p.path}.${name}` : name}
          issues={p.issues}
          idPrefix={p.idPrefix}
          depth={p.depth + 1}
        />
      ))}
    </>
  );
}

function Issues({ list }: { list?: string[] }) {
  if (!list?.length) return null;
  return (
    <ul class="field-issues" role="alert">
      {list.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}

function Label({
  name,
  schema,
  required,
  htmlFor,
}: {
  name: string;
  schema: Obj;
  required: boolean;
  htmlFor?: string;
}) {
  return (
    <label class="field-label" for={htmlFor}>
      <span>{schema.title ?? name}</span>
      {required && (
        <span class="required" title="required" aria-label="required">
          *
        </span>
      )}
      {schema.format && <span class="hint">{schema.format}</span>}
    </label>
  );
}

function Field(
  p: FieldCtx & { name: string; schema: Obj; required: boolean; value: unknown; onChange: (v: unknown) => void },
) {
  const { schema, path } = p;
  const id = `${p.idPrefix}${path}`;
  const domId = `f-${id}`;
  const list = p.issues[path];
  const cls = `field${list?.length ? ' invalid' : ''}`;
  const desc = schema.description ? <div class="desc">{schema.description}</div> : null;
  const opts = optionsOf(schema);
  const t = typeOf(schema);

  if (t === 'object' && !opts) {
    return (
      <fieldset class={cls} data-testid={`${id}-fieldset`}>
        <legend>
          {schema.title ?? p.name}
          {p.required && <span class="required"> *</span>}
        </legend>
        {desc}
        <Issues list={list} />
        {p.depth > 6 ? (
          <JsonField id={id} value={p.value} onChange={p.onChange} />
        ) : (
          <ObjectFields {...p} schema={schema} value={p.value ?? {}} />
        )}
      </fieldset>
    );
  }

  let control;
  if (opts) {
    const idx = opts.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(p.value));
    control = (
      <select
        id={domId}
        data-testid={id}
        value={idx < 0 ? '' : String(idx)}
        onChange={(e) => {
          const v = (e.currentTarget as HTMLSelectElement).value;
          p.onChange(v === '' ? undefined : opts[Number(v)]!.value);
        }}
      >
        <option value="">{p.required ? '— choose —' : '(none)'}</option>
        {opts.map((o, i) => (
          <option key={i} value={String(i)}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else if (t === 'boolean') {
    control = (
      <input
        id={domId}
        type="checkbox"
        data-testid={id}
        checked={p.value === true}
        onChange={(e) => p.onChange((e.currentTarget as HTMLInputElement).checked)}
      />
    );
  } else if (t === 'number' || t === 'integer') {
    control = (
      <input
        id={domId}
        type="number"
        data-testid={id}
        min={attr(schema.minimum ?? schema.exclusiveMinimum)}
        max={attr(schema.maximum ?? schema.exclusiveMaximum)}
        step={t === 'integer' ? 1 : (attr(schema.multipleOf) ?? 'any')}
        placeholder={rangeHint(schema)}
        value={p.value === undefined || p.value === null ? '' : String(p.value)}
        onInput={(e) => {
          const raw = (e.currentTarget as HTMLInputElement).value;
          if (raw.trim() === '') return p.onChange(undefined);
          const n = Number(raw);
          p.onChange(Number.isNaN(n) ? raw : n);
        }}
      />
    );
  } else if (t === 'string') {
    control = <StringInput id={id} domId={domId} schema={schema} value={p.value} onChange={p.onChange} />;
  } else if (t === 'array') {
    const items = deref(schema.items, p.root);
    const itemOpts = optionsOf(items);
    if (itemOpts) {
      const chosen: unknown[] = Array.isArray(p.value) ? p.value : [];
      control = (
        <select
          id={domId}
          multiple
          data-testid={id}
          size={Math.min(6, itemOpts.length)}
          onChange={(e) => {
            const sel = Array.from((e.currentTarget as HTMLSelectElement).selectedOptions).map(
              (o) => itemOpts[Number(o.value)]!.value,
            );
            p.onChange(sel.length || p.required ? sel : undefined);
          }}
        >
          {itemOpts.map((o, i) => (
            <option
              key={i}
              value={String(i)}
              selected={chosen.some((c) => JSON.stringify(c) === JSON.stringify(o.value))}
            >
              {o.label}
            </option>
          ))}
        </select>
      );
    } else if (isPrimitiveType(typeOf(items))) {
      control = <ArrayRows {...p} id={id} items={items} />;
    } else {
      control = <JsonField id={id} value={p.value} onChange={p.onChange} />;
    }
  } else {
    control = <JsonField id={id} value={p.value} onChange={p.onChange} />;
  }

  return (
    <div class={cls}>
      <Label name={p.name} schema={schema} required={p.required} htmlFor={domId} />
      {control}
      {desc}
      <Issues list={list} />
    </div>
  );
}

function rangeHint(s: Obj): string | undefined {
  const lo = s.minimum ?? s.exclusiveMinimum;
  const hi = s.maximum ?? s.exclusiveMaximum;
  if (lo === undefined && hi === undefined) return undefined;
  return `${lo ?? '−∞'} … ${hi ?? '∞'}`;
}

const FORMAT_INPUT: Record<string, string> = { email: 'email', uri: 'url', url: 'url', date: 'date', time: 'time' };

function StringInput(p: { id: string; domId: string; schema: Obj; value: unknown; onChange: (v: unknown) => void }) {
  const s = p.schema;
  const firstExample: unknown = Array.isArray(s.examples) ? s.examples[0] : undefined;
  const common = {
    id: p.domId,
    'data-testid': p.id,
    minLength: numAttr(s.minLength),
    maxLength: numAttr(s.maxLength),
    placeholder: s.format === 'date-time' ? 'YYYY-MM-DDThh:mm:ssZ' : attr(s.pattern ?? firstExample),
    value: p.value === undefined || p.value === null ? '' : String(p.value),
    onInput: (e: Event) => {
      const v = (e.currentTarget as HTMLInputElement).value;
      p.onChange(v === '' ? undefined : v);
    },
  };
  if (Number(s.maxLength ?? 0) > 200 || s.contentMediaType || s['x-multiline'])
    return <textarea rows={4} {...common} />;
  return <input type={(typeof s.format === 'string' ? FORMAT_INPUT[s.format] : undefined) ?? 'text'} {...common} />;
}

function ArrayRows(
  p: FieldCtx & {
    id: string;
    name: string;
    items: Obj;
    required: boolean;
    value: unknown;
    onChange: (v: unknown) => void;
  },
) {
  const arr: unknown[] = Array.isArray(p.value) ? p.value : [];
  const set = (next: unknown[]) => p.onChange(next.length || p.required ? next : undefined);
  return (
    <div class="array-rows" data-testid={`${p.id}-rows`}>
      {arr.map((v, i) => (
        <div class="array-row" key={i}>
          <Field
            {...p}
            name={`${p.name}[${i}]`}
            schema={p.items}
            required={false}
            value={v}
            path={`${p.path}.${i}`}
            onChange={(nv) => {
              const next = arr.slice();
              next[i] = nv;
              set(next);
            }}
          />
          <button
            type="button"
            class="small"
            data-testid={`${p.id}.${i}-remove`}
            onClick={() => set(arr.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        class="small"
        data-testid={`${p.id}-add`}
        onClick={() => set([...arr, typeOf(p.items) === 'boolean' ? false : undefined])}
      >
        Add item
      </button>
    </div>
  );
}

/** A field the form cannot express: edit its JSON directly. */
function JsonField({ id, value, onChange }: { id: string; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value, null, 2));
  const [bad, setBad] = useState(false);
  useEffect(() => {
    let same = false;
    try {
      same = text.trim() === '' ? value === undefined : JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
    } catch {
      same = false;
    }
    if (!same && !bad) setText(value === undefined ? '' : JSON.stringify(value, null, 2));
  }, [value]);
  return (
    <div>
      <textarea
        data-testid={id}
        class={`json${bad ? ' invalid' : ''}`}
        rows={3}
        placeholder="JSON"
        value={text}
        onInput={(e) => {
          const t = (e.currentTarget as HTMLTextAreaElement).value;
          setText(t);
          if (t.trim() === '') {
            setBad(false);
            return onChange(undefined);
          }
          try {
            onChange(JSON.parse(t));
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
      />
      {bad && <div class="field-issues">not valid JSON</div>}
    </div>
  );
}
