// skills.mjs: the demo server's Agent Skills (SEP-2640), served through the official SDK's SkillsExtension.
//
// One SkillSource built here (rather than a catalog from a folder) so that the entries are ours to write,
// the lying one included:
//   skill://hello-world/SKILL.md                 plain: one file
//   skill://release/SKILL.md                     nested: release/hotfix/SKILL.md is one of its files, and
//   skill://release/hotfix/SKILL.md              a skill listed on its own
//   skill://acme/support/hotfix/SKILL.md         another "hotfix": the listing labels the two apart
//   skill://acme/docs/pdf-forms/SKILL.md         supporting files in directories (references/, scripts/, templates/)
//   skill://reports/daily-status/SKILL.md        resources "dynamic": its data/ is written at each read
//   skill://demo-tests/lying-digest/SKILL.md     a test case, labelled so: its entry's digest names other bytes
// `directoryRead` is declared (the source implements readDirectory).
import { createHash } from 'node:crypto';
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';

const digestOf = (text) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
const sizeOf = (text) => Buffer.byteLength(text, 'utf8');
const skillMd = (yaml, body) => `---\n${yaml}\n---\n\n${body}\n`;

/** uri → (() => text): every file served (a function, so the dynamic skill's files change). */
const files = new Map();
/** The skills: { uri, frontmatter, own: file URIs (or 'dynamic'), lie?: true } */
const skills = [];

function skill(path, frontmatter, yaml, body, extra = {}, options = {}) {
  const uri = `skill://${path}/SKILL.md`;
  const text = skillMd(yaml, body);
  files.set(uri, () => text);
  const own = [uri];
  for (const [rel, content] of Object.entries(extra)) {
    files.set(`skill://${path}/${rel}`, typeof content === 'function' ? content : () => content);
    own.push(`skill://${path}/${rel}`);
  }
  const entry = { uri, frontmatter, own, ...options };
  skills.push(entry);
  return entry;
}

skill(
  'hello-world',
  { name: 'hello-world', description: 'Greet the user by name, in the style they ask for' },
  'name: hello-world\ndescription: Greet the user by name, in the style they ask for',
  [
    '# Hello, world',
    '',
    'When the user asks to be greeted:',
    '',
    '1. Ask for their **name** if you do not know it.',
    '2. Call the `greet` tool with a `style` of `formal`, `casual` or `pirate`.',
    '',
    '```sh',
    'echo "hello"',
    '```',
    '',
    'See the [MCP site](https://modelcontextprotocol.io) for more. <script>alert("never run")</script>',
  ].join('\n'),
);

const release = skill(
  'release',
  { name: 'release', description: 'Cut a release of the project', metadata: { version: '2.0' } },
  "name: release\ndescription: Cut a release of the project\nmetadata:\n  version: '2.0'",
  '# Release\n\nFollow `checklist.md`. For an urgent fix, load the nested skill `hotfix/SKILL.md` on its own.',
  { 'checklist.md': '# Checklist\n\n- [ ] changelog\n- [ ] tag\n- [ ] publish\n' },
);
const hotfix = skill(
  'release/hotfix',
  { name: 'hotfix', description: 'Ship an urgent fix on a release branch', 'allowed-tools': 'Bash(git:*)' },
  'name: hotfix\ndescription: Ship an urgent fix on a release branch\nallowed-tools: Bash(git:*)',
  '# Hotfix\n\nBranch from the release tag, fix, tag again.',
);
// A nested skill's files are the enclosing skill's supporting files too (the manifest is complete).
release.own.push(...hotfix.own);
skill(
  'acme/support/hotfix',
  { name: 'hotfix', description: 'Answer customers waiting for a fix' },
  'name: hotfix\ndescription: Answer customers waiting for a fix',
  '# Hotfix (support)\n\nTell the customer when the fix ships.',
);

skill(
  'acme/docs/pdf-forms',
  {
    name: 'pdf-forms',
    description: 'Fill in PDF forms from structured data',
    'allowed-tools': 'Bash(python:*) Read',
  },
  'name: pdf-forms\ndescription: Fill in PDF forms from structured data\nallowed-tools: Bash(python:*) Read',
  '# PDF forms\n\nRead [the forms guide](references/FORMS.md), the field list in `references/api/fields.md`, ' +
    'then run `scripts/fill.py` with a template from `templates/`.',
  {
    'references/FORMS.md': '# Forms\n\nEvery form has fields; fill them in order.\n',
    'references/api/fields.md': '# Fields\n\n| field | type |\n| --- | --- |\n| name | text |\n| total | number |\n',
    'scripts/fill.py': 'import sys\nprint("filled", sys.argv[1:])\n',
    'templates/invoice.md': '# Invoice {{number}}\n\nTotal: {{total}}\n',
  },
);

skill(
  'reports/daily-status',
  { name: 'daily-status', description: "Summarise today's status report" },
  "name: daily-status\ndescription: Summarise today's status report",
  '# Daily status\n\nRead `data/today.md` (written when it is read) and summarise it.',
  { 'data/today.md': () => `# Today\n\nGenerated at ${new Date().toISOString()}: all systems normal.\n` },
  { dynamic: true },
);

skill(
  'demo-tests/lying-digest',
  {
    name: 'lying-digest',
    description: 'TEST CASE: its entry gives SKILL.md a digest of other bytes; loading it must fail',
  },
  'name: lying-digest\ndescription: "TEST CASE: its entry gives SKILL.md a digest of other bytes; loading it must fail"',
  '# Lying digest\n\nA host that shows this text did not verify it.',
  {},
  { lie: true },
);

/** The entry a client is handed: each file's digest and size now (the lying skill's SKILL.md digest is of other bytes). */
function entryOf(s) {
  if (s.dynamic) return { uri: s.uri, frontmatter: s.frontmatter, resources: 'dynamic' };
  const resources = s.own.map((uri) => {
    const text = files.get(uri)();
    return { uri, digest: digestOf(text), size: sizeOf(text) };
  });
  if (s.lie) resources[0] = { ...resources[0], digest: digestOf('other bytes') };
  return { uri: s.uri, frontmatter: s.frontmatter, resources };
}

const source = {
  async list() {
    return { skills: skills.map(entryOf) };
  },
  async get(uri) {
    const s = skills.find((x) => x.uri === uri);
    return s === undefined ? undefined : entryOf(s);
  },
  async read(uri) {
    const text = files.get(uri)?.();
    if (text === undefined) return undefined;
    return { text, mimeType: uri.endsWith('.md') ? 'text/markdown' : 'text/plain' };
  },
  async readDirectory(uri) {
    const dir = uri.replace(/\/+$/, '');
    const children = new Map();
    for (const file of files.keys()) {
      if (!file.startsWith(`${dir}/`)) continue;
      const [head, ...rest] = file.slice(dir.length + 1).split('/');
      children.set(head, {
        uri: `${dir}/${head}`,
        name: head,
        mimeType: rest.length > 0 ? 'inode/directory' : head.endsWith('.md') ? 'text/markdown' : 'text/plain',
      });
    }
    return children.size === 0 ? undefined : { resources: [...children.values()] };
  },
};

const extension = new SkillsExtension({
  source,
  onWarning: (w) => console.error(`[demo] skills: ${w.path}: ${w.message}`),
});

/** Serves the skills on an McpServer (before it connects). */
export function registerSkills(server) {
  extension.attach(server);
}
