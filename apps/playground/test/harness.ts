// Browser-test harness of the playground: Chromium, the playground server started and stopped, pages, screenshots.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const appDir = join(here, '..');
export const repoRoot = join(appDir, '..', '..');
export const screenshotDir = join(here, 'screenshots');
export const demoServerScript = join(appDir, 'demo-server', 'server.mjs');

const START_TIMEOUT_MS = 45_000;
const STOP_GRACE_MS = 3_000;
const TAIL_BYTES = 16 * 1024;

/** Debian's Chromium (`/usr/bin/chromium`) or `CHROMIUM_PATH`; throws with how to get it when neither is there. */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error(
    "the playground's browser tests need Chromium: install Debian's package (`sudo apt-get install -y chromium`, " +
      'which the test command does when /usr/bin/chromium is missing) or point CHROMIUM_PATH at a Chromium binary',
  );
}

/** The server, as built from server/*.ts. */
export const serverScript = join(appDir, 'dist', 'server', 'main.js');

/** The server and page must have been built (`pnpm --filter @mcpc/playground build`; the test command builds first). */
export function assertBuilt(): void {
  for (const file of [serverScript, join(appDir, 'dist', 'web', 'index.html')]) {
    if (!existsSync(file)) {
      throw new Error(
        `${file} is missing: build the playground first (npx -y pnpm@10.34.8 --filter @mcpc/playground... build, ` +
          'or the root test command, which builds everything)',
      );
    }
  }
}

export interface Playground {
  /** `http://127.0.0.1:PORT/#token=TOKEN`, as printed */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  token: string;
  process: ChildProcessWithoutNullStreams;
  /** stdout and stderr, last ~16 KiB */
  output(): string;
  /** GET/POST the API with the token (JSON in and out); throws on a non-2xx status */
  api<T = unknown>(path: string, body?: unknown, method?: string): Promise<T>;
  stop(): Promise<void>;
}

/** Kills the whole process group of a detached child: TERM, then KILL after a grace period. */
async function killTree(child: ChildProcessWithoutNullStreams, exited: Promise<unknown>): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    if (pid !== undefined) signalGroup(pid, 'SIGKILL'); // grandchildren may outlive it
    return;
  }
  signalGroup(pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((res) => {
    timer = setTimeout(res, STOP_GRACE_MS);
  });
  await Promise.race([exited, grace]);
  clearTimeout(timer);
  signalGroup(pid, 'SIGKILL');
  await Promise.race([exited, new Promise((res) => setTimeout(res, 1_000))]);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
}

const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
});

/**
 * Starts `node apps/playground/dist/server/main.js --no-open --port 0` with a fixed token and HOME/XDG dirs in a
 * fresh temporary directory, and waits for its `playground: http://127.0.0.1:PORT/#token=…` line.
 */
export async function startPlayground(extraArgs: string[] = []): Promise<Playground> {
  assertBuilt();
  const token = `test-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const home = await mkdtemp(join(tmpdir(), 'mcpc-playground-test-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PLAYGROUND_TOKEN: token,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_STATE_HOME: join(home, 'state'),
    BROWSER: 'true',
  };
  delete env.DISPLAY; // nothing to open a browser on
  const child = spawn(process.execPath, [serverScript, '--no-open', '--port', '0', ...extraArgs], {
    cwd: repoRoot,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true, // its own process group: the demo servers it spawns die with it
  }) as ChildProcessWithoutNullStreams;
  if (child.pid !== undefined) liveGroups.add(child.pid);
  child.stdin.on('error', () => {});
  let tail = '';
  const keep = (s: string) => {
    tail = (tail + s).slice(-TAIL_BYTES);
  };
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => {
    child.once('exit', (code, signal) => res({ code, signal }));
  });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await killTree(child, exited);
      if (child.pid !== undefined) liveGroups.delete(child.pid);
      child.stdin.destroy();
      await rm(home, { recursive: true, force: true }).catch(() => {});
    })();
    return stopping;
  };

  const url = await new Promise<string>((res, rej) => {
    const lines = createInterface({ input: child.stdout });
    let done = false;
    const fail = (why: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void stop().then(() => rej(new Error(`playground server: ${why}\n--- output tail ---\n${tail || '(empty)'}`)));
    };
    const timer = setTimeout(
      () => fail(`no "playground: http://127.0.0.1:PORT/#token=…" line within ${START_TIMEOUT_MS} ms`),
      START_TIMEOUT_MS,
    );
    lines.on('line', (line) => {
      keep(`[stdout] ${line}\n`);
      const m = /playground: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(line);
      if (m === null || done) return;
      done = true;
      clearTimeout(timer);
      res(m[1]!);
    });
    void exited.then(({ code, signal }) => fail(`exited (${signal ?? `code ${code}`}) before printing its URL`));
    child.once('error', (e) => fail(`could not spawn: ${e.message}`));
  });

  const parsed = new URL(url);
  const printedToken = new URLSearchParams(parsed.hash.slice(1)).get('token');
  if (printedToken !== token) {
    await stop();
    throw new Error(`playground printed token ${String(printedToken)}, expected PLAYGROUND_TOKEN ${token}`);
  }
  const origin = parsed.origin;
  const api = async <T>(path: string, body?: unknown, method?: string): Promise<T> => {
    const res = await fetch(new URL(path, origin), {
      method: method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        'x-playground-token': token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method ?? (body === undefined ? 'GET' : 'POST')} ${path}: ${res.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return { url, origin, port: Number(parsed.port), token, process: child, output: () => tail, api, stop };
}

/** A raw HTTP request with exactly these headers (fetch cannot set Host). */
export function rawRequest(
  port: number,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; body: string }> {
  return new Promise((res, rej) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, setHost: false, timeout: 5_000 }, (r) => {
      let body = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (body += c));
      r.on('end', () => res({ status: r.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 5 s`)));
    req.on('error', rej);
    req.end();
  });
}

/** Headless Chromium through playwright-core (`--no-sandbox` when running as root, which the sandbox refuses). */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return chromium.launch({
    executablePath,
    headless: true,
    timeout: 30_000,
    args: isRoot ? ['--no-sandbox'] : [],
  });
}

/** A fresh context and page on the playground's URL (token in the fragment), with console errors kept. */
export async function openPage(
  browser: Browser,
  pg: Playground,
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  await prepare?.(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(pg.url, { waitUntil: 'domcontentloaded' });
  return { context, page, errors };
}

/** Saves `apps/playground/test/screenshots/<name>.png` (git-ignored), full page. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true, timeout: 10_000 });
  return path;
}

/** Closes the browser, bounded: a browser that does not close in 5 s is killed. */
export async function closeBrowser(browser: Browser | undefined): Promise<void> {
  if (browser === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    browser.close().then(() => true),
    new Promise<boolean>((res) => {
      timer = setTimeout(() => res(false), 5_000);
    }),
  ]).catch(() => false);
  clearTimeout(timer);
  // Not closed in time: playwright-core kills the browsers it launched when this process exits.
  if (!closed) console.warn('chromium did not close within 5 s; left to playwright-core exit handler');
}

/** Polls `fn` until it returns a value that is not undefined/false, bounded in time. */
export async function until<T>(fn: () => Promise<T | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let i = 0; i < 10_000 && Date.now() < deadline; i++) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

/** A playground with no embedded demo, the demo server added over stdio as `demo` and connected. */
export async function startWithDemoOverStdio(): Promise<Playground> {
  const pg = await startPlayground(['--no-demo']);
  await pg.api('/api/servers', {
    kind: 'stdio',
    name: 'demo',
    command: process.execPath,
    args: [demoServerScript, 'stdio'],
  });
  await until(
    async () =>
      (await pg.api<{ id: string; state: string }[]>('/api/servers')).some(
        (s) => s.id === 'demo' && s.state === 'connected',
      ),
    'the demo server to connect',
    60_000,
  );
  return pg;
}
