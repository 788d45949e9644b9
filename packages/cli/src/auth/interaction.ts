// How `mcpc login` sends the user to authorize: the system browser, or the URL on stderr with --no-browser.
//
// With --no-browser the user pastes the redirect on stdin; the loopback callback listens either way.
import { createInterface } from 'node:readline';
import { BrowserOAuth, type AuthorizationInteraction, type PreparedInteraction } from '@mcpc/oauth';
import type { CliContext } from '../context.js';
import { cliLogger } from '../log.js';

/** At most this many pasted lines are looked at before only the loopback callback is waited for. */
const MAX_PASTED_LINES = 50;

export class LoginInteraction implements AuthorizationInteraction {
  readonly #ctx: CliContext;
  readonly #noBrowser: boolean;
  readonly #timeoutMs: number;

  constructor(ctx: CliContext, noBrowser: boolean, timeoutMs = 300_000) {
    this.#ctx = ctx;
    this.#noBrowser = noBrowser;
    this.#timeoutMs = timeoutMs;
  }

  async prepare(options: {
    readonly redirectUri: string;
    readonly signal?: AbortSignal | undefined;
  }): Promise<PreparedInteraction> {
    const { out } = this.#ctx;
    const noBrowser = this.#noBrowser;
    const browser = new BrowserOAuth({
      timeoutMs: this.#timeoutMs,
      logger: cliLogger(this.#ctx),
      ...(noBrowser && { openUrl: () => {} }),
    });
    const inner = await browser.prepare(options);
    return {
      redirectUri: inner.redirectUri,
      close: () => inner.close(),
      complete: async (authorizationUrl, { state, signal }) => {
        if (!noBrowser) {
          out.note('opening your browser to authorize; if it does not open, visit:');
          out.note(`  ${authorizationUrl.href}`);
          return inner.complete(authorizationUrl, { state, signal });
        }
        out.note('open this URL in a browser to authorize:');
        out.note(authorizationUrl.href);
        out.note(
          `then paste the URL the browser is sent to (${inner.redirectUri}?…) here, or just wait if that browser runs on this machine`,
        );
        const stop = new AbortController();
        const both = signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]);
        const fromLoopback = inner.complete(authorizationUrl, { state, signal: both });
        fromLoopback.catch(() => {});
        const pasted = readPasted(this.#ctx, state, both);
        try {
          return await Promise.race([fromLoopback, pasted]);
        } finally {
          stop.abort(new Error('authorization finished'));
        }
      },
    };
  }
}

/** Resolves with the first pasted line that is the redirect for `state`; never resolves when stdin ends without one. */
function readPasted(ctx: CliContext, state: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: ctx.stdin, terminal: false });
    let seen = 0;
    const done = (): void => {
      signal.removeEventListener('abort', done);
      rl.close();
      // Nothing more is read: a pipe left open by the caller must not keep the process alive.
      ctx.stdin.pause();
      (ctx.stdin as { unref?: () => void }).unref?.();
    };
    signal.addEventListener('abort', done, { once: true });
    rl.on('line', (raw) => {
      const line = raw.trim();
      if (line === '') return;
      if (++seen > MAX_PASTED_LINES) {
        done();
        return;
      }
      const query = queryOf(line);
      if (query?.get('state') === state) {
        done();
        resolve(line);
      } else {
        ctx.out.note('that is not the redirect of this authorization (its state differs); paste the URL again');
      }
    });
  });
}

function queryOf(text: string): URLSearchParams | undefined {
  if (URL.canParse(text)) return new URL(text).searchParams;
  if (text.includes('=')) return new URLSearchParams(text.startsWith('?') ? text.slice(1) : text);
  return undefined;
}
