// The Timeline view in headless Chromium against the demo server: a call's bars, nested and timed; a task; errors.

/// <reference lib="dom" />
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  closeBrowser,
  launchBrowser,
  openPage,
  screenshot,
  startWithDemoOverStdio,
  type Playground,
} from './harness.js';

let pg: Playground | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  pg = await startWithDemoOverStdio();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await closeBrowser(browser);
  await pg?.stop();
}, 30_000);

async function tab(p: Page, name: string): Promise<Locator> {
  await p.getByTestId(`tab-${name}`).click();
  const root = p.getByTestId(`${name}-view`);
  await root.waitFor();
  return root;
}

async function runTool(p: Page, tool: string, fields: Record<string, string>, asTask = false): Promise<void> {
  const tools = await tab(p, 'tools');
  await tools.getByTestId(`tool-item-${tool}`).click();
  const form = tools.getByTestId('tool-form');
  await form.waitFor();
  for (const [name, value] of Object.entries(fields)) await form.getByTestId(`field-${name}`).fill(value);
  await form.getByTestId(asTask ? 'tool-run-task' : 'tool-run').click();
}

/** Each row of a call as `depth:kind:name`. */
const rowsOf = (call: Locator) =>
  call
    .getByTestId('timeline-row')
    .evaluateAll((rows) =>
      rows.map((r) => `${r.getAttribute('data-depth')}:${r.getAttribute('data-kind')}:${r.getAttribute('data-name')}`),
    );

/** The bars of a call: each one's box in the page (x and width in pixels). */
const barsOf = (call: Locator) =>
  call.getByTestId('timeline-bar').evaluateAll((bars) =>
    bars.map((b) => {
      const box = b.getBoundingClientRect();
      return { x: box.x, width: box.width };
    }),
  );

it('shows a call as bars offset by start, nested under it, with durations; a task’s polls and marks; errors', async () => {
  if (pg === undefined || browser === undefined) throw new Error('the playground or the browser did not start');
  const { context, page: p, errors } = await openPage(browser, pg);
  try {
    await p.getByTestId('servers-view').waitFor();
    await runTool(p, 'add', { a: '2', b: '3' });
    await expect.poll(() => p.getByTestId('tool-result').getByTestId('structured-content').textContent()).toMatch(/5/);

    // The timeline sits beside the protocol and network views.
    const tabs = await p.getByRole('tab').allTextContents();
    expect(tabs.slice(tabs.indexOf('Protocol'), tabs.indexOf('Protocol') + 3)).toEqual([
      'Protocol',
      'Network',
      'Timeline',
    ]);
    const root = await tab(p, 'timeline');
    const add = root.locator('[data-testid="timeline-call"][data-title="call tools/call add"]');
    await expect.poll(() => add.getAttribute('data-state')).toBe('ok');
    await expect.poll(() => rowsOf(add)).toContain('1:client:tools/call add');
    expect((await rowsOf(add))[0]).toBe('0:internal:playground call tools/call add');
    // The call's own bar spans the track; the request's starts later and is narrower.
    const [whole, ...requests] = await barsOf(add);
    expect(whole!.width).toBeGreaterThan(100);
    // Spans start at Date.now() (their durations are finer), so a request can seem to start or end up to 1 ms
    // outside its call: the slack is 1 ms in pixels, and one pixel for rounding.
    const wholeMs = Number.parseFloat((await add.getByTestId('timeline-duration').first().textContent()) ?? '');
    expect(wholeMs).toBeGreaterThan(0);
    const slack = whole!.width / wholeMs + 1;
    for (const bar of requests) {
      expect(bar.x).toBeGreaterThanOrEqual(whole!.x - slack);
      expect(bar.x + bar.width).toBeLessThanOrEqual(whole!.x + whole!.width + slack);
      expect(bar.width).toBeGreaterThan(0);
    }
    for (const d of await add.getByTestId('timeline-duration').allTextContents()) expect(d).toMatch(/^\d+(\.\d+)? ms$/);
    // The answer is marked on the call's bar.
    expect(await add.locator('[data-testid="timeline-mark"][data-event="answer"]').count()).toBe(1);
    // A row opens its attributes (no payloads: the tool's name, not its arguments).
    await add.locator('[data-testid="timeline-row"][data-name="tools/call add"]').click();
    expect(await add.getByTestId('timeline-details').textContent()).toContain('gen_ai.tool.name');

    // The connect that came before: server/discover under the playground's connect span.
    const connect = root.locator('[data-testid="timeline-call"][data-title="connect"]');
    await expect.poll(() => rowsOf(connect)).toEqual(['0:internal:playground connect', '1:client:server/discover']);
    await screenshot(p, 'timeline');

    // A task: the call, its polls and its update under it, its statuses and its input round as marks.
    await runTool(p, 'long-task', { steps: '3' }, true);
    const dialog = p.getByTestId('elicitation-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    await dialog.getByTestId('elicitation-field-proceed').check();
    await dialog.getByTestId('elicitation-accept').click();
    await dialog.waitFor({ state: 'hidden' });
    await tab(p, 'timeline');
    const task = root.locator('[data-testid="timeline-call"][data-title="call tools/call long-task"]');
    await expect.poll(() => task.getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    const taskRows = await rowsOf(task);
    expect(taskRows).toContain('1:client:tools/call long-task');
    expect(taskRows).toContain('1:client:tasks/get');
    expect(taskRows).toContain('1:client:tasks/update');
    const marks = await task
      .getByTestId('timeline-mark')
      .evaluateAll((ms) => ms.map((m) => m.getAttribute('data-event')));
    expect(marks).toContain('task status');
    expect(marks).toContain('input request');
    await screenshot(p, 'timeline-task');

    // A tool that fails: the call and its request in the error colour, with error.type.
    await runTool(p, 'fail-tool', {});
    await tab(p, 'timeline');
    const failed = root.locator('[data-testid="timeline-call"][data-title="call tools/call fail-tool"]');
    await expect.poll(() => failed.getAttribute('data-state')).toBe('error');
    expect(await failed.getByTestId('timeline-call-error').textContent()).toBe('tool_error');
    const failedRequest = failed.locator('[data-testid="timeline-row"][data-name="tools/call fail-tool"]');
    expect(await failedRequest.getAttribute('data-error')).toBe('tool_error');
    expect(await failedRequest.locator('.tl-bar').getAttribute('class')).toContain('error');
    expect(errors).toEqual([]);
  } catch (e) {
    await screenshot(p, 'timeline-failed').catch(() => {});
    if (e instanceof Error && errors.length > 0) e.message += `\n--- page errors ---\n${errors.join('\n')}`;
    throw e;
  } finally {
    await context.close();
  }
}, 90_000);
