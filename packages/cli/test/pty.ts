// A real pseudo-terminal for the interactive tests: a command run in a detached tmux session, keys sent, screen read.
import { execFileSync, spawnSync } from 'node:child_process';

/** Whether tmux is installed (the interactive tests fail, not skip, without it). */
export function tmuxAvailable(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

export const TMUX_MISSING =
  'tmux is needed for the interactive tests (a real pseudo-terminal): install it (apt-get install tmux; the test command does it)';

/** Quotes a word for `sh`. */
export const shQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

let counter = 0;

/** One tmux session on a private server socket, so nothing of the user's tmux is touched. */
export class Pty {
  readonly socket: string;
  readonly name = 'mcpc';
  #started = false;

  constructor() {
    this.socket = `mcpc-test-${process.pid}-${Date.now().toString(36)}-${counter++}`;
  }

  #tmux(args: readonly string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /**
   * Starts `argv` in a 200×50 terminal with `env`; when it ends, the pane shows `[exit N]` and stays
   * (so the screen can still be read).
   */
  start(argv: readonly string[], env: Record<string, string>, cwd: string): void {
    const assignments = Object.entries(env).map(([k, v]) => `${k}=${shQuote(v)}`);
    const command = `cd ${shQuote(cwd)} && env ${assignments.join(' ')} ${argv.map(shQuote).join(' ')}; echo "[exit $?]"; sleep 120`;
    this.#tmux(['new-session', '-d', '-x', '200', '-y', '50', '-s', this.name, command]);
    this.#started = true;
  }

  /** Types `text` literally (no key names). */
  type(text: string): void {
    this.#tmux(['send-keys', '-t', this.name, '-l', text]);
  }

  /** Presses keys by tmux name: `Enter`, `Tab`, `C-c`, `C-d`. */
  press(...keys: string[]): void {
    this.#tmux(['send-keys', '-t', this.name, ...keys]);
  }

  /** The screen and its scrollback, as text. */
  screen(): string {
    return this.#tmux(['capture-pane', '-p', '-J', '-S', '-500', '-t', this.name]);
  }

  /** Waits (bounded) until the screen satisfies `test`; throws with the screen when it does not. */
  async waitFor(test: RegExp | ((screen: string) => boolean), timeout = 15_000, what = String(test)): Promise<string> {
    const check = typeof test === 'function' ? test : (s: string): boolean => test.test(s);
    const deadline = Date.now() + timeout;
    let screen = '';
    for (let i = 0; i < 10_000 && Date.now() < deadline; i++) {
      screen = this.screen();
      if (check(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out after ${timeout} ms waiting for ${what}; the screen:\n${screen}`);
  }

  /** Polls the screen every `every` ms for `duration` ms, handing each capture to `see`. */
  async watch(duration: number, every: number, see: (screen: string) => boolean): Promise<void> {
    const deadline = Date.now() + duration;
    for (let i = 0; i < 10_000 && Date.now() < deadline; i++) {
      if (see(this.screen())) return;
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  }

  kill(): void {
    if (!this.#started) return;
    this.#started = false;
    try {
      this.#tmux(['kill-server']);
    } catch {
      // already gone
    }
  }
}
