// Every command against a server whose every string carries terminal escapes: none reaches the terminal raw.
//
// The escapes are OSC 52, CSI, OSC 8, C1 and BEL.
import { writeFileSync } from 'node:fs';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Output } from '../src/output.js';
import { NODE, REPO, freshHome, mcpc } from './helpers.js';

const SERVER = join(REPO, 'tooling', 'fixtures', 'stdio', 'hostile-strings.mjs');
const TARGET = ['--stdio', `${NODE} ${SERVER}`];
/** ESC, BEL, C1 controls and the bidi overrides: what a terminal would obey. */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let home: string;
beforeAll(() => {
  home = freshHome();
  writeFileSync(
    join(home, 'servers.json'),
    JSON.stringify({ mcpServers: { hostile: { command: NODE, args: [SERVER] } } }),
  );
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The commands a person runs, each with what proves it reached the hostile strings. */
const COMMANDS: readonly { args: readonly string[]; shows: RegExp }[] = [
  { args: ['info'], shows: /server\\x1b\]52/ },
  { args: ['tools'], shows: /Echoes\\x1b\]52/ },
  { args: ['tools', '--schema'], shows: /an argument(\\x1b|\\u001b)/ },
  { args: ['tool', 'echo'], shows: /arg\\x1b\]52/ },
  { args: ['call', 'echo', 'plain=x'], shows: /text\\x1b\]52/ },
  { args: ['call', 'echo', 'plain=x', '-v'], shows: /text\\x1b/ },
  { args: ['call', 'slow'], shows: /text\\x1b/ },
  { args: ['call', 'echo'], shows: /plain/ },
  { args: ['call', 'nope'], shows: /nope/ },
  { args: ['prompts'], shows: /arg\\x1b\]52/ },
  { args: ['prompt', 'p'], shows: /message\\x1b/ },
  { args: ['resources'], shows: /Plain\\x1b/ },
  { args: ['templates'], shows: /template\\x1b/ },
  { args: ['read', 'demo://plain'], shows: /contents\\x1b/ },
  { args: ['complete', 'p', 'x', 'v'], shows: /value\\x1b/ },
  { args: ['tasks', 'list'], shows: /task-a\\x1b\]52/ },
  { args: ['tasks', 'call', 'job'], shows: /task-\d\\x1b\]52/ },
  { args: ['tasks', 'call', 'job', '--wait'], shows: /status\\x1b|text\\x1b/ },
  { args: ['codegen'], shows: /Echoes/ },
];

describe('no server string reaches the terminal raw', () => {
  for (const { args, shows } of COMMANDS) {
    it(`mcpc … ${args.join(' ')}`, async () => {
      const human = await mcpc([...TARGET, ...args], { home });
      expect(human.timedOut).toBe(false);
      const both = human.stdout + human.stderr;
      expect(both).toMatch(shows);
      const raw = RAW.exec(both);
      expect(
        raw,
        `raw U+${raw?.[0].codePointAt(0)?.toString(16)} in: ${JSON.stringify(both.slice(Math.max(0, (raw?.index ?? 0) - 60), (raw?.index ?? 0) + 20))}`,
      ).toBeNull();

      const json = await mcpc([...TARGET, ...args, '--json'], { home });
      expect(RAW.exec(json.stdout.replace(/\n/g, ''))).toBeNull();
      expect(RAW.exec(json.stderr)).toBeNull();
    }, 30_000);
  }

  it('tasks get / result / cancel on a hostile task id, and grep and doctor', async () => {
    const listed = await mcpc([...TARGET, 'tasks', 'list', '--json'], { home });
    const id = JSON.parse(listed.stdout) as { taskId: string }[] | { tasks: { taskId: string }[] };
    const first = Array.isArray(id) ? id[0]!.taskId : id.tasks[0]!.taskId;
    for (const args of [
      [...TARGET, 'tasks', 'get', first],
      [...TARGET, 'tasks', 'result', first],
      [...TARGET, 'tasks', 'cancel', first],
      ['--config', join(home, 'servers.json'), 'grep', '.'],
      ['doctor', ...TARGET],
    ]) {
      const r = await mcpc(args, { home });
      expect(r.timedOut).toBe(false);
      expect(RAW.exec(r.stdout + r.stderr), args.join(' ')).toBeNull();
    }
  }, 60_000);
});

describe('the output layer', () => {
  /** A terminal that records what it was sent. */
  const terminal = () => {
    const chunks: string[] = [];
    return {
      chunks,
      stream: Object.assign(
        { write: (c: string) => (chunks.push(c), true) },
        { isTTY: true },
      ) as unknown as NodeJS.WritableStream & {
        isTTY: boolean;
      },
    };
  };

  it('lets through its own styling and nothing else, however the text was put together', () => {
    const out = terminal();
    const err = terminal();
    const o = new Output({ json: false, verbose: 2, stdout: out.stream, stderr: err.stream, env: { TERM: 'xterm' } });
    const evil = '\u001b]52;c;aGk=\u0007\u001b[1m\u009b31m';
    o.line(`${o.style('bold', `name ${evil}`)} ${evil} ${o.style('red', o.style('bold', 'x'))}`);
    o.warn(`${evil}`);
    o.error(evil, evil);
    o.info(o.errStyle('dim', evil));
    o.status(evil);
    const all = out.chunks.join('') + err.chunks.join('');
    // Only SGR sequences remain, and only those our styles made (bold 1/22, red 31/39, yellow, dim 2/22).
    // eslint-disable-next-line no-control-regex -- the escape sequences that reached the terminal
    const sequences = all.match(/\u001b[^a-zA-Z]*[a-zA-Z]/g) ?? [];
    for (const s of sequences)
      expect(['\u001b[1m', '\u001b[22m', '\u001b[31m', '\u001b[39m', '\u001b[33m', '\u001b[2m', '\u001b[2K']).toContain(
        s,
      );
    // eslint-disable-next-line no-control-regex -- BEL and the C1 controls
    expect(all).not.toMatch(/[\u0007\u0080-\u009f]/);
    expect(all).toContain('\\x1b]52;c;aGk=\\x07');
    // A forged token (a guess at the nonce) is plain text.
    o.line('\uE00000000000' + '1' + '\uE001');
    expect(out.chunks.at(-1)).not.toContain('\u001b');
  });

  it('keeps --json output valid JSON with C1 controls escaped', () => {
    const out = terminal();
    const o = new Output({ json: true, verbose: 0, stdout: out.stream, stderr: out.stream });
    o.result({ name: '\u009b31m\u202e' }, () => undefined);
    const text = out.chunks.join('');
    expect(text).not.toMatch(/[\u0080-\u009f\u202e]/);
    expect(JSON.parse(text)).toEqual({ name: '\u009b31m\u202e' });
  });
});
