// Skills view (SEP-2640): the listing, one entry, a load approved here and verified step by step, files, directories.
import { useEffect, useState } from 'preact/hooks';
import {
  api,
  errorText,
  type ServerView,
  type SkillDirectoryView,
  type SkillEntryView,
  type SkillRead,
  type SkillView,
} from '../api.js';
import { JsonView, Markdown } from './content.js';
import { useServerList } from './hooks.js';
import {
  allowedToolsText,
  childPath,
  crumbs,
  failedStep,
  fileState,
  formatSize,
  isMarkdownFile,
  manifestRows,
  mark,
  shortDigest,
  skillSummary,
  splitSkillMd,
} from './skills-logic.js';

export function SkillsView({ server }: { server: ServerView | undefined }) {
  const listing = useServerList(server, api.skills);
  const [uri, setUri] = useState<string>();
  useEffect(() => setUri(undefined), [server?.id]);
  const skills = listing.data?.skills ?? [];
  const picked = skills.find((s) => s.uri === uri);
  return (
    <div data-testid="skills-view" class="split">
      <aside class="sidebar">
        <div class="sidebar-head">
          <strong>Skills</strong>
          <button type="button" class="small" onClick={listing.reload}>
            Refresh
          </button>
        </div>
        {!server && <p class="muted">Select a server.</p>}
        {listing.error && <p class="error">{listing.error}</p>}
        {listing.data && !listing.data.declared && (
          <p class="muted" data-testid="skills-undeclared">
            This server did not declare the skills extension: nothing is asked of it.
          </p>
        )}
        {listing.data?.declared && skills.length === 0 && (
          <p class="muted">An empty listing (a skill may still be reachable by its URI).</p>
        )}
        <ul class="items">
          {skills.map((s) => (
            <SkillItem key={s.uri} skill={s} selected={s.uri === uri} onPick={() => setUri(s.uri)} />
          ))}
        </ul>
      </aside>
      <div class="detail">
        {server && picked ? (
          <SkillPanel
            key={`${server.id} ${picked.uri}`}
            server={server}
            uri={picked.uri}
            directoryRead={listing.data?.directoryRead === true}
          />
        ) : (
          <p class="muted">Pick a skill.</p>
        )}
      </div>
    </div>
  );
}

function SkillItem({ skill, selected, onPick }: { skill: SkillView; selected: boolean; onPick: () => void }) {
  return (
    <li data-testid={`skill-item-${skill.label}`} class={selected ? 'selected' : ''} onClick={onPick}>
      <strong>{skill.label}</strong>
      {skill.label !== skill.name && <span class="badge">name: {skill.name}</span>}
      {skill.problem && <span class="badge error">refused: {skill.problem.reason}</span>}
      <div class="desc clamp">{skill.description}</div>
      <div class="muted small-text">{skillSummary(skill)}</div>
    </li>
  );
}

type Reads = Map<string, SkillRead | 'reading'>;

function SkillPanel({ server, uri, directoryRead }: { server: ServerView; uri: string; directoryRead: boolean }) {
  const [entry, setEntry] = useState<SkillEntryView>();
  const [error, setError] = useState<string>();
  const [loadError, setLoadError] = useState<string>();
  const [approved, setApproved] = useState(false);
  const [dynamicOk, setDynamicOk] = useState(false);
  const [load, setLoad] = useState<SkillRead | 'loading'>();
  const [reads, setReads] = useState<Reads>(new Map());
  const [shown, setShown] = useState<string>();

  const fetchEntry = () => {
    setError(undefined);
    setLoadError(undefined);
    setLoad(undefined);
    setReads(new Map());
    setApproved(false);
    api
      .skill(server.id, uri)
      .then(setEntry)
      .catch((e) => setError(errorText(e)));
  };
  useEffect(fetchEntry, [server.id, uri]);

  if (error)
    return (
      <p class="error" data-testid="skill-error">
        {error}
      </p>
    );
  if (!entry) return <p class="muted">Reading the entry (skills/get)…</p>;
  const dynamic = entry.resources === 'dynamic';
  const loaded = load !== undefined && load !== 'loading' && load.outcome === 'verified';

  const doLoad = async () => {
    setLoad('loading');
    setLoadError(undefined);
    try {
      const result = await api.loadSkill(server.id, {
        uri,
        approval: entry.approval,
        ...(dynamicOk && { allowDynamic: true }),
      });
      setLoad(result);
      // The SKILL.md row shows the load's outcome: the load is its verified read.
      setReads((r) => new Map(r).set(uri, result));
    } catch (e) {
      // Refused before any read (the entry, the approval, a dynamic skill not allowed): said in the load box.
      setLoad(undefined);
      setLoadError(errorText(e));
    }
  };
  const readFile = async (path: string, fileUri: string) => {
    setShown(fileUri);
    setReads((r) => new Map(r).set(fileUri, 'reading'));
    try {
      const read = await api.skillFile(server.id, uri, path);
      setReads((r) => new Map(r).set(fileUri, read));
    } catch (e) {
      const refused: SkillRead = {
        uri: fileUri,
        outcome: 'refused',
        steps: [],
        error: { code: 'ERROR', reason: 'request', message: errorText(e) },
      };
      setReads((r) => new Map(r).set(fileUri, refused));
    }
  };
  const tools = allowedToolsText(entry.allowedTools);
  const shownRead = shown === undefined ? undefined : reads.get(shown);

  return (
    <div data-testid="skill-panel">
      <h2>{entry.label}</h2>
      <div class="muted small-text" data-testid="skill-uri">
        {entry.server} · {entry.uri}
      </div>
      <p>{entry.description}</p>
      {entry.problem && (
        <p class="error" data-testid="skill-problem">
          Refused before anything is read ({entry.problem.code}, {entry.problem.reason}): {entry.problem.message}
        </p>
      )}
      <details open>
        <summary>Frontmatter (from the entry)</summary>
        <JsonView value={entry.frontmatter} testid="skill-frontmatter" />
      </details>
      {entry.nested.length > 0 && (
        <p class="muted small-text">
          Nested skills (supporting files here; each is loaded on its own, with its own approval):{' '}
          {entry.nested.join(', ')}
        </p>
      )}
      <FilesTable entry={entry} reads={reads} loaded={loaded} onRead={readFile} />

      <div class="card" data-testid="skill-approval">
        <h3>Load</h3>
        {tools !== undefined && (
          <p class="warn" data-testid="skill-allowed-tools">
            allowed-tools: <code>{tools}</code> — the server asks for these; the playground grants none of them.
          </p>
        )}
        <label class="inline">
          <input
            type="checkbox"
            data-testid="skill-approve"
            checked={approved}
            onChange={(e) => setApproved((e.currentTarget as HTMLInputElement).checked)}
          />
          I approve loading <strong>{entry.name}</strong> from {entry.server}
          {dynamic
            ? ' (its files are whatever the server sends)'
            : ` with ${entry.fileCount === 1 ? 'this file' : `these ${entry.fileCount} files`}`}
        </label>
        {dynamic && (
          <label class="inline">
            <input
              type="checkbox"
              data-testid="skill-allow-dynamic"
              checked={dynamicOk}
              onChange={(e) => setDynamicOk((e.currentTarget as HTMLInputElement).checked)}
            />
            Allow a dynamic skill (no manifest: no size or digest to check)
          </label>
        )}
        <div>
          <button
            type="button"
            data-testid="skill-load"
            disabled={!approved || load === 'loading' || entry.problem !== undefined}
            onClick={() => void doLoad()}
          >
            {load === 'loading' ? 'Loading…' : 'Load'}
          </button>{' '}
          <button type="button" class="small" onClick={fetchEntry}>
            Refresh entry
          </button>
        </div>
        {loadError && (
          <p class="error" data-testid="skill-load-error">
            {loadError}
          </p>
        )}
        {load !== undefined && load !== 'loading' && <Steps read={load} testid="skill-steps" />}
      </div>

      {loaded && load.text !== undefined && <SkillMd text={load.text} uri={uri} />}
      {loaded && (dynamic || directoryRead || entry.fileCount > 1) && (
        <DirectoryBrowser server={server} skill={uri} onRead={readFile} />
      )}
      {shown !== undefined && shownRead !== undefined && <FileBody uri={shown} read={shownRead} />}
    </div>
  );
}

function FilesTable({
  entry,
  reads,
  loaded,
  onRead,
}: {
  entry: SkillEntryView;
  reads: Reads;
  loaded: boolean;
  onRead: (path: string, uri: string) => void;
}) {
  if (entry.resources === 'dynamic')
    return <p class="muted">Files: dynamic — no manifest; browse its directories once it is loaded.</p>;
  return (
    <table class="list" data-testid="skill-files">
      <thead>
        <tr>
          <th>file</th>
          <th>size</th>
          <th>digest</th>
          <th>state</th>
        </tr>
      </thead>
      <tbody>
        {manifestRows(entry.resources).map(({ file, depth, nested }) => {
          const state = fileState(reads, file.uri);
          const isRoot = file.path === 'SKILL.md';
          return (
            <tr key={file.uri} data-testid={`skill-file-${file.path}`} data-state={state}>
              <td style={{ paddingLeft: `${0.5 + depth}em` }}>
                <code>{file.path}</code>
                {nested && <span class="badge">nested skill</span>}
              </td>
              <td>{formatSize(file.size)}</td>
              <td title={file.digest}>
                <code>{shortDigest(file.digest)}</code>
              </td>
              <td>
                <span class={`badge ${state === 'verified' ? 'ok' : state === 'refused' ? 'error' : ''}`}>
                  {mark(state)} {state}
                </span>
                {loaded && !isRoot && (
                  <button type="button" class="small" onClick={() => onRead(file.path, file.uri)}>
                    Read
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Steps({ read, testid }: { read: SkillRead; testid: string }) {
  return (
    <div data-testid={testid} data-outcome={read.outcome}>
      <ol class="skill-steps">
        {read.steps.map((s) => (
          <li key={s.step} data-step={s.step} data-state={s.state} class={s.state === 'failed' ? 'error' : ''}>
            <span class={s.state === 'passed' ? 'ok' : ''}>{mark(s.state)}</span> <strong>{s.step}</strong>{' '}
            <span class="muted small-text">{s.detail}</span>
          </li>
        ))}
      </ol>
      {read.outcome === 'refused' && read.error && (
        <p class="error" data-testid={`${testid}-refused`}>
          Refused ({read.error.code}, {read.error.reason}){failedStep(read) ? '' : `: ${read.error.message}`}. Its
          content was not used.
        </p>
      )}
    </div>
  );
}

/** The verified `SKILL.md`: its frontmatter as text, its body as markdown elements (server text never becomes HTML). */
function SkillMd({ text, uri }: { text: string; uri: string }) {
  const { frontmatter, body } = splitSkillMd(text);
  return (
    <div class="card" data-testid="skill-md">
      <h3>SKILL.md</h3>
      {frontmatter !== undefined && <pre class="text">{frontmatter}</pre>}
      <Markdown text={body} base={uri} />
    </div>
  );
}

function DirectoryBrowser({
  server,
  skill,
  onRead,
}: {
  server: ServerView;
  skill: string;
  onRead: (path: string, uri: string) => void;
}) {
  const [path, setPath] = useState('');
  const [dir, setDir] = useState<SkillDirectoryView>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    setError(undefined);
    api
      .skillDirectory(server.id, skill, path)
      .then(setDir)
      .catch((e) => setError(errorText(e)));
  }, [server.id, skill, path]);
  return (
    <div class="card" data-testid="skill-directory">
      <h3>Directories</h3>
      <div class="small-text">
        {crumbs(path).map((c) => (
          <button type="button" class="small" key={c.path} onClick={() => setPath(c.path)}>
            {c.name}
          </button>
        ))}
        {dir && (
          <span class="muted">
            {' '}
            from {dir.source === 'server' ? 'the server (resources/directory/read)' : 'the manifest'}
          </span>
        )}
      </div>
      {error && <p class="error">{error}</p>}
      <ul class="items">
        {dir?.items.map((i) => (
          <li
            key={i.uri}
            data-testid={`skill-dir-${i.name}`}
            onClick={() => (i.directory ? setPath(childPath(path, i.name)) : onRead(childPath(path, i.name), i.uri))}
          >
            {i.directory ? <strong>{i.name}/</strong> : <code>{i.name}</code>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function FileBody({ uri, read }: { uri: string; read: SkillRead | 'reading' }) {
  if (read === 'reading') return <p class="muted">Reading {uri}…</p>;
  return (
    <div class="card" data-testid="skill-file-body">
      <h3>{uri}</h3>
      <Steps read={read} testid="skill-file-steps" />
      {read.text !== undefined &&
        (isMarkdownFile(uri, read.mimeType) ? (
          <Markdown text={read.text} base={uri} />
        ) : (
          <pre class="text">{read.text}</pre>
        ))}
    </div>
  );
}
