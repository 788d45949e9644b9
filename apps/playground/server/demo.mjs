// The embedded demo server: its stdio entry "demo", its HTTP child ("demo-http") and the OAuth-protected endpoint.
// @ts-check
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const DEMO_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'demo-server', 'server.mjs');
const START_TIMEOUT_MS = 30_000;

/**
 * Starts the demo server's HTTP leg (`server.mjs http --oauth`) and resolves with the URL it prints
 * (`listening <url>`), or `undefined` when the script is missing or does not start (a warning says why).
 * @param {{ warn: (message: string) => void, verbose?: boolean }} options
 * @returns {Promise<{ url: string, stop: () => void, oauth: boolean } | undefined>}
 */
export async function startDemoHttp({ warn, verbose = false }) {
  if (!existsSync(DEMO_SCRIPT)) return undefined;
  const withOAuth = await spawnDemo(['http', '--oauth'], { warn, verbose });
  if (withOAuth !== undefined) return { ...withOAuth, oauth: true };
  warn('playground: starting the demo HTTP server without its OAuth-protected endpoint');
  const plain = await spawnDemo(['http'], { warn, verbose });
  return plain === undefined ? undefined : { ...plain, oauth: false };
}

/**
 * @param {string[]} args
 * @param {{ warn: (message: string) => void, verbose: boolean }} options
 * @returns {Promise<{ url: string, stop: () => void } | undefined>}
 */
async function spawnDemo(args, { warn, verbose }) {
  // The token stays ours: the demo gets the environment without it.
  const { PLAYGROUND_TOKEN: _token, ...env } = process.env;
  const child = spawn(process.execPath, [DEMO_SCRIPT, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
  child.stdin.on('error', () => {});
  let tail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (/** @type {string} */ s) => {
    tail = (tail + s).slice(-4096);
    if (verbose) process.stderr.write(`[demo-http] ${s}`);
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stop);
  child.once('exit', () => process.off('exit', stop));
  const url = await new Promise((resolve) => {
    const timer = setTimeout(
      () => done(undefined, `it printed no "listening <url>" within ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
    const lines = createInterface({ input: child.stdout });
    const done = (/** @type {string | undefined} */ value, /** @type {string} */ why = '') => {
      clearTimeout(timer);
      lines.removeAllListeners('line');
      child.off('exit', onExit);
      if (value === undefined) {
        warn(
          `playground: the demo HTTP server (${args.join(' ')}) did not start: ${why}${tail ? `\n${tail.trim()}` : ''}`,
        );
        stop();
      }
      resolve(value);
    };
    const onExit = (/** @type {number | null} */ code) => done(undefined, `it exited (code ${code})`);
    child.once('exit', onExit);
    lines.on('line', (line) => {
      const m = /^listening (\S+)/.exec(line.trim());
      if (m !== null) done(m[1]);
    });
  });
  // Keep reading stdout so the child never blocks on a full pipe.
  child.stdout.resume();
  return url === undefined ? undefined : { url, stop };
}

/** The demo's endpoints under the origin it printed: `/mcp` and `/mcp-protected`. @param {string} printed */
export function demoEndpoints(printed) {
  const origin = new URL(printed).origin;
  return { mcp: `${origin}/mcp`, protected: `${origin}/mcp-protected` };
}
