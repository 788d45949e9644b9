// A server the reference names: @playwright/mcp over stdio, driving Debian's Chromium headless against a local page.
//
// @playwright/mcp is pinned in tooling/fixtures; the page is served on 127.0.0.1.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, stdio, textOf } from '@mcpc/client';

const CLI = fileURLToPath(new URL('../../../tooling/fixtures/node_modules/@playwright/mcp/cli.js', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let page: Server;
let url: string;
let dir: string;

beforeAll(async () => {
  page = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<title>mcpc page</title><h1>Hello from mcpc</h1><button>Press</button>'),
  );
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  // The server writes its snapshots under its working directory: a directory of the test's own.
  dir = mkdtempSync(join(tmpdir(), 'mcpc-playwright-'));
});
afterAll(() => {
  page?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('@playwright/mcp', () => {
  it('lists its browser tools and navigates a page', async () => {
    // Fails (does not skip) without Chromium: the test command installs it.
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM} (the test command installs it)`);
    const client = new Client({
      servers: [
        stdio({
          name: 'pw',
          command: process.execPath,
          args: [
            CLI,
            '--headless',
            '--isolated',
            '--browser',
            'chromium',
            '--executable-path',
            CHROMIUM,
            '--no-sandbox',
          ],
          cwd: dir,
        }),
      ],
    });
    try {
      await client.connect();
      const names = (await client.listTools()).map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['browser_navigate', 'browser_snapshot', 'browser_click']));
      const navigated = textOf(await client.callTool('browser_navigate', { url }));
      expect(navigated).toContain(`Page URL: ${url}`);
      expect(navigated).toContain('Page Title: mcpc page');
    } finally {
      await client.close();
    }
  }, 60_000);
});
