// The interactive paths under a real terminal (tmux), and their non-TTY fallbacks.
//
// The paths are elicitation forms, sampling, the progress bar and the shell.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAnswer, fieldsOf } from '../src/interact/form.js';
import { BIN, EVERYTHING, NODE, freshHome, testEnv } from './helpers.js';
import { Pty, TMUX_MISSING, tmuxAvailable } from './pty.js';

/** The binary under test (MCPC_BIN runs the tests against another build). */
const MCPC = process.env.MCPC_BIN ?? BIN;
const STDIO = ['--stdio', `${NODE} ${EVERYTHING} stdio`];

let home: string;
let pty: Pty | undefined;

beforeEach(() => {
  home = freshHome();
});

afterEach(() => {
  pty?.kill();
  pty = undefined;
  rmSync(home, { recursive: true, force: true });
});

/** The environment inside the terminal: a clean one, with the test home and no colour. */
function ptyEnv(): Record<string, string> {
  const env = testEnv(home);
  const keep = ['PATH', 'HOME', 'USERPROFILE', 'XDG_CONFIG_HOME', 'MCPC_CONFIG_DIR', 'MCPC_SESSION_DIR', 'NO_COLOR'];
  const out: Record<string, string> = { TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  for (const key of keep) if (env[key] !== undefined) out[key] = env[key];
  return out;
}

/** Starts `mcpc …args` in a fresh terminal; fails (does not skip) without tmux. */
function terminal(args: readonly string[]): Pty {
  if (!tmuxAvailable()) throw new Error(TMUX_MISSING);
  if (!existsSync(MCPC)) throw new Error(`${MCPC} is missing: build the CLI first (the test command does it)`);
  pty = new Pty();
  pty.start([NODE, MCPC, ...args], ptyEnv(), home);
  return pty;
}

/** The last non-empty line of the screen (where a prompt waits). */
const lastLine = (screen: string): string =>
  screen
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .at(-1) ?? '';

/** Waits for a prompt matching `prompt` on the last line, then types `text` and Enter. */
async function answer(t: Pty, prompt: RegExp, text: string): Promise<void> {
  await t.waitFor((s) => prompt.test(lastLine(s)), 15_000, `a prompt ${prompt}`);
  if (text !== '') t.type(text);
  t.press('Enter');
}

/** Runs mcpc without a terminal (pipes): exit code, stdout, stderr. */
function piped(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [MCPC, ...args], { cwd: home, env: testEnv(home), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('elicitation at the terminal', () => {
  it('asks the form field by field, re-asks invalid answers, and sends what was typed', async () => {
    const t = terminal([...STDIO, 'call', 'trigger-elicitation-request']);
    await t.waitFor(/Please provide inputs for the following fields:/);
    await answer(t, /\(text\) >$/, 'Ada Lovelace');
    await answer(t, /\(y\/n\) >$/, 'y');
    await answer(t, /\[It was a dark and stormy night\.\] >$/, '');
    await answer(t, /\(email\) >$/, 'not-an-email');
    await t.waitFor(/✗ an email address/);
    await answer(t, /\(email\) >$/, 'ada@example.com');
    await answer(t, /\(uri\) >$/, 'https://ada.example/');
    await answer(t, /\(date\) >$/, '1815-12-10');
    await answer(t, /\(integer 1–100\) \[42\] >$/, '500');
    await t.waitFor(/✗ at most 100/);
    await answer(t, /\(integer 1–100\) \[42\] >$/, '7');
    await answer(t, /\(number 0–1000\) \[3\.14\] >$/, '');
    await answer(t, /\[Monica\] >$/, '3');
    await answer(t, /\[Guitar\] >$/, '1,2');
    await answer(t, /\[Superman\] >$/, '2');
    await answer(t, /\[Tuna\] >$/, '3');
    await answer(t, /\[Cats\] >$/, '');
    await answer(t, /\? \[Y\/n\]$/, '');
    const screen = await t.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('[exit 0]');
    expect(screen).toContain('User provided the requested information');
    expect(screen).toContain('- Name: Ada Lovelace');
    expect(screen).toContain('- Agreed to terms: true');
    expect(screen).toContain('- Email: ada@example.com');
    expect(screen).toContain('- Birthdate: 1815-12-10');
    expect(screen).toContain('- Favorite Integer: 7');
    expect(screen).toContain('- Favorite Number: 3.14');
    expect(screen).toMatch(/"untitledSingleSelectEnum": "Joey"/);
    expect(screen).toMatch(/"titledSingleSelectEnum": "hero-2"/);
    expect(screen).toMatch(/"firstLine": "It was a dark and stormy night\."/);
  });

  it(':decline declines the whole form', async () => {
    const t = terminal([...STDIO, 'call', 'trigger-elicitation-request']);
    await answer(t, /\(text\) >$/, ':decline');
    const screen = await t.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('User declined to provide the requested information');
    expect(screen).toContain('"action": "decline"');
  });

  it('Ctrl-D cancels the form', async () => {
    const t = terminal([...STDIO, 'call', 'trigger-elicitation-request']);
    await t.waitFor((s) => /\(text\) >$/.test(lastLine(s)));
    t.press('C-d');
    const screen = await t.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('"action": "cancel"');
  });

  it('URL mode shows the URL and its host, and accepts on Enter', async () => {
    const t = terminal([...STDIO, 'call', 'trigger-url-elicitation', 'url=https://example.com/consent?x=1']);
    await t.waitFor(/asks you to open a page: Please open the link to complete this action\./);
    expect(t.screen()).toMatch(/^ {2}https:\/\/example\.com\/consent\?x=1$/m);
    expect(t.screen()).toContain('host: example.com');
    await answer(t, /then press Enter .*$/, '');
    const screen = await t.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('User completed the URL elicitation flow');
  });

  it('checks answers against the schema', () => {
    const [text, date, multi, when] = fieldsOf({
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{3}$', minLength: 3, maxLength: 3 },
        day: { type: 'string', format: 'date' },
        picks: { type: 'array', minItems: 1, maxItems: 2, items: { enum: ['a', 'b', 'c'] } },
        at: { type: 'string', format: 'date-time' },
      },
      required: ['code'],
    });
    expect(checkAnswer(text!, '')).toEqual({ ok: false, why: 'this field is required' });
    expect(checkAnswer(text!, 'abc').ok).toBe(false);
    expect(checkAnswer(text!, 'ABC')).toEqual({ ok: true, value: 'ABC' });
    expect(checkAnswer(date!, '2024-02-30').ok).toBe(false);
    expect(checkAnswer(date!, '2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    expect(checkAnswer(date!, '')).toEqual({ ok: true, value: undefined });
    expect(checkAnswer(multi!, '1,3')).toEqual({ ok: true, value: ['a', 'c'] });
    expect(checkAnswer(multi!, '1,2,3').ok).toBe(false);
    expect(checkAnswer(multi!, '4').ok).toBe(false);
    expect(checkAnswer(when!, '2024-01-02T03:04:05Z').ok).toBe(true);
    expect(checkAnswer(when!, 'tomorrow').ok).toBe(false);
  });

  it('declines with one line on stderr when no one is at a terminal', async () => {
    const r = await piped([...STDIO, 'call', 'trigger-elicitation-request']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('User declined to provide the requested information');
    expect(r.stderr).toMatch(
      /asked for input \("Please provide inputs for the following fields:"\); declined: not interactive/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('sampling at the terminal', () => {
  it('shows the request; accepted, the typed reply goes back as the model answer', async () => {
    const t = terminal([...STDIO, 'call', 'trigger-sampling-request', 'prompt=say hi', 'maxTokens=50']);
    await t.waitFor(/asks for a model completion/);
    const shown = t.screen();
    expect(shown).toContain('system: You are a helpful test server.');
    expect(shown).toMatch(/user: Resource trigger-sampling-request context: say hi/);
    expect(shown).toContain('maxTokens 50');
    await answer(t, /\[y\/N\]$/, 'y');
    await answer(t, /^reply>$/, 'Hello from the terminal');
    await answer(t, /^\s*>$/, '');
    const screen = await t.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('[exit 0]');
    expect(screen).toContain('"text": "Hello from the terminal"');
    expect(screen).toContain('"model": "mcpc-user"');
  });

  it('rejected, the server gets an error', async () => {
    const t = terminal([...STDIO, 'call', 'trigger-sampling-request', 'prompt=say hi']);
    await answer(t, /\[y\/N\]$/, 'n');
    const screen = await t.waitFor(/\[exit \d+\]/);
    expect(screen).toMatch(/rejected the sampling request/);
    expect(screen).not.toContain('[exit 0]');
  });

  it('declines with a line on stderr when no one is at a terminal', async () => {
    const r = await piped([...STDIO, 'call', 'trigger-sampling-request', 'prompt=say hi']);
    expect(r.stderr).toMatch(/asked for a model completion \(sampling\); declined: not interactive/);
    expect(r.code).not.toBe(0);
  });
});

describe('progress', () => {
  it('draws a bar on a terminal and clears it before the result', async () => {
    const t = terminal([...STDIO, 'call', 'trigger-long-running-operation', 'duration=2', 'steps=4']);
    const bars: string[] = [];
    await t.watch(15_000, 40, (screen) => {
      const bar = /trigger-long-running-operation \[[#-]{24}\]\s+\d+%/.exec(screen);
      if (bar !== null && !bars.includes(bar[0])) bars.push(bar[0]);
      return /\[exit \d+\]/.test(screen);
    });
    const screen = t.screen();
    expect(screen).toContain('Long running operation completed. Duration: 2 seconds, Steps: 4.');
    expect(screen).toContain('[exit 0]');
    expect(bars.length).toBeGreaterThanOrEqual(2);
    expect(bars.some((b) => / (25|50|75)%$/.test(b))).toBe(true);
    // Cleared: the result stands alone, no bar left above it.
    expect(screen).not.toMatch(/\[[#-]{24}\]/);
  });

  it('draws nothing without a terminal', async () => {
    const r = await piped([...STDIO, 'call', 'trigger-long-running-operation', 'duration=0.4', 'steps=2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Long running operation completed.');
    // eslint-disable-next-line no-control-regex -- looking for escapes is the point
    expect(r.stdout + r.stderr).not.toMatch(/\r|\x1b|\[[#-]+\]|\d+%/);
  });
});

describe('mcpc shell', () => {
  it('completes tool and argument names, runs lines on one connection, keeps a private history', async () => {
    const config = join(home, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { everything: { command: NODE, args: [EVERYTHING, 'stdio'] } } }),
    );
    const t = terminal(['--config', config, 'shell', 'everything']);
    await t.waitFor((s) => /^mcpc everything>$/.test(lastLine(s)), 15_000, 'the shell prompt');
    t.type('call ec');
    t.press('Tab');
    // The name is completed with a space after it, ready for the arguments.
    await t.waitFor((s) => /mcpc everything> call echo$/.test(lastLine(s)), 10_000, 'call echo completed');
    t.type('mes');
    t.press('Tab');
    await t.waitFor((s) => /mcpc everything> call echo message=$/.test(lastLine(s)), 10_000, 'message= completed');
    t.type('hi');
    t.press('Enter');
    await t.waitFor(/^Echo: hi$/m);
    // Ctrl-C at the prompt drops the line; errors are printed and the shell goes on.
    await t.waitFor((s) => /^mcpc everything>$/.test(lastLine(s)));
    t.type('tools --bogus');
    t.press('C-c');
    await t.waitFor(/mcpc everything> tools --bogus\^C\nmcpc everything>\s*$/);
    t.type('nosuch');
    t.press('Enter');
    await t.waitFor(/unknown command "nosuch"/);
    await answer(t, /^mcpc everything>$/, 'call get-sum a=2 b=3');
    await t.waitFor(/The sum of 2 and 3 is 5\./);
    // A form asked during a shell call reads from the shell's own line reader.
    await answer(t, /^mcpc everything>$/, 'call trigger-elicitation-request');
    await answer(t, /\(text\) >$/, ':cancel');
    await t.waitFor(/User cancelled the elicitation dialog/);
    // Ctrl-C during a call cancels the call, not the shell; a progress bar shows meanwhile.
    await answer(t, /^mcpc everything>$/, 'call trigger-long-running-operation duration=20 steps=20');
    await t.waitFor(/trigger-long-running-operation \[[#-]{24}\]/);
    t.press('C-c');
    await t.waitFor(/^interrupted$/m);
    await answer(t, /^mcpc everything>$/, 'exit');
    const screen = await t.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('[exit 0]');
    const history = join(testEnv(home).MCPC_CONFIG_DIR!, 'mcpc', 'history');
    expect(readFileSync(history, 'utf8').split('\n')).toEqual([
      'call echo message=hi',
      'nosuch',
      'call get-sum a=2 b=3',
      'call trigger-elicitation-request',
      'call trigger-long-running-operation duration=20 steps=20',
      'exit',
      '',
    ]);
    if (process.platform !== 'win32') expect(statSync(history).mode & 0o777).toBe(0o600);
  });
});
