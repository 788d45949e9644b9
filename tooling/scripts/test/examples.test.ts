// Runs every example the way its header says to, with what it needs started and stopped, and checks what it prints.
//
// The examples are packages/*/examples/*.mjs and apps/examples/**/*.mjs. The list below must name exactly the examples
// on disk: a new example without an entry here fails.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVendorApi, type Vendor, type VendorApi } from './vendor-apis.js';

// The examples import the packages by name, so they load the built dist/: the test command
// (tooling/scripts/test.mjs) builds every package before vitest starts. Run the build first when running
// this file alone.
const root = fileURLToPath(new URL('../../..', import.meta.url));
// server-everything at the version apps/examples pins: the examples' default server, without a download.
const everything = join(
  dirname(
    createRequire(join(root, 'apps', 'examples', 'package.json')).resolve(
      '@modelcontextprotocol/server-everything/package.json',
    ),
  ),
  'dist',
  'index.js',
);
const RUN_TIMEOUT = 90_000;

interface Ctx {
  /** A directory of its own under the system's temp directory, removed afterwards. */
  readonly scratch: string;
  /** A PATH whose `npx -y @modelcontextprotocol/server-everything` runs the pinned copy. */
  readonly path: string;
  /** Loopback stand-ins for the model APIs the converter examples call. */
  readonly vendors: Record<Vendor, VendorApi>;
}
interface Run {
  readonly args?: readonly string[];
  /** Where to start it; by default the directory the example's header says. */
  readonly cwd?: (ctx: Ctx) => string;
  readonly env?: (ctx: Ctx) => Record<string, string>;
  readonly check: (stdout: string, ctx: Ctx) => void;
}
type Entry = Run | { readonly runBy: string };

const EXAMPLES: Record<string, Entry> = {
  'apps/examples/list-tools.mjs': {
    check: (out) => {
      expect(out).toMatch(/^mcp-servers\/everything \S+, protocol \d{4}-\d\d-\d\d\n/);
      expect(out).toMatch(/^ {2}echo +Echoes back the input string$/m);
    },
  },
  // Its header: start it from a directory outside the workspace, where npx finds no dev-tree copy.
  'packages/client/examples/everything.mjs': {
    cwd: (ctx) => ctx.scratch,
    check: (out) => {
      expect(out).toMatch(/^\d+ tools: .*\becho\b/m);
      expect(out).toMatch(/^Echo: Hello, MCP!$/m);
      expect(out).toMatch(/^The sum of 2 and 3 is 5\.$/m);
      expect(out).toMatch(/^progress 4\/4$/m);
      expect(out).toMatch(/^\S+: .+…$/m);
      // The server's requests reached the example's handlers, and their answers came back in the results.
      expect(out).toMatch(/^\[everything\] sampling request: .*Write a haiku about MCP$/m);
      expect(out).toMatch(/Silent pipes hum/);
      expect(out).toMatch(/^\[everything\] asks: .*\(fields: name, check/m);
      expect(out).toMatch(/Ada Lovelace/);
    },
  },
  // Its header: start it from a directory outside the workspace, where npx finds no dev-tree copy.
  'packages/client/examples/tracing.mjs': {
    cwd: (ctx) => ctx.scratch,
    check: (out) => {
      expect(out).toMatch(/^Echo: traced\nanswer the user \[INTERNAL\]\n/);
      expect(out).toMatch(
        /^ {2}tools\/call echo \[CLIENT\] mcp\.method\.name=tools\/call gen_ai\.tool\.name=echo network\.transport=pipe$/m,
      );
      expect(out).toMatch(
        /^ {2}tools\/call trigger-long-running-operation \[CLIENT\] .* events: mcp\.progress, mcp\.progress$/m,
      );
      expect(out).toMatch(
        /^the server asked: sampling\/createMessage \[SERVER\] mcp\.method\.name=sampling\/createMessage/m,
      );
    },
  },
  'packages/client/examples/structured-output.mjs': {
    cwd: (ctx) => ctx.scratch,
    check: (out) => {
      expect(out).toMatch(/^outputSchema: \{.*"type":"object"/m);
      expect(out).toMatch(/^valid structuredContent: \{/m);
      expect(out).toMatch(/^checked, never thrown: \{/m);
    },
  },
  'packages/client/examples/tasks.mjs': {
    cwd: () => root,
    check: (out) => {
      expect(out).toMatch(/^ {2}working\n {2}completed\ncallTool → done$/m);
      expect(out).toMatch(/^the task asks: give a$/m);
      expect(out).toMatch(/^finished: completed → \{"a":\{"v":"forty-two"\}\}$/m);
      expect(out).toMatch(/^restored from JSON → done$/m);
      expect(out).toMatch(/^cancel acknowledged \(status cancelled\)$/m);
      expect(out).toMatch(/^failed task: MCPC_TASK_FAILED \(-32603: boom\)$/m);
    },
  },
  'packages/client/examples/skills.mjs': {
    cwd: () => root,
    check: (out) => {
      expect(out).toMatch(/^git-workflow: 3 files, 246 bytes$/m);
      expect(out).toMatch(/^docs:acme\/billing\/refunds: 4 files, \d+ bytes$/m);
      expect(out).toMatch(/^approve git-workflow from docs\? allowed-tools: Bash\(git:\*\)$/m);
      expect(out).toMatch(/^skill:\/\/git-workflow\/references\/GUIDE.md: Branch from main\.$/m);
      expect(out).toMatch(/^refused: MCPC_SKILL_VERIFICATION_FAILED \(digest\)$/m);
    },
  },
  'packages/jsonrpc/examples/custom-transport.mjs': {
    args: [process.execPath, everything, 'stdio'],
    check: (out) => {
      expect(out).toMatch(/^connected to mcp-servers\/everything \S+ \(protocol 2025-11-25\)$/m);
      expect(out).toMatch(/^- echo$/m);
    },
  },
  // Its header: run it from the repository root.
  'packages/transport-stdio/examples/list-tools.mjs': {
    args: [process.execPath, everything, 'stdio'],
    cwd: () => root,
    check: (out) => {
      expect(out).toMatch(/^connected to mcp-servers\/everything \S+ \(protocol 2025-11-25\), pid \d+$/m);
      expect(out).toMatch(/^- echo: Echoes back the input string$/m);
      expect(out).toMatch(/^Echo: hello from mcpc$/m);
    },
  },
  // The converters, each driving one real tool call through a model API's own SDK, against a loopback
  // stand-in for that API (the SDK's base-URL variable points it there), and server-everything.
  'apps/examples/convert/openai.mjs': {
    env: (ctx) => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${ctx.vendors.openai.url}/v1` }),
    check: (out, ctx) =>
      convertedCall(out, ctx.vendors.openai, (body) =>
        (body.tools as { function: { name: string } }[]).map((t) => t.function.name),
      ),
  },
  'apps/examples/convert/anthropic.mjs': {
    env: (ctx) => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: ctx.vendors.anthropic.url }),
    check: (out, ctx) =>
      convertedCall(out, ctx.vendors.anthropic, (body) => (body.tools as { name: string }[]).map((t) => t.name)),
  },
  'apps/examples/convert/google.mjs': {
    env: (ctx) => ({ GEMINI_API_KEY: 'test-key', GOOGLE_API_KEY: '', GOOGLE_GEMINI_BASE_URL: ctx.vendors.google.url }),
    check: (out, ctx) =>
      convertedCall(out, ctx.vendors.google, (body) =>
        (body.tools as { functionDeclarations: { name: string }[] }[]).flatMap((t) =>
          t.functionDeclarations.map((d) => d.name),
        ),
      ),
  },
  'apps/examples/convert/ai-sdk.mjs': {
    env: (ctx) => ({ AI_GATEWAY_API_KEY: 'test-key', AI_GATEWAY_BASE_URL: `${ctx.vendors['ai-sdk'].url}/v4/ai` }),
    check: (out, ctx) =>
      convertedCall(out, ctx.vendors['ai-sdk'], (body) => (body.tools as { name: string }[]).map((t) => t.name)),
  },
  // Against oidc-provider and a protected MCP server, which that test starts and stops.
  'packages/oauth/examples/browser-login.mjs': { runBy: 'packages/oauth/test/readme.test.ts' },
  'packages/oauth/examples/steps.mjs': { runBy: 'packages/oauth/test/readme.test.ts' },
  // A page and a Worker: run in Chromium and workerd with the other web runs.
  'apps/examples/browser/app.mjs': { runBy: 'tooling/runtimes/test/web.test.ts' },
  'apps/examples/browser/sign-in.mjs': { runBy: 'tooling/runtimes/test/web.test.ts' },
  'apps/examples/worker/worker.mjs': { runBy: 'tooling/runtimes/test/web.test.ts' },
};

/**
 * The model API got server-everything's tools (converted) in both requests, and the second carried the
 * MCP tool's result: the answer the example printed quotes it.
 */
function convertedCall(out: string, api: VendorApi, toolNames: (body: Record<string, unknown>) => string[]): void {
  expect(api.requests).toHaveLength(2);
  for (const { body } of api.requests)
    expect(toolNames(body)).toEqual(
      expect.arrayContaining(['echo', 'get-sum'].map((n) => expect.stringMatching(new RegExp(n.replace('-', '[-_]'))))),
    );
  expect(out).toMatch(/The tool answered: .*The sum of 2 and 3 is 5\./);
}

const onDisk = (): string[] => {
  const packages = readdirSync(join(root, 'packages')).flatMap((pkg) => {
    const dir = join(root, 'packages', pkg, 'examples');
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.mjs'))
          .map((f) => `packages/${pkg}/examples/${f}`)
      : [];
  });
  const apps = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const path = join(dir, f);
      if (f === 'node_modules') return [];
      return statSync(path).isDirectory()
        ? apps(path)
        : f.endsWith('.mjs')
          ? [relative(root, path).split('\\').join('/')]
          : [];
    });
  return [...packages, ...apps(join(root, 'apps', 'examples'))].sort();
};

let ctx: Ctx;
beforeAll(async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'mcpc-examples-'));
  // Stands in for npx on the PATH: the one command the examples use is answered by the pinned server
  // (no registry, no version drift); anything else goes to the real npx.
  const bin = join(scratch, 'bin');
  const realNpx =
    (process.env.PATH ?? '')
      .split(delimiter)
      .map((d) => join(d, 'npx'))
      .find((p) => existsSync(p)) ?? 'npx';
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = "-y" ] && [ "$2" = "@modelcontextprotocol/server-everything" ]; then shift 2; exec '${process.execPath}' '${everything}' "$@"; fi\nexec '${realNpx}' "$@"\n`,
  );
  chmodSync(join(bin, 'npx'), 0o755);
  const vendors = {
    openai: await startVendorApi('openai'),
    anthropic: await startVendorApi('anthropic'),
    google: await startVendorApi('google'),
    'ai-sdk': await startVendorApi('ai-sdk'),
  };
  ctx = { scratch, path: `${bin}${delimiter}${process.env.PATH ?? ''}`, vendors };
});
afterAll(async () => {
  if (ctx === undefined) return;
  await Promise.all(Object.values(ctx.vendors).map((api) => api.close()));
  rmSync(ctx.scratch, { recursive: true, force: true });
});

/** Runs `file` with node; resolves with what it printed, or rejects (exit status, stderr) — killed if it hangs. */
function runExample(file: string, run: Run): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, file), ...(run.args ?? [])], {
      cwd: run.cwd?.(ctx) ?? dirname(join(root, file)),
      env: { ...process.env, PATH: ctx.path, ...run.env?.(ctx) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr = (stderr + chunk).slice(-8_000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT - 5_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${file} exited ${code ?? signal}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    });
  });
}

describe('the examples', () => {
  it('each one on disk has an entry here, and each entry an example on disk', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(onDisk());
  });

  for (const [file, entry] of Object.entries(EXAMPLES)) {
    if ('runBy' in entry) {
      it(`${file} is run by ${entry.runBy}`, () => {
        const runner = readFileSync(join(root, entry.runBy), 'utf8');
        expect(
          runner.includes(file) || runner.includes(`examples/${file.slice(file.lastIndexOf('/') + 1)}`),
          `${entry.runBy} names ${file}`,
        ).toBe(true);
      });
    } else {
      it(
        `${file} runs and prints what it should`,
        async () => {
          entry.check(await runExample(file, entry), ctx);
        },
        RUN_TIMEOUT,
      );
    }
  }
});
