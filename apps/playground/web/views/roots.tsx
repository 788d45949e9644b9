// Roots view: the file:// roots the playground offers every server (roots/list), edited and saved at once for all.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type RootView as Root } from '../api.js';
import { useEvent } from './hooks.js';

interface Row {
  uri: string;
  name: string;
}

export function RootsView() {
  const [rows, setRows] = useState<Row[]>([]);
  const [saved, setSaved] = useState<Root[]>([]);
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();

  const show = (roots: Root[]) => {
    setSaved(roots);
    setRows(roots.map((r) => ({ uri: r.uri, name: r.name ?? '' })));
  };
  useEffect(() => {
    api
      .roots()
      .then(show)
      .catch((e) => setError(errorText(e)));
  }, []);
  useEvent('roots', (e) => setSaved(e.roots));

  const set = (i: number, patch: Partial<Row>) => setRows((rs) => rs.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  const save = async () => {
    setError(undefined);
    setNote(undefined);
    try {
      const roots = rows
        .filter((r) => r.uri.trim() !== '')
        .map((r) => ({ uri: r.uri.trim(), ...(r.name.trim() && { name: r.name.trim() }) }));
      show(await api.setRoots(roots));
      setNote(`${roots.length} root${roots.length === 1 ? '' : 's'} offered; servers that declared roots were told`);
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <div data-testid="roots-view" class="roots">
      <p class="muted">
        Roots tell servers which directories they may work in. Every server is offered the same list; a server that asks
        (roots/list) gets it, and is told when it changes.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <ul class="root-rows">
          {rows.map((r, i) => (
            <li key={i} data-testid="root-row">
              <input
                data-testid={`root-uri-${i}`}
                class="mono"
                placeholder="file:///path/to/project"
                value={r.uri}
                onInput={(e) => set(i, { uri: (e.currentTarget as HTMLInputElement).value })}
              />
              <input
                data-testid={`root-name-${i}`}
                placeholder="name (optional)"
                value={r.name}
                onInput={(e) => set(i, { name: (e.currentTarget as HTMLInputElement).value })}
              />
              <button
                type="button"
                class="small"
                data-testid={`root-remove-${i}`}
                onClick={() => setRows((rs) => rs.filter((_, k) => k !== i))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
        <div class="actions">
          <button
            type="button"
            class="small"
            data-testid="root-add"
            onClick={() => setRows((rs) => [...rs, { uri: 'file:///', name: '' }])}
          >
            Add a root
          </button>
          <button type="submit" data-testid="roots-save">
            Save
          </button>
        </div>
      </form>
      {error && (
        <p class="error" role="alert" data-testid="roots-error">
          {error}
        </p>
      )}
      {note && (
        <p class="muted" data-testid="roots-note">
          {note}
        </p>
      )}
      <p class="muted" data-testid="roots-saved">
        Offered now: {saved.length === 0 ? 'none' : saved.map((r) => r.name ?? r.uri).join(', ')}
      </p>
    </div>
  );
}
