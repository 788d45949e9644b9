// A host's server entry as mcpc's ServerEntry, table by table: what is kept, expanded, skipped, and why.
import { describe, expect, it } from 'vitest';
import { normalizeEntry, type ExpandContext } from '../src/discovery/entries.js';

const SOURCE = 'Cursor (~/.cursor/mcp.json)';
const EXPAND: ExpandContext = { env: { TOKEN: 'tok', HOST: 'h.test', EMPTY: '' }, home: '/home/u', cwd: '/work/p' };

describe('normalizeEntry: the entries it keeps', () => {
  it.each([
    ['a command', { command: 'npx', args: ['-y', 'srv'] }, { command: 'npx', type: 'stdio', args: ['-y', 'srv'] }],
    ['a url alone: detected', { url: 'https://h.test/mcp' }, { url: 'https://h.test/mcp' }],
    [
      "the hosts' http: detected, not mcpc's plain HTTP",
      { type: 'http', url: 'https://h.test/mcp' },
      { url: 'https://h.test/mcp' },
    ],
    [
      'streamable_http: detected',
      { type: 'streamable_http', url: 'https://h.test/mcp' },
      { url: 'https://h.test/mcp' },
    ],
    ['sse: taken as said', { type: 'sse', url: 'https://h.test/sse' }, { url: 'https://h.test/sse', type: 'sse' }],
    [
      '${VAR}, ${env:VAR}, ${VAR:-default}, ${userHome}, ${workspaceFolder}',
      {
        command: '${userHome}/bin/srv',
        args: ['${env:HOST}', '${MISSING:-dflt}', '${EMPTY:-e}'],
        cwd: '${workspaceFolder}',
      },
      { command: '/home/u/bin/srv', type: 'stdio', args: ['h.test', 'dflt', 'e'], cwd: '/work/p' },
    ],
    [
      "Codex's bearer token variable, expanded",
      { url: 'https://${HOST}/mcp', bearer_token_env_var: 'TOKEN' },
      { url: 'https://h.test/mcp', headers: { Authorization: 'Bearer tok' } },
    ],
  ])('%s', (_what, raw, fields) => {
    const { entry, problems } = normalizeEntry('srv', raw, SOURCE, EXPAND);
    expect(entry).toEqual({ name: 'srv', source: SOURCE, ...fields });
    expect(problems).toEqual([]);
  });

  it('says which variables were unset or are VS Code prompts, and uses ""', () => {
    const { entry, problems } = normalizeEntry(
      'srv',
      { command: 'x', env: { A: '${NOPE}', B: '${input:key}' } },
      SOURCE,
      EXPAND,
    );
    expect(entry?.env).toEqual({ A: '', B: '' });
    expect(problems).toEqual([
      `"srv" in ${SOURCE}: \${NOPE} is not set in the environment; used ""`,
      `"srv" in ${SOURCE}: \${input:key} is a VS Code prompt mcpc cannot answer; used "" (set it in the file)`,
    ]);
  });

  it('leaves every ${…} as written for a file not trusted', () => {
    const { entry, problems } = normalizeEntry('srv', { command: '${TOKEN}', args: ['${input:k}'] }, SOURCE, undefined);
    expect(entry).toMatchObject({ command: '${TOKEN}', args: ['${input:k}'] });
    expect(problems).toEqual([]);
  });

  it.each([
    ['disabled: true', { disabled: true, command: 'x' }],
    ['enabled: false', { enabled: false }],
  ])('skips an entry turned off (%s), without a word', (_what, raw) => {
    expect(normalizeEntry('srv', raw, SOURCE, EXPAND)).toEqual({ problems: [], disabled: true });
  });
});

describe('normalizeEntry: the entries it skips, each with one line naming it, its file and why', () => {
  it.each([
    ['not an object', 'npx srv', 'is not an object'],
    ['neither command nor url', {}, 'has neither a "command" nor a "url"'],
    [
      'a transport mcpc does not speak',
      { type: 'websocket', url: 'wss://h.test' },
      'has type "websocket", which is no transport mcpc speaks',
    ],
    ['stdio without a command', { type: 'stdio' }, 'has type "stdio" but no "command"'],
    ['sse without a url', { type: 'sse', command: 'x' }, 'has type "sse" but no "url"'],
    ['args that are not a list', { command: 'x', args: '-y' }, 'has "args" that is not an array'],
    ['a url that is not http(s)', { url: 'file:///srv' }, 'has "url" "file:///srv", which is not an http(s) URL'],
    ['a url a variable left empty', { url: '${NOPE}/mcp' }, 'has "url" "/mcp", which is not an http(s) URL'],
  ])('%s', (_what, raw, reason) => {
    const { entry, problems } = normalizeEntry('srv', raw, SOURCE, EXPAND);
    expect(entry).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`"srv" in ${SOURCE} ${reason}`);
    expect(problems[0]).toMatch(/; skipped$/);
  });
});
