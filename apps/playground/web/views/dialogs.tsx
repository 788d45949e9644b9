// Modal dialogs for server-initiated requests: elicitation (form and URL mode) and sampling.
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  api,
  errorText,
  isObject,
  type ContentBlock as Content,
  type DialogReply,
  type ElicitationRequest,
  type Issue,
  type Obj,
  type SamplingRequest,
  type ServerView,
} from '../api.js';
import { ContentBlock } from './content.js';
import { initialValue, issuesByPath, SchemaForm } from './form.js';

/** A dialog the page shows: the request of an `elicitation` or `sampling` event. */
export type Dialog =
  | { kind: 'elicitation'; dialogId: string; serverId: string; request: ElicitationRequest }
  | { kind: 'sampling'; dialogId: string; serverId: string; request: SamplingRequest };

/** The request's params, whether the event carries the params or the whole JSON-RPC request. */
function paramsOf(request: ElicitationRequest | SamplingRequest): Obj {
  const r: unknown = request;
  if (!isObject(r)) return {};
  return isObject(r.params) && typeof r.method === 'string' ? r.params : r;
}

export function Dialogs(p: { dialogs: Dialog[]; servers: ServerView[]; onDone: (id: string) => void }) {
  const d = p.dialogs[0];
  if (!d) return null;
  const server = p.servers.find((s) => s.id === d.serverId);
  return (
    <div class="overlay" role="presentation">
      <div class="modal" role="dialog" aria-modal="true" aria-labelledby={`dlg-${d.dialogId}`}>
        {p.dialogs.length > 1 && <div class="muted">{p.dialogs.length - 1} more waiting</div>}
        {d.kind === 'elicitation' ? (
          <Elicitation key={d.dialogId} d={d} server={server} onDone={() => p.onDone(d.dialogId)} />
        ) : (
          <Sampling key={d.dialogId} d={d} server={server} onDone={() => p.onDone(d.dialogId)} />
        )}
      </div>
    </div>
  );
}

function useAnswer(d: Dialog, onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const send = async (answer: DialogReply) => {
    setBusy(true);
    setError(undefined);
    try {
      await api.answerDialog(d.dialogId, answer);
      onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, send };
}

function Elicitation({ d, server, onDone }: { d: Dialog; server?: ServerView; onDone: () => void }) {
  const req = paramsOf(d.request);
  const url = req.mode === 'url' || typeof req.url === 'string';
  const schema: Obj = isObject(req.requestedSchema) ? req.requestedSchema : { type: 'object', properties: {} };
  const [value, setValue] = useState<unknown>(() => initialValue(schema));
  const [issues, setIssues] = useState<Issue[]>([]);
  const [opened, setOpened] = useState(false);
  const { busy, error, send } = useAnswer(d, onDone);
  const first = useRef<HTMLDivElement>(null);
  useEffect(() => {
    first.current?.querySelector<HTMLElement>('input,select,textarea,button')?.focus();
  }, []);

  const accept = async () => {
    if (url) return send({ action: 'accept' });
    try {
      const v = await api.validate(schema, value ?? {});
      if (!v.valid) return setIssues(v.issues);
    } catch {
      /* let the server judge */
    }
    setIssues([]);
    return send({ action: 'accept', content: isObject(value) ? value : {} });
  };

  return (
    <div
      data-testid="elicitation-dialog"
      data-mode={url ? 'url' : 'form'}
      ref={first}
      onKeyDown={(e) => e.key === 'Escape' && !busy && void send({ action: 'cancel' })}
    >
      <h2 id={`dlg-${d.dialogId}`}>{server?.name ?? d.serverId} asks for input</h2>
      {req.message && <p class="message-text">{String(req.message)}</p>}
      {url ? (
        <div class="url-mode" data-opened={String(opened)}>
          <code class="url" data-testid="elicitation-url">
            {String(req.url)}
          </code>
          <div class="muted">Opening happens in a new tab; the data you enter there never passes through here.</div>
          <button
            type="button"
            data-testid="elicitation-open"
            onClick={() => {
              const u = safeUrl(String(req.url));
              if (u) window.open(u, '_blank', 'noopener,noreferrer');
              setOpened(true);
            }}
          >
            Open
          </button>
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void accept();
          }}
        >
          <SchemaForm
            schema={schema}
            value={value}
            onChange={setValue}
            issues={issuesByPath(issues)}
            idPrefix="elicitation-field-"
          />
          <button type="submit" hidden />
        </form>
      )}
      {error && <p class="error">{error}</p>}
      <div class="buttons">
        <button type="button" data-testid="elicitation-accept" disabled={busy} onClick={() => void accept()}>
          {url ? 'Done' : 'Accept'}
        </button>
        <button
          type="button"
          class="secondary"
          data-testid="elicitation-decline"
          disabled={busy}
          onClick={() => void send({ action: 'decline' })}
        >
          Decline
        </button>
        <button
          type="button"
          class="secondary"
          data-testid="elicitation-cancel"
          disabled={busy}
          onClick={() => void send({ action: 'cancel' })}
        >
          Cancel
        </button>
      </div>
    </div>
  );
}

function safeUrl(u: string): string | undefined {
  try {
    const x = new URL(u);
    return x.protocol === 'https:' || x.protocol === 'http:' ? x.href : undefined;
  } catch {
    return undefined;
  }
}

function Sampling({ d, server, onDone }: { d: Dialog; server?: ServerView; onDone: () => void }) {
  const req = paramsOf(d.request);
  const messages: { role: string; content: Content | Content[] }[] = Array.isArray(req.messages) ? req.messages : [];
  const hints: unknown[] =
    isObject(req.modelPreferences) && Array.isArray(req.modelPreferences.hints) ? req.modelPreferences.hints : [];
  const [reply, setReply] = useState('');
  const { busy, error, send } = useAnswer(d, onDone);
  return (
    <div data-testid="sampling-dialog">
      <h2 id={`dlg-${d.dialogId}`}>{server?.name ?? d.serverId} asks for a completion</h2>
      {req.systemPrompt && (
        <details>
          <summary>System prompt</summary>
          <pre class="text">{String(req.systemPrompt)}</pre>
        </details>
      )}
      <div class="messages">
        {messages.map((m, i) => (
          <div key={i} class={`message role-${m.role}`}>
            <div class="role">{m.role}</div>
            {(Array.isArray(m.content) ? m.content : [m.content]).map((c, j) => (
              <ContentBlock key={j} c={c} />
            ))}
          </div>
        ))}
      </div>
      <div class="muted small-text">
        {req.maxTokens !== undefined && <>maxTokens {String(req.maxTokens)} · </>}
        {hints.length ? <>hints {hints.map((h) => (isObject(h) ? h.name : undefined)).join(', ')} · </> : null}
        {Array.isArray(req.tools) && req.tools.length ? <>tools {req.tools.length}</> : null}
      </div>
      <label class="field-label" for="sampling-reply">
        Your reply (sent as the model's text)
      </label>
      <textarea
        id="sampling-reply"
        data-testid="sampling-reply"
        rows={4}
        value={reply}
        onInput={(e) => setReply((e.currentTarget as HTMLTextAreaElement).value)}
      />
      {error && <p class="error">{error}</p>}
      <div class="buttons">
        <button
          type="button"
          data-testid="sampling-accept"
          disabled={busy}
          onClick={() => void send({ action: 'accept', text: reply })}
        >
          Send reply
        </button>
        <button
          type="button"
          class="danger"
          data-testid="sampling-reject"
          disabled={busy}
          onClick={() => void send({ action: 'reject' })}
        >
          Reject
        </button>
      </div>
    </div>
  );
}
