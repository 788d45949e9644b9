// Prompts view: list prompts, fill arguments with server completions, get the prompt and render its messages.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, isObject, type Prompt, type ServerView } from '../api.js';
import { ContentBlock } from './content.js';
import { useServerList } from './hooks.js';

export function PromptsView({ server }: { server: ServerView | undefined }) {
  const prompts = useServerList(server, api.prompts, 'notifications/prompts/list_changed');
  const [name, setName] = useState<string>();
  useEffect(() => setName(undefined), [server?.id]);
  const prompt = prompts.data?.find((p) => p.name === name);
  return (
    <div data-testid="prompts-view" class="split">
      <aside class="sidebar">
        <div class="sidebar-head">
          <strong>Prompts</strong>
          <button type="button" class="small" onClick={prompts.reload}>
            Refresh
          </button>
        </div>
        {!server && <p class="muted">Select a server.</p>}
        {prompts.error && <p class="error">{prompts.error}</p>}
        <ul class="items">
          {prompts.data?.map((p) => (
            <li
              key={p.name}
              data-testid={`prompt-item-${p.name}`}
              class={p.name === name ? 'selected' : ''}
              onClick={() => setName(p.name)}
            >
              <strong>{p.title ?? p.name}</strong>
              {p.description && <div class="desc clamp">{p.description}</div>}
            </li>
          ))}
        </ul>
      </aside>
      <div class="detail">
        {prompt && server ? (
          <PromptPanel key={`${server.id}/${prompt.name}`} server={server} prompt={prompt} />
        ) : (
          <p class="muted">Pick a prompt.</p>
        )}
      </div>
    </div>
  );
}

/** Normalise a completion answer: `{ completion: { values } }` or `{ values }`. */
function valuesOf(c: unknown): { values: string[]; total?: number; hasMore?: boolean } {
  const inner: unknown = (isObject(c) ? c.completion : undefined) ?? c;
  const x = isObject(inner) ? inner : {};
  return {
    values: Array.isArray(x.values) ? x.values.map(String) : [],
    total: typeof x.total === 'number' ? x.total : undefined,
    hasMore: !!x.hasMore,
  };
}

function PromptPanel({ server, prompt }: { server: ServerView; prompt: Prompt }) {
  const [args, setArgs] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Awaited<ReturnType<typeof api.prompt>>>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState<string[]>([]);

  const run = async (e: Event) => {
    e.preventDefault();
    const miss = (prompt.arguments ?? []).filter((a) => a.required && !args[a.name]).map((a) => a.name);
    setMissing(miss);
    if (miss.length) return;
    setBusy(true);
    setError(undefined);
    try {
      const clean = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== ''));
      setResult(await api.prompt(server.id, prompt.name, clean));
    } catch (err) {
      setResult(undefined);
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <h2>{prompt.title ?? prompt.name}</h2>
      {prompt.description && <p class="desc">{prompt.description}</p>}
      <form onSubmit={run} data-testid="prompt-form">
        {(prompt.arguments ?? []).map((a) => (
          <CompletingInput
            key={a.name}
            server={server}
            prompt={prompt}
            arg={a}
            value={args[a.name] ?? ''}
            others={args}
            invalid={missing.includes(a.name)}
            onChange={(v) => setArgs((o) => ({ ...o, [a.name]: v }))}
          />
        ))}
        {!prompt.arguments?.length && <p class="muted">No arguments.</p>}
        <div class="buttons">
          <button type="submit" data-testid="prompt-run" disabled={busy}>
            Get prompt
          </button>
        </div>
      </form>
      {error && (
        <div class="result error-result" data-testid="prompt-result" data-error="true">
          {error}
        </div>
      )}
      {result && (
        <div class="result" data-testid="prompt-result">
          {result.description && <p class="desc">{result.description}</p>}
          {result.messages.map((m, i) => (
            <div key={i} class={`message role-${m.role}`}>
              <div class="role">{m.role}</div>
              <ContentBlock c={m.content} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function CompletingInput(p: {
  server: ServerView;
  prompt: Prompt;
  arg: { name: string; description?: string; required?: boolean };
  value: string;
  others: Record<string, string>;
  invalid: boolean;
  onChange: (v: string) => void;
}) {
  const [options, setOptions] = useState<{ values: string[]; total?: number; hasMore?: boolean }>({ values: [] });
  const seq = useRef(0);
  const canComplete = !!p.server.capabilities?.completions;
  const listId = `complete-${p.prompt.name}-${p.arg.name}`;

  const complete = (value: string) => {
    if (!canComplete) return;
    const mine = ++seq.current;
    const others = Object.fromEntries(Object.entries(p.others).filter(([k, v]) => k !== p.arg.name && v));
    api
      .complete(
        p.server.id,
        { type: 'ref/prompt', name: p.prompt.name },
        { name: p.arg.name, value },
        Object.keys(others).length ? { arguments: others } : undefined,
      )
      .then((c) => mine === seq.current && setOptions(valuesOf(c)))
      .catch(() => mine === seq.current && setOptions({ values: [] }));
  };

  return (
    <div class={`field${p.invalid ? ' invalid' : ''}`}>
      <label class="field-label" for={`pf-${listId}`}>
        <span>{p.arg.name}</span>
        {p.arg.required && <span class="required"> *</span>}
      </label>
      <input
        id={`pf-${listId}`}
        data-testid={`prompt-field-${p.arg.name}`}
        list={listId}
        autocomplete="off"
        value={p.value}
        onFocus={() => complete(p.value)}
        onInput={(e) => {
          const v = (e.currentTarget as HTMLInputElement).value;
          p.onChange(v);
          complete(v);
        }}
      />
      <datalist id={listId}>
        {options.values.map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      {options.values.length > 0 && (
        <div class="completions" data-testid={`prompt-completions-${p.arg.name}`}>
          {options.values.slice(0, 12).map((v) => (
            <button key={v} type="button" class="chip" onClick={() => p.onChange(v)}>
              {v}
            </button>
          ))}
          {options.hasMore && <span class="muted"> …{options.total ? ` of ${options.total}` : ''}</span>}
        </div>
      )}
      {p.arg.description && <div class="desc">{p.arg.description}</div>}
      {p.invalid && <div class="field-issues">required</div>}
    </div>
  );
}
