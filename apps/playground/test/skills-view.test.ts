// The Skills view in headless Chromium against the demo server: listing, entry, an approved load step by step, files.

/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
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

const stepStates = (p: Page, testid: string) =>
  p
    .getByTestId(testid)
    .locator('li')
    .evaluateAll((lis) => lis.map((li) => `${li.getAttribute('data-step')}:${li.getAttribute('data-state')}`));

it('lists the skills, loads one approved in the page with each step verified, reads its files, and shows a lying digest refused', async () => {
  if (pg === undefined || browser === undefined) throw new Error('the playground or the browser did not start');
  const { context, page: p, errors } = await openPage(browser, pg);
  try {
    await p.getByTestId('tab-skills').click();
    const root = p.getByTestId('skills-view');
    await root.waitFor();

    // The listing: labels (two "hotfix" skills told apart), file counts and sizes.
    await root.getByTestId('skill-item-pdf-forms').waitFor();
    await expect.poll(() => root.getByTestId('skill-item-pdf-forms').textContent()).toContain('5 files · 486 B');
    await root.getByTestId('skill-item-demo:release/hotfix').waitFor();
    await root.getByTestId('skill-item-demo:acme/support/hotfix').waitFor();

    // The entry: files with digests, allowed-tools shown to the approver; nothing loads before the approval.
    await root.getByTestId('skill-item-pdf-forms').click();
    const panel = root.getByTestId('skill-panel');
    await expect.poll(() => panel.getByTestId('skill-files').locator('tbody tr').count()).toBe(5);
    expect(await panel.getByTestId('skill-allowed-tools').textContent()).toContain('Bash(python:*) Read');
    expect(await panel.getByTestId('skill-load').isDisabled()).toBe(true);
    await panel.getByTestId('skill-approve').check();
    await panel.getByTestId('skill-load').click();
    await expect
      .poll(() => stepStates(p, 'skill-steps'))
      .toEqual([
        'approval:passed',
        'listed:passed',
        'read:passed',
        'size:passed',
        'digest:passed',
        'frontmatter:passed',
      ]);
    expect(await panel.getByTestId('skill-file-SKILL.md').getAttribute('data-state')).toBe('verified');
    // SKILL.md rendered as elements: the heading is an element, the link a link.
    const md = panel.getByTestId('skill-md');
    expect(await md.locator('h3', { hasText: 'PDF forms' }).count()).toBe(1);
    expect(await md.locator('a', { hasText: 'the forms guide' }).count()).toBe(0); // a relative link: not http(s)

    // A supporting file read, verified; its row's state follows.
    await panel.getByTestId('skill-file-references/api/fields.md').getByRole('button', { name: 'Read' }).click();
    await expect
      .poll(() => panel.getByTestId('skill-file-references/api/fields.md').getAttribute('data-state'))
      .toBe('verified');
    await expect.poll(() => stepStates(p, 'skill-file-steps')).toContain('digest:passed');

    // Directories: from the manifest, one level at a time.
    const dir = panel.getByTestId('skill-directory');
    await dir.getByTestId('skill-dir-references').click();
    await dir.getByTestId('skill-dir-api').waitFor();
    await screenshot(p, 'skills-view');

    // A server's text never becomes HTML: hello-world's <script> is shown as text.
    await root.getByTestId('skill-item-hello-world').click();
    await panel.getByTestId('skill-approve').check();
    await panel.getByTestId('skill-load').click();
    await expect
      .poll(() => panel.getByTestId('skill-md').textContent())
      .toContain('<script>alert("never run")</script>');
    expect(await panel.getByTestId('skill-md').locator('script').count()).toBe(0);

    // The lying digest: refused at the digest step, its text not shown.
    await root.getByTestId('skill-item-lying-digest').click();
    await panel.getByTestId('skill-approve').check();
    await panel.getByTestId('skill-load').click();
    await expect.poll(() => p.getByTestId('skill-steps').getAttribute('data-outcome')).toBe('refused');
    expect(await stepStates(p, 'skill-steps')).toContain('digest:failed');
    expect(await p.getByTestId('skill-steps-refused').textContent()).toContain('MCPC_SKILL_VERIFICATION_FAILED');
    expect(await panel.getByTestId('skill-md').count()).toBe(0);
    expect(await panel.getByTestId('skill-file-SKILL.md').getAttribute('data-state')).toBe('refused');
    await screenshot(p, 'skills-view-lying-digest');

    // A dynamic skill: refused until allowed, then browsed through the server's directory read.
    await root.getByTestId('skill-item-daily-status').click();
    await panel.getByTestId('skill-approve').check();
    await panel.getByTestId('skill-load').click();
    await expect.poll(() => panel.getByTestId('skill-load-error').textContent()).toContain('dynamic');
    await panel.getByTestId('skill-allow-dynamic').check();
    await panel.getByTestId('skill-load').click();
    await expect.poll(() => p.getByTestId('skill-steps').getAttribute('data-outcome')).toBe('verified');
    expect(await stepStates(p, 'skill-steps')).toContain('digest:skipped');
    const browse = panel.getByTestId('skill-directory');
    await expect.poll(() => browse.textContent()).toContain('resources/directory/read');
    await browse.getByTestId('skill-dir-data').click();
    await browse.getByTestId('skill-dir-today.md').click();
    await expect.poll(() => panel.getByTestId('skill-file-body').textContent()).toContain('all systems normal');
    // The refused dynamic load's 422 is the browser's console line; nothing else went wrong in the page.
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  } catch (e) {
    await screenshot(p, 'skills-view-failed').catch(() => {});
    throw e;
  } finally {
    await context.close().catch(() => {});
  }
}, 90_000);
