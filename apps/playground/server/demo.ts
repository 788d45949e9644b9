// The embedded demo server: its stdio entry "demo", its HTTP child ("demo-http") and the OAuth-protected endpoint.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { APP_DIR } from './paths.js';

export const DEMO_SCRIPT = join(APP_DIR, 'demo-server', 'server.mjs');
const START_TIMEOUT_MS = 30_000;

interface DemoOptions {
  warn: (message: string) => void;
  verbose?: boolean;
}

/**
 * Starts the demo server's HTTP leg (`server.mjs http --oauth`) and resolves with the URL it prints
 * (`listening <url>`), or `undefined` when the script is missing or does not start (a warning says why).
 */
export async function startDemoHttp({
  warn,
  verbose = false,
}: DemoOptions): Promise<{ url: string; stop: () => void; oauth: boolean } | undefined> {
  if (!existsSync(DEMO_SCRIPT)) return undefined;
  const withOAuth = await spawnDemo(['http', '--oauth'], { warn, verbose });
  if (withOAuth !== undefined) return { ...withOAuth, oauth: true };
  warn('playground: starting the demo HTTP server without its OAuth-protected endpoint');
  const plain = await spawnDemo(['http'], { warn, verbose });
  return plain === undefined ? undefined : { ...plain, oauth: false };
}

async function spawnDemo(
  args: string[],
  { warn, verbose }: Required<DemoOptions>,
): Promise<{ url: string; stop: () => void } | undefined> {
  // The token stays ours: the demo gets the environment without it.
  const { PLAYGROUND_TOKEN: _token, ...env } = process.env;
  const child = spawn(process.execPath, [DEMO_SCRIPT, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
  child.stdin.on('error', () => {});
  let tail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    tail = (tail + s).slice(-4096);
    if (verbose) process.stderr.write(`[demo-http] ${s}`);
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stop);
  child.once('exit', () => process.off('exit', stop));
  const url = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(
      () => done(undefined, `it printed no "listening <url>" within ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
    const lines = createInterface({ input: child.stdout });
    const done = (value: string | undefined, why = '') => {
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
    const onExit = (code: number | null) => done(undefined, `it exited (code ${code})`);
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

/** The demo's endpoints under the origin it printed: `/mcp` and `/mcp-protected`. */
export function demoEndpoints(printed: string): { mcp: string; protected: string } {
  const origin = new URL(printed).origin;
  return { mcp: `${origin}/mcp`, protected: `${origin}/mcp-protected` };
}
