// A form generated from a JSON Schema (tool inputs, elicitation): the fields as components (decided in schema-form.ts).
import { useEffect, useState } from 'preact/hooks';
import { isObject, type Obj } from '../api.js';
import {
  attr,
  deref,
  entriesOf,
  fieldKind,
  numAttr,
  numberFromInput,
  optionsOf,
  rangeHint,
  stringControl,
  typeOf,
  type IssueMap,
} from './schema-form.js';

export { formCanExpress, initialValue, issuesByPath, type IssueMap } from './schema-form.js';

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
  const kind = fieldKind(schema, p.root);

  if (kind === 'fieldset') {
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
  const opts = optionsOf(schema);
  if (kind === 'select' && opts) {
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
  } else if (kind === 'checkbox') {
    control = (
      <input
        id={domId}
        type="checkbox"
        data-testid={id}
        checked={p.value === true}
        onChange={(e) => p.onChange((e.currentTarget as HTMLInputElement).checked)}
      />
    );
  } else if (kind === 'number') {
    control = (
      <input
        id={domId}
        type="number"
        data-testid={id}
        min={attr(schema.minimum ?? schema.exclusiveMinimum)}
        max={attr(schema.maximum ?? schema.exclusiveMaximum)}
        step={typeOf(schema) === 'integer' ? 1 : (attr(schema.multipleOf) ?? 'any')}
        placeholder={rangeHint(schema)}
        value={p.value === undefined || p.value === null ? '' : String(p.value)}
        onInput={(e) => {
          p.onChange(numberFromInput((e.currentTarget as HTMLInputElement).value));
        }}
      />
    );
  } else if (kind === 'string') {
    control = <StringInput id={id} domId={domId} schema={schema} value={p.value} onChange={p.onChange} />;
  } else if (kind === 'multiselect' || kind === 'array-rows') {
    const items = deref(schema.items, p.root);
    const itemOpts = optionsOf(items);
    if (kind === 'multiselect' && itemOpts) {
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
    } else {
      control = <ArrayRows {...p} id={id} items={items} />;
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

function StringInput(p: { id: string; domId: string; schema: Obj; value: unknown; onChange: (v: unknown) => void }) {
  const s = p.schema;
  const shape = stringControl(s);
  const common = {
    id: p.domId,
    'data-testid': p.id,
    minLength: numAttr(s.minLength),
    maxLength: numAttr(s.maxLength),
    placeholder: shape.placeholder,
    value: p.value === undefined || p.value === null ? '' : String(p.value),
    onInput: (e: Event) => {
      const v = (e.currentTarget as HTMLInputElement).value;
      p.onChange(v === '' ? undefined : v);
    },
  };
  if (shape.multiline) return <textarea rows={4} {...common} />;
  return <input type={shape.type} {...common} />;
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
