// The playground in headless Chromium: every view of issue #17 driven through the page, and the API's refusals.

/// <reference lib="dom" />
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import {
  chromiumPath,
  closeBrowser,
  demoServerScript,
  launchBrowser,
  openPage,
  rawRequest,
  repoRoot,
  screenshot,
  startPlayground,
  until,
  type Playground,
} from './harness.js';

interface ServerView {
  id: string;
  name: string;
  kind: 'stdio' | 'url';
  target: string;
  state: string;
  era?: string;
  protocolVersion?: string;
}

const MODERN = '2026-07-28';
const HOSTILE_APPS = join(repoRoot, 'tooling', 'fixtures', 'stdio', 'hostile-apps.mjs');
const LEGACY = '2025-11-25';

let pg: Playground | undefined;
let browser: Browser | undefined;
const fixtures: Fixture[] = [];
let context: BrowserContext | undefined;
/** Why the playground or the browser could not start: every test fails with it (no silent skips). */
let setupError: Error | undefined;

beforeAll(async () => {
  try {
    chromiumPath(); // with how to install Chromium when it is missing
    pg = await startPlayground();
    browser = await launchBrowser();
    // The embedded demo, on stdio ("demo") and over HTTP ("demo-http"), must be up before the views have
    // something to show.
    const started = pg;
    await until(
      async () => {
        const servers = await started.api<ServerView[]>('/api/servers');
        const up = (name: string) => servers.some((s) => s.name === name && s.state === 'connected');
        return up('demo') && up('demo-http');
      },
      'the "demo" (stdio) and "demo-http" servers to connect',
      60_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n--- playground output ---\n${started.output()}`);
    });
  } catch (e) {
    setupError = e instanceof Error ? e : new Error(String(e));
  }
}, 120_000);

beforeEach(() => {
  if (setupError !== undefined) throw setupError;
});

/** The started playground and browser (beforeEach has thrown already if they did not start). */
function started(): { pg: Playground; browser: Browser } {
  if (pg === undefined || browser === undefined) throw setupError ?? new Error('the playground did not start');
  return { pg, browser };
}

afterEach(async () => {
  const c = context;
  context = undefined;
  await c?.close().catch(() => {});
});

afterAll(async () => {
  await closeBrowser(browser);
  await Promise.all(fixtures.splice(0).map((f) => f.stop()));
  await pg?.stop();
}, 30_000);

/** A fresh page on the playground for `fn`; when `fn` fails, a screenshot `<name>-failed.png` first. */
async function withPage(
  name: string,
  fn: (p: Page) => Promise<void>,
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<void> {
  const { pg, browser } = started();
  const opened = await openPage(browser, pg, prepare);
  context = opened.context;
  const p = opened.page;
  try {
    await p.getByTestId('servers-view').waitFor();
    await fn(p);
  } catch (e) {
    await screenshot(p, `${name}-failed`).catch(() => {});
    const errors = opened.errors.length > 0 ? `\n--- page errors ---\n${opened.errors.join('\n')}` : '';
    if (e instanceof Error) e.message += errors;
    throw e;
  }
}

/** Clicks the view's tab and waits for its root. */
async function view(p: Page, name: string): Promise<Locator> {
  await p.getByTestId(`tab-${name}`).click();
  const root = p.getByTestId(`${name}-view`);
  await root.waitFor();
  return root;
}

/** Picks the server the views act on (the page's server selector; options are server ids), once it is connected. */
async function selectServer(p: Page, id: string): Promise<void> {
  const select = p.getByTestId('server-select');
  await expect
    .poll(() => select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)), {
      timeout: 15_000,
    })
    .toContain(id);
  await select.selectOption(id);
  await expect.poll(() => p.getByTestId('selected-state').textContent(), { timeout: 15_000 }).toContain('connected');
}

/** Opens a tool's form in the tools view, on the given server. */
async function openTool(p: Page, server: string, tool: string): Promise<Locator> {
  const root = await view(p, 'tools');
  await selectServer(p, server);
  await root.getByTestId(`tool-item-${tool}`).click();
  const form = root.getByTestId('tool-form');
  await form.waitFor();
  return form;
}

/** Picks the option of a generated `<select>` whose label contains `text` (labels may be JSON: `"blue"`). */
async function pickOption(select: Locator, text: string): Promise<void> {
  const options = await select
    .locator('option')
    .evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, label: o.textContent ?? '' })));
  const option = options.find((o) => o.label.includes(text));
  if (option === undefined) throw new Error(`no option "${text}" in ${JSON.stringify(options)}`);
  await select.selectOption(option.value);
}

/** The values a `<progress>` shows over `ms`, sampled every 100 ms. */
async function sampleProgress(bar: Locator, ms: number): Promise<number[]> {
  const seen: number[] = [];
  const deadline = Date.now() + ms;
  for (let i = 0; i < 200 && Date.now() < deadline; i++) {
    const v = await bar.evaluate((e) => (e as HTMLProgressElement).value).catch(() => undefined);
    if (v !== undefined && seen.at(-1) !== v) seen.push(v);
    await new Promise((res) => setTimeout(res, 100));
  }
  return seen;
}

describe('playground in a real browser', () => {
  it('connects the demo on each era: stdio, HTTP modern and legacy, a stdio command added in the page', async () => {
    const { pg } = started();
    await withPage('servers', async (p) => {
      const root = await view(p, 'servers');
      const demo = root.getByTestId('server-row-demo');
      await expect.poll(() => demo.getAttribute('data-state'), { timeout: 15_000 }).toBe('connected');
      expect(await root.getByTestId('server-transport-demo').textContent()).toContain('stdio');
      expect(await root.getByTestId('server-protocol-demo').textContent()).toMatch(/\d{4}-\d{2}-\d{2}/);

      for (const era of ['modern', 'legacy'] as const) {
        const fixture = await startFixture(demoServerScript, ['http', '--era', era], { timeoutMs: 20_000 });
        fixtures.push(fixture);
        await root.getByTestId('add-url-input').fill(fixture.url);
        await root.getByTestId('add-url-submit').click();
        // A URL entry is named after its host: 127.0.0.1-PORT.
        const name = new URL(fixture.url).host.replace(':', '-');
        const row = root.getByTestId(`server-row-${name}`);
        await row.waitFor();
        await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
        expect(await row.getAttribute('data-era')).toBe(era);
        expect(await root.getByTestId(`server-era-${name}`).textContent()).toBe(era);
        expect(await root.getByTestId(`server-protocol-${name}`).textContent()).toBe(
          era === 'modern' ? MODERN : LEGACY,
        );
        expect(await root.getByTestId(`server-transport-${name}`).textContent()).toMatch(/http/i);
      }

      // And a stdio command typed into the page: the demo again, legacy era only.
      await root.getByTestId('add-stdio-command').fill(`${process.execPath} ${demoServerScript} stdio --era legacy`);
      await root.getByTestId('add-stdio-submit').click();
      const added = await until(
        async () =>
          (await pg.api<ServerView[]>('/api/servers')).find(
            (s) => s.kind === 'stdio' && s.target.includes('--era legacy'),
          ),
        'the stdio server added from the page',
      );
      const stdioRow = root.getByTestId(`server-row-${added.name}`);
      await expect.poll(() => stdioRow.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
      expect(await stdioRow.getAttribute('data-era')).toBe('legacy');
      expect(await root.getByTestId(`server-protocol-${added.name}`).textContent()).toBe(LEGACY);
      await screenshot(p, 'servers');
    });
  }, 60_000);

  it('fills and submits a tool form: structured output checked against the output schema', async () => {
    await withPage('tools', async (p) => {
      // The page checks the arguments it sends (one POST /api/validate a run); the result's check is the
      // client's, sent with the result, not a second round trip.
      let validations = 0;
      p.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/validate') validations++;
      });
      const form = await openTool(p, 'demo', 'add');
      await form.getByTestId('field-a').fill('2');
      await form.getByTestId('field-b').fill('3');
      await form.getByTestId('tool-run').click();
      const result = p.getByTestId('tool-result');
      await expect.poll(() => result.getByTestId('structured-content').textContent()).toMatch(/"sum":\s*5\b/);
      expect(await result.getAttribute('data-error')).toBe('false');
      const issues = result.getByTestId('structured-issues');
      await expect.poll(() => issues.getAttribute('data-valid')).toBe('true');
      expect(await issues.locator('li').count()).toBe(0);
      expect(validations).toBe(1);
      await screenshot(p, 'tools');

      const bad = await openTool(p, 'demo', 'bad-output');
      await bad.getByTestId('tool-run').click();
      const badIssues = p.getByTestId('tool-result').getByTestId('structured-issues');
      await expect.poll(() => badIssues.getAttribute('data-valid')).toBe('false');
      expect(await badIssues.locator('li').count()).toBeGreaterThan(0);
      expect(await badIssues.textContent()).toMatch(/count|label/);
      expect(validations).toBe(2);
      await screenshot(p, 'tools-output-issues');
    });
  }, 45_000);

  it('shows a progress bar that advances', async () => {
    await withPage('progress', async (p) => {
      const form = await openTool(p, 'demo', 'slow-count');
      await form.getByTestId('field-steps').fill('8');
      await form.getByTestId('field-delayMs').fill('300');
      await form.getByTestId('tool-run').click();
      const bar = p.getByTestId('progress-bar');
      await bar.waitFor();
      const seen = await sampleProgress(bar, 2_000);
      await screenshot(p, 'tools-progress');
      const positive = seen.filter((v) => v > 0);
      expect(positive.length, `progress values seen: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual(2);
      expect(positive.at(-1)!).toBeGreaterThan(positive[0]!);
      await expect
        .poll(() => p.getByTestId('tool-run-state').getAttribute('data-done'), { timeout: 15_000 })
        .toBe('true');
      expect(await p.getByTestId('progress-text').textContent()).toContain('8 / 8');
    });
  }, 45_000);

  it('answers an elicitation dialog raised mid-call, and the result echoes the answer', async () => {
    await withPage('elicitation', async (p) => {
      const form = await openTool(p, 'demo', 'ask-name');
      await form.getByTestId('tool-run').click();
      const dialog = p.getByTestId('elicitation-dialog');
      await dialog.waitFor();
      await dialog.getByTestId('elicitation-field-name').fill('Ada');
      await dialog.getByTestId('elicitation-field-age').fill('36');
      await pickOption(dialog.getByTestId('elicitation-field-color'), 'blue');
      await dialog.getByTestId('elicitation-field-subscribe').check();
      await screenshot(p, 'elicitation-dialog');
      // On a short window the form scrolls inside the dialog and its buttons stay on the screen.
      await p.setViewportSize({ width: 900, height: 320 });
      const accept = await dialog.getByTestId('elicitation-accept').boundingBox();
      expect(accept).not.toBeNull();
      expect(accept!.y + accept!.height).toBeLessThanOrEqual(320);
      await dialog.getByTestId('elicitation-accept').click();
      await dialog.waitFor({ state: 'hidden' });
      await expect
        .poll(() => p.getByTestId('tool-result').textContent(), { timeout: 15_000 })
        .toContain('Hello, Ada, 36 years old, likes blue, subscribed!');
    });
  }, 45_000);

  it('fills a prompt with completion on its arguments and gets it', async () => {
    await withPage('prompts', async (p) => {
      const root = await view(p, 'prompts');
      await selectServer(p, 'demo');
      await root.getByTestId('prompt-item-greeting').click();
      const form = root.getByTestId('prompt-form');
      await form.getByTestId('prompt-field-name').fill('Gr');
      const chips = form.getByTestId('prompt-completions-name');
      await expect.poll(() => chips.textContent(), { timeout: 10_000 }).toContain('Grace');
      await chips.getByRole('button', { name: 'Grace' }).click();
      expect(await form.getByTestId('prompt-field-name').inputValue()).toBe('Grace');
      await form.getByTestId('prompt-field-style').fill('pirate');
      await form.getByTestId('prompt-run').click();
      const result = root.getByTestId('prompt-result');
      await result.waitFor();
      expect(await result.getAttribute('data-error')).toBeNull();
      expect(await result.textContent()).toContain('Grace');
      await screenshot(p, 'prompts');
    });
  }, 30_000);

  it('reads a resource, and a subscription receives updates', async () => {
    await withPage('resources', async (p) => {
      const root = await view(p, 'resources');
      await selectServer(p, 'demo');
      await root.getByTestId('resource-item-demo://readme').click();
      await root.getByTestId('resource-read').click();
      const contents = root.getByTestId('resource-content');
      await contents.waitFor();
      expect(await contents.getAttribute('data-error')).toBeNull();
      expect(((await contents.textContent()) ?? '').length).toBeGreaterThan(20);
      await screenshot(p, 'resources');

      await root.getByTestId('resource-item-demo://counter').click();
      await root.getByTestId('resource-read').click();
      await expect.poll(() => root.getByTestId('resource-content').textContent()).toMatch(/counter \d+/);
      const subscribe = root.getByTestId('resource-subscribe');
      await subscribe.click();
      await expect.poll(() => subscribe.getAttribute('data-subscribed')).toBe('true');
      const updates = root.getByTestId('resource-updates').locator('li[data-uri="demo://counter"]');
      await expect.poll(() => updates.count(), { timeout: 15_000 }).toBeGreaterThan(0);
      const before = await updates.count();
      await expect.poll(() => updates.count(), { timeout: 15_000 }).toBeGreaterThan(before);
      await screenshot(p, 'resources-subscription');
      await subscribe.click();
    });
  }, 45_000);

  it('runs a task to completion, answering its input request in the page', async () => {
    await withPage('tasks', async (p) => {
      const form = await openTool(p, 'demo', 'long-task');
      await form.getByTestId('field-steps').fill('4');
      await form.getByTestId('tool-run-task').click();
      await expect
        .poll(() => p.getByTestId('tool-task-status').getAttribute('data-status'), { timeout: 15_000 })
        .toMatch(/working|input_required/);
      // Midway the task asks whether to carry on: the page raises the dialog.
      const dialog = p.getByTestId('elicitation-dialog');
      await dialog.waitFor({ timeout: 20_000 });
      await dialog.getByTestId('elicitation-field-proceed').check();
      await screenshot(p, 'tasks-input');
      await dialog.getByTestId('elicitation-accept').click();
      await dialog.waitFor({ state: 'hidden' });

      const tasks = await view(p, 'tasks');
      const row = tasks.locator('[data-testid^="task-row-"]').filter({ hasText: 'long-task' }).first();
      await row.waitFor();
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
      const result = row.locator('[data-testid^="task-result-"]');
      await result.waitFor();
      expect(await result.getAttribute('data-error')).toBe('false');
      expect(await result.textContent()).toContain('finished 4 steps');
      await screenshot(p, 'tasks');
    });
  }, 70_000);

  it('a task whose ttl runs out while its dialog is open: the dialog closes, the task reads expired', async () => {
    await withPage('tasks-expired', async (p) => {
      const form = await openTool(p, 'demo', 'long-task');
      await form.getByTestId('field-steps').fill('2');
      await form.getByTestId('field-ttlMs').fill('3000');
      await form.getByTestId('tool-run-task').click();
      const dialog = p.getByTestId('elicitation-dialog');
      await dialog.waitFor({ timeout: 15_000 });
      // Nobody answers. Before, the task read "input_required — waiting for your answer" for ever.
      await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
      await expect
        .poll(() => p.getByTestId('tool-task-status').getAttribute('data-status'), { timeout: 10_000 })
        .toBe('expired');
      expect(await p.getByTestId('tool-result').textContent()).toContain('MCPC_TASK_EXPIRED');
      const tasks = await view(p, 'tasks');
      const row = tasks.locator('[data-testid^="task-row-"][data-status="expired"]').first();
      await row.waitFor({ timeout: 10_000 });
      expect(await row.locator('button[data-testid^="task-cancel-"]').isDisabled()).toBe(true);
      expect(await row.textContent()).not.toContain('waiting for your answer');
    });
  }, 60_000);

  it('shows only the hints a tool declared, the rest marked as defaults', async () => {
    await withPage('tool-hints', async (p) => {
      await openTool(p, 'demo', 'add');
      const hints = p.getByTestId('tool-hints');
      // add declares readOnlyHint: true and nothing else.
      expect(await hints.getByTestId('hint-readOnlyHint').getAttribute('data-declared')).toBe('yes');
      expect(await hints.getByTestId('hint-readOnlyHint').textContent()).toBe('readOnlyHint: true');
      // Before: "destructiveHint: true" read as if the server had said so.
      expect(await hints.getByTestId('hint-destructiveHint').count()).toBe(0);
      expect(await hints.getByTestId('hint-openWorldHint').textContent()).toBe('openWorldHint: true (default)');
      await openTool(p, 'demo', 'echo');
      expect(await p.getByTestId('hint-destructiveHint').textContent()).toBe('destructiveHint: true (default)');
    });
  }, 45_000);

  it('never overflows sideways: an array field with many items on a 760- and a 360-pixel window', async () => {
    await withPage('array-overflow', async (p) => {
      const form = await openTool(p, 'demo', 'show-chart');
      for (let i = 0; i < 6; i++) await form.getByTestId('field-values-add').click();
      const sideways = () =>
        p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      for (const width of [760, 360]) {
        await p.setViewportSize({ width, height: 700 });
        expect(await sideways(), `overflow at ${width}px`).toBeLessThanOrEqual(0);
      }
      await screenshot(p, 'array-field-360');
    });
  }, 45_000);

  it('searches the tools by name, title and description', async () => {
    await withPage('tool-search', async (p) => {
      const root = await view(p, 'tools');
      await selectServer(p, 'demo');
      const items = root.locator('[data-testid^="tool-item-"]');
      await expect.poll(() => items.count()).toBeGreaterThan(3);
      const all = await items.count();
      await root.getByTestId('tools-search').fill('two numbers');
      await expect.poll(() => items.count()).toBe(1);
      expect(await items.first().getAttribute('data-testid')).toBe('tool-item-add');
      expect(await root.getByTestId('tools-search-count').textContent()).toBe(`1 of ${all}`);
      await root.getByTestId('tools-search').fill('LONG-TASK');
      await expect.poll(() => items.count()).toBe(1);
      await root.getByTestId('tools-search').fill('');
      await expect.poll(() => items.count()).toBe(all);
    });
  }, 45_000);

  it('shows a server connected when the list it loaded first arrives after the event that connected it', async () => {
    // Found in CI: GET /api/servers answered "connecting", the stream said "connected" first, the late answer
    // won, and the page showed "connecting" for good. Here every GET of the list is taken while the server is
    // connecting and handed to the page only once the server is connected (so after its event).
    const { pg } = started();
    const everything = join(
      repoRoot,
      'tooling/fixtures/node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    );
    const hold = async (context: BrowserContext) => {
      await context.route(/\/api\/servers$/, async (route) => {
        if (route.request().method() !== 'GET') return route.fallback();
        const response = await route.fetch();
        await until(
          async () =>
            (await pg.api<ServerView[]>('/api/servers')).find((s) => s.name === 'late' && s.state === 'connected'),
          'server "late" connected',
        );
        await new Promise((r) => setTimeout(r, 300));
        await route.fulfill({ response });
      });
    };
    await withPage(
      'late-list',
      async (p) => {
        await pg.api('/api/servers', {
          kind: 'stdio',
          name: 'late',
          command: process.execPath,
          args: [everything, 'stdio'],
        });
        const row = (await view(p, 'servers')).getByTestId('server-row-late');
        await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('connected');
        // And it stays so once the held answers are in.
        await new Promise((r) => setTimeout(r, 1_000));
        expect(await row.getAttribute('data-state')).toBe('connected');
      },
      hold,
    );
    await pg.api('/api/servers/late', undefined, 'DELETE');
  }, 60_000);

  it('offers roots: server-everything lists get-roots-list and reads back the roots saved in the page', async () => {
    const { pg } = started();
    const everything = join(
      repoRoot,
      'tooling/fixtures/node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    );
    await pg.api('/api/servers', {
      kind: 'stdio',
      name: 'everything',
      command: process.execPath,
      args: [everything, 'stdio'],
    });
    await withPage('roots', async (p) => {
      const roots = await view(p, 'roots');
      await roots.getByTestId('root-add').click();
      await roots.getByTestId('root-uri-0').fill('file:///tmp/mcpc-project');
      await roots.getByTestId('root-name-0').fill('project');
      await roots.getByTestId('roots-save').click();
      await expect.poll(() => roots.getByTestId('roots-saved').textContent()).toContain('project');
      // A root that is not file:// is refused with the reason.
      await roots.getByTestId('root-add').click();
      await roots.getByTestId('root-uri-1').fill('https://example.invalid/');
      await roots.getByTestId('roots-save').click();
      await expect.poll(() => roots.getByTestId('roots-error').textContent()).toContain('file://');
      await roots.getByTestId('root-remove-1').click();
      await screenshot(p, 'roots');

      const form = await openTool(p, 'everything', 'get-roots-list');
      await form.getByTestId('tool-run').click();
      await expect
        .poll(() => p.getByTestId('tool-result').textContent(), { timeout: 15_000 })
        .toContain('file:///tmp/mcpc-project');
    });
  }, 60_000);

  it('streams log messages, filters them by level, and sets the level the server sends from', async () => {
    await withPage('logs', async (p) => {
      const form = await openTool(p, 'demo', 'slow-count');
      await form.getByTestId('field-steps').fill('3');
      await form.getByTestId('field-delayMs').fill('50');
      await form.getByTestId('tool-run').click();
      await p.getByTestId('tool-result').waitFor({ timeout: 15_000 });
      const logs = await view(p, 'logs');
      const rows = logs.getByTestId('log-row');
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThan(0);
      const levels = await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-level')));
      const warnings = levels.filter((l) => l === 'warning').length;
      expect(warnings).toBeGreaterThan(0);
      expect(levels).toContain('debug');
      await logs.getByTestId('logs-shown-level').selectOption('warning');
      await expect.poll(() => rows.count()).toBe(warnings);
      await logs.getByTestId('logs-shown-level').selectOption('debug');
      await logs.getByTestId('logs-server-level').selectOption('error');
      await expect.poll(() => logs.getByTestId('logs-note').textContent()).toContain('error and above');
      await screenshot(p, 'logs');
    });
  }, 45_000);

  it('replays a request from the protocol view, and sends an edited one', async () => {
    await withPage('replay', async (p) => {
      const form = await openTool(p, 'demo', 'add');
      await form.getByTestId('field-a').fill('1');
      await form.getByTestId('field-b').fill('2');
      await form.getByTestId('tool-run').click();
      await expect.poll(() => p.getByTestId('structured-content').textContent()).toMatch(/"sum":\s*3\b/);
      const protocol = await view(p, 'protocol');
      const calls = protocol.locator('[data-testid="frame-row"][data-method="tools/call"][data-kind="request"]');
      await expect.poll(() => calls.count(), { timeout: 10_000 }).toBeGreaterThan(0);
      const before = await calls.count();
      await calls.last().getByTestId('frame-replay').first().click();
      const result = protocol.getByTestId('composer-result');
      await expect.poll(() => result.getAttribute('data-state'), { timeout: 10_000 }).toBe('ok');
      expect(await result.textContent()).toMatch(/"sum":\s*3\b/);
      await expect.poll(() => calls.count()).toBe(before + 1);

      await calls.last().getByTestId('frame-edit').first().click();
      const params = protocol.getByTestId('composer-params');
      const edited = JSON.parse(await params.inputValue()) as { arguments: { a: number; b: number } };
      // The client's own _meta keys are not carried over: the client writes them again.
      expect(JSON.stringify(edited)).not.toContain('io.modelcontextprotocol/');
      edited.arguments = { a: 40, b: 2 };
      await params.fill(JSON.stringify(edited));
      await protocol.getByTestId('composer-send').click();
      await expect.poll(() => result.textContent(), { timeout: 10_000 }).toMatch(/"sum":\s*42\b/);
      // Bad params are refused in the page, with the reason.
      await params.fill('[1, 2]');
      await protocol.getByTestId('composer-send').click();
      await expect.poll(() => result.textContent()).toContain('must be a JSON object');
      await screenshot(p, 'replay');
    });
  }, 45_000);

  it('switches between light and dark themes and keeps the choice across a reload', async () => {
    await withPage('theme', async (p) => {
      const theme = () => p.evaluate(() => document.documentElement.dataset.theme);
      const background = () => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
      await p.getByTestId('theme-select').selectOption('dark');
      expect(await theme()).toBe('dark');
      const dark = await background();
      await p.getByTestId('theme-select').selectOption('light');
      expect(await theme()).toBe('light');
      expect(await background()).not.toBe(dark);
      await p.getByTestId('theme-select').selectOption('dark');
      await p.reload();
      await p.getByTestId('servers-view').waitFor();
      expect(await theme()).toBe('dark');
      expect(await p.getByTestId('theme-select').inputValue()).toBe('dark');
      await screenshot(p, 'theme-dark');
    });
  }, 45_000);

  it('renders the MCP App in a sandboxed frame and round-trips a tool call from it', async () => {
    await withPage('mcp-app', async (p) => {
      const form = await openTool(p, 'demo', 'show-chart');
      const toggle = form.getByTestId('raw-json-toggle');
      if (!(await toggle.isChecked())) await toggle.check();
      await form.getByTestId('raw-json-editor').fill('{ "values": [2, 3, 7] }');
      await form.getByTestId('tool-run').click();
      const panel = p.getByTestId('app-panel');
      await panel.waitFor({ timeout: 20_000 });
      // The spec's sandbox proxy: a frame of another origin (allow-scripts allow-same-origin), holding the View in
      // an inner allow-scripts frame (an opaque origin).
      const iframe = panel.getByTestId('app-frame');
      await iframe.waitFor();
      expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
      const proxyOrigin = new URL((await iframe.getAttribute('src')) ?? '').origin;
      expect(proxyOrigin).not.toBe(new URL(p.url()).origin);
      const proxy = p.frameLocator('[data-testid="app-frame"]');
      const inner = proxy.getByTestId('app-view');
      await inner.waitFor({ timeout: 15_000 });
      expect(await inner.getAttribute('sandbox')).toBe('allow-scripts');
      const app = proxy.frameLocator('[data-testid="app-view"]');
      await app.getByTestId('chart').waitFor({ timeout: 15_000 });
      await app.getByTestId('chart-add').click();
      await expect.poll(() => app.getByTestId('chart-answer').textContent(), { timeout: 15_000 }).toMatch(/=\s*5\b/);
      const calls = p.locator('[data-testid="app-log-entry"][data-dir="in"][data-label*="tools/call"]');
      expect(await calls.count()).toBeGreaterThan(0);
      await p.getByTestId('app-log').locator('summary').click();
      await screenshot(p, 'mcp-app');
    });
  }, 45_000);

  it('keeps every MCP App under its policy, whatever comment, doctype or <meta> trick its HTML starts with', async () => {
    const { pg } = started();
    const hits: string[] = [];
    const beacon = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(204, { 'Access-Control-Allow-Origin': '*' }).end();
    });
    await new Promise<void>((resolve) => beacon.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    try {
      // Everything an app may try to reach: fetch, an image, a stylesheet, a beacon, a nested frame; then it says it ran.
      const body = (n: number): string =>
        `<script>fetch('${at}/fetch-${n}').catch(()=>{});new Image().src='${at}/image-${n}';` +
        `try{navigator.sendBeacon('${at}/beacon-${n}','x')}catch(e){}` +
        `parent.postMessage({jsonrpc:'2.0',method:'notifications/message',params:{level:'info',data:'ran-${n}'}},'*')</script>` +
        `<img src="${at}/img-${n}"><link rel="stylesheet" href="${at}/css-${n}">` +
        `<iframe srcdoc="<script>fetch('${at}/nested-${n}')</script>"></iframe>` +
        // A later `-->`: a host that looks for the end of a leading comment reads on to here.
        '<!-- end -->';
      const prefixes = [
        '<!-->',
        '<!--->',
        '<!-- x --!>',
        '<!---->-->',
        '<!DOCTYPE html><!-->',
        '\uFEFF  <!-->',
        '<!--[if IE]><!-->',
        '<?xml version="1.0"?--><!-->',
        '<![CDATA[-->]]>',
        '<!doctype html --><!-- -->',
        `<meta http-equiv="Content-Security-Policy" content="default-src *; script-src * 'unsafe-inline'; connect-src *; img-src *">`,
        `<base href="${at}/"><!-->`,
        '<HTML><HEAD><!--></HEAD>',
        `<script>document.write('<meta http-equiv=Content-Security-Policy content="connect-src *">')</script>`,
      ];
      const pages: unknown[] = prefixes.map((prefix, n) => `${prefix}${body(n)}`);
      // The control: an app that declares the beacon's origin may reach it, so a quiet beacon means something.
      const control = prefixes.length;
      pages.push({ html: body(control), csp: { connectDomains: [at], resourceDomains: [at] } });
      const [added] = await pg.api<ServerView[]>('/api/servers', {
        kind: 'stdio',
        name: 'hostile-apps',
        command: process.execPath,
        args: [HOSTILE_APPS],
        env: { HOSTILE_APPS: JSON.stringify(pages) },
      });
      await withPage('app-csp', async (p) => {
        for (let n = 0; n < pages.length; n++) {
          const form = await openTool(p, added!.id, `show-${n}`);
          await form.getByTestId('tool-run').click();
          const panel = p.getByTestId('app-panel');
          await expect
            .poll(() => panel.getByTestId('app-log').textContent(), { timeout: 20_000 })
            .toContain(`ran-${n}`);
        }
        // Whatever the apps sent has had time to arrive.
        await new Promise((r) => setTimeout(r, 1_500));
      });
      expect(hits.filter((h) => !h.endsWith(`-${control}`))).toEqual([]);
      expect(hits).toContain(`/fetch-${control}`);
    } finally {
      beacon.close();
    }
  }, 180_000);

  it('walks the OAuth debugger to a token against oidc-provider', async () => {
    const { pg } = started();
    // The playground registers the demo's OAuth-protected endpoint once oidc-provider is up (not connected).
    const protectedServer = await until(
      async () =>
        (await pg.api<ServerView[]>('/api/servers')).find((s) => s.kind === 'url' && /\/mcp-protected$/.test(s.target)),
      "the playground to register the demo's /mcp-protected endpoint",
      30_000,
    );
    await withPage('oauth', async (p) => {
      const root = await view(p, 'oauth');
      const urlInput = root.getByTestId('oauth-url');
      if ((await urlInput.inputValue()) !== protectedServer.target) await urlInput.fill(protectedServer.target);
      // The authorization step offers a link that opens a tab on oidc-provider, which logs the fixed account in
      // and consents for a browser that follows its redirects with cookies, and lands on the playground's
      // /oauth/callback; the run then goes on to the token, a call with it, and a refresh.
      const tabs: Page[] = [];
      context!.on('page', (tab) => tabs.push(tab));
      await root.getByTestId('oauth-start').click();
      await expect.poll(() => root.getByTestId('oauth-run-id').count()).toBeGreaterThan(0);
      const steps = root.getByTestId('oauth-step');
      const failed = root.locator('[data-testid="oauth-step"][data-ok="false"]');
      const finished = root.locator('[data-testid="oauth-step"][data-ok="true"][data-name="refresh"]');
      const link = root.getByTestId('oauth-authorize-link');
      const next = root.getByTestId('oauth-next');
      const deadline = Date.now() + 60_000;
      for (let i = 0; i < 120 && Date.now() < deadline; i++) {
        if ((await finished.count()) > 0 || (await failed.count()) > 0) break;
        if (tabs.length === 0 && (await link.count()) > 0) {
          await link.click();
          await expect.poll(() => tabs.length).toBeGreaterThan(0);
          // The tab follows the provider's redirects to the callback.
          await expect
            .poll(() => tabs[0]!.url(), { timeout: 20_000 })
            .toMatch(new RegExp(`^${pg.origin.replace(/[.]/g, '\\.')}/oauth/callback\\?`));
          await tabs[0]!.waitForLoadState('load').catch(() => {});
          await screenshot(tabs[0]!, 'oauth-callback');
        } else if (await next.isEnabled()) {
          await next.click().catch(() => {});
        }
        await p.waitForTimeout(250);
      }
      const all = await steps.evaluateAll((els) =>
        els.map((e) => ({
          name: e.getAttribute('data-name'),
          ok: e.getAttribute('data-ok'),
          text: (e.textContent ?? '').replace(/\s+/g, ' ').slice(0, 200),
        })),
      );
      await screenshot(p, 'oauth');
      expect(
        all.filter((s) => s.ok !== 'true'),
        JSON.stringify(all, null, 1),
      ).toEqual([]);
      // Issue #17's flow, in order (the debugger may add steps of its own in between).
      const order = [
        'challenge',
        'resource-metadata',
        'authorization-server-metadata',
        'registration',
        'pkce',
        'authorization',
        'iss-check',
        'token',
        'authenticated-call',
        'refresh',
      ];
      const names = all.map((s) => s.name);
      expect(names).toEqual(expect.arrayContaining(order));
      expect(order.map((n) => names.indexOf(n))).toEqual([...order.map((n) => names.indexOf(n))].sort((a, b) => a - b));
      expect(tabs.length, 'the authorization step opened a tab').toBe(1);
      // The PKCE verifier is shown as its first and last 4 characters, as the README promises (it was whole).
      const pkce = await root.locator('[data-testid="oauth-step"][data-name="pkce"]').textContent();
      expect(pkce).toMatch(/verifier [A-Za-z0-9_-]{4}…[A-Za-z0-9_-]{4} and its S256 challenge/);
      expect(pkce).not.toMatch(/verifier [A-Za-z0-9_-]{43}/);
      expect(await p.getByTestId('tab-oauth').textContent()).toBe('OAuth');
    });
  }, 90_000);

  it('shows a cancelled call as cancelled, not as a red error', async () => {
    await withPage('cancelled', async (p) => {
      const form = await openTool(p, 'demo', 'slow-count');
      await form.getByTestId('field-steps').fill('50');
      await form.getByTestId('field-delayMs').fill('300');
      await form.getByTestId('tool-run').click();
      await p.getByTestId('progress-bar').waitFor();
      await p.getByTestId('tool-cancel').click();
      const result = p.getByTestId('tool-result');
      await result.waitFor({ timeout: 15_000 });
      expect(await result.getAttribute('data-cancelled')).toBe('true');
      expect(await result.getAttribute('data-error')).toBe('false');
      expect(await result.textContent()).toMatch(/^Cancelled/);
    });
  }, 45_000);

  it('finds the tools/call request in the protocol view and its HTTP exchange in the network view', async () => {
    await withPage('protocol', async (p) => {
      // A call on the demo over HTTP: a tools/call frame and a POST with status 200.
      const form = await openTool(p, 'demo-http', 'add');
      await form.getByTestId('field-a').fill('4');
      await form.getByTestId('field-b').fill('5');
      await form.getByTestId('tool-run').click();
      await expect.poll(() => p.getByTestId('structured-content').textContent()).toMatch(/"sum":\s*9\b/);

      const protocol = await view(p, 'protocol');
      const call = protocol.locator('[data-testid="frame-row"][data-method="tools/call"][data-kind="request"]');
      await expect.poll(() => call.count(), { timeout: 15_000 }).toBeGreaterThan(0);
      // Paired with its response: a duration is shown.
      await expect.poll(() => call.last().getByTestId('frame-duration').count()).toBeGreaterThan(0);
      await screenshot(p, 'protocol');

      const network = await view(p, 'network');
      const ok = network.locator('[data-testid="http-row"][data-method="POST"][data-status="200"]');
      await expect.poll(() => ok.count(), { timeout: 15_000 }).toBeGreaterThan(0);
      // Each exchange says which JSON-RPC method it carried (it did not before).
      const carried = network.locator('[data-testid="http-row"][data-method="POST"][data-rpc="tools/call"]');
      await expect.poll(() => carried.count(), { timeout: 10_000 }).toBeGreaterThan(0);
      await screenshot(p, 'network');
    });
  }, 45_000);

  it('refuses the API without the token, from a foreign Origin, and with a foreign Host', async () => {
    const { pg, browser } = started();
    const host = `127.0.0.1:${pg.port}`;
    const withToken = await rawRequest(pg.port, '/api/servers', { host, 'x-playground-token': pg.token });
    expect(withToken.status).toBe(200);
    const noToken = await rawRequest(pg.port, '/api/servers', { host });
    expect(noToken.status).toBe(401);
    const wrongToken = await rawRequest(pg.port, '/api/servers', { host, 'x-playground-token': 'nope' });
    expect(wrongToken.status).toBe(401);
    const events = await rawRequest(pg.port, '/api/events', { host });
    expect(events.status).toBe(401);
    // Spawning a stdio command is an API call like any other.
    const spawnStdio = await rawRequest(pg.port, '/api/servers', { host, 'content-type': 'application/json' }, 'POST');
    expect(spawnStdio.status).toBe(401);
    const foreignOrigin = await rawRequest(pg.port, '/api/servers', {
      host,
      origin: 'http://evil.example',
      'x-playground-token': pg.token,
    });
    expect(foreignOrigin.status).toBe(403);
    // DNS rebinding: the right port under another name.
    const foreignHost = await rawRequest(pg.port, '/api/servers', {
      host: `evil.example:${pg.port}`,
      'x-playground-token': pg.token,
    });
    expect([403, 421]).toContain(foreignHost.status);
    // Static files need no token.
    expect((await rawRequest(pg.port, '/', { host })).status).toBe(200);

    // And from a page on another origin, in the browser: the request carries that page's Origin, and the
    // playground refuses it. (The route passes the browser's own request on and records the answer.)
    const other = await browser.newContext();
    try {
      const page = await other.newPage();
      await page.route('http://evil.test/', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>evil</title>' }),
      );
      const seen: { status: number; origin: string | undefined }[] = [];
      await page.route(`${pg.origin}/api/**`, async (route) => {
        const response = await route.fetch({ timeout: 5_000 });
        seen.push({ status: response.status(), origin: route.request().headers()['origin'] });
        await route.fulfill({ response });
      });
      await page.goto('http://evil.test/');
      await page.evaluate(async (url) => {
        await fetch(url).catch(() => undefined);
      }, `${pg.origin}/api/servers`);
      expect(seen).toEqual([{ status: 403, origin: 'http://evil.test' }]);
    } finally {
      await other.close();
    }
  });
});
