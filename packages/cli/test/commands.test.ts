// End to end: the built `mcpc` against real servers, checking stdout, stderr and exit codes.
//
// The servers: server-everything on stdio, Streamable HTTP and SSE, and the SDK v2 server on 2026-07-28.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startFixture, type Fixture } from '../../../tooling/fixtures/http/spawn.mjs';
import { ExitCode } from '../src/exit-codes.js';
import { COMMANDS } from '../src/registry.js';
import { EVERYTHING, MODERN_SERVER, NODE, TASKS_SERVER, jsonLines, mcpc, seen, startMcpc } from './helpers.js';

const ESC = '\u001b';
const STDIO = ['--stdio', `${NODE} ${EVERYTHING} stdio`];
const MODERN_STDIO = ['--stdio', `${NODE} ${MODERN_SERVER} stdio`];

let http: Fixture;
let sse: Fixture;
let modern: Fixture;
let tasksServer: Fixture;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'mcpc-cmd-'));
  [http, sse, modern, tasksServer] = await Promise.all([
    startFixture('everything.mjs', ['streamableHttp']),
    startFixture('everything.mjs', ['sse']),
    startFixture(MODERN_SERVER, ['http']),
    startFixture(TASKS_SERVER, ['http']),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([http, sse, modern, tasksServer].map((f) => f?.stop()));
  rmSync(work, { recursive: true, force: true });
});

const json = <T = Record<string, unknown>>(text: string): T => JSON.parse(text) as T;
interface CallResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: unknown;
}
const text = (r: CallResult): string => r.content.map((c) => c.text ?? '').join('\n');

describe('targets: each transport and era', () => {
  const cases: { name: string; args: () => string[]; era: string; version: string; transport: string }[] = [
    {
      name: 'server-everything, --stdio "cmd"',
      args: () => STDIO,
      era: 'legacy',
      version: '2025-11-25',
      transport: 'stdio',
    },
    {
      name: 'server-everything, -- cmd',
      args: () => ['--', NODE, EVERYTHING, 'stdio'],
      era: 'legacy',
      version: '2025-11-25',
      transport: 'stdio',
    },
    {
      name: 'server-everything, Streamable HTTP',
      args: () => [http.url],
      era: 'legacy',
      version: '2025-11-25',
      transport: 'streamable-http',
    },
    {
      name: 'server-everything, SSE (detected)',
      args: () => [sse.url],
      era: 'legacy',
      version: '2025-11-25',
      transport: 'sse',
    },
    {
      name: 'server-everything, SSE (--transport sse)',
      args: () => ['--transport', 'sse', sse.url],
      era: 'legacy',
      version: '2025-11-25',
      transport: 'sse',
    },
    {
      name: 'SDK v2 server, Streamable HTTP',
      args: () => [modern.url],
      era: 'modern',
      version: '2026-07-28',
      transport: 'streamable-http',
    },
    {
      name: 'SDK v2 server, stdio',
      args: () => MODERN_STDIO,
      era: 'modern',
      version: '2026-07-28',
      transport: 'stdio',
    },
  ];

  for (const c of cases) {
    it(`info --json: ${c.name}`, async () => {
      // With `--`, the command comes first (everything after `--` is the server's command line).
      const argv = c.args().includes('--') ? ['info', '--json', ...c.args()] : [...c.args(), 'info', '--json'];
      const res = await mcpc(argv);
      expect(res.stderr).not.toMatch(/error/i);
      expect(res.code).toBe(0);
      const info = json<{ era: string; protocolVersion: string; transport: string; capabilities: object }>(res.stdout);
      expect(info.era).toBe(c.era);
      expect(info.protocolVersion).toBe(c.version);
      expect(info.transport).toBe(c.transport);
      expect(info.capabilities).toHaveProperty('tools');
    });

    it(`ping: ${c.name}`, async () => {
      const argv = c.args().includes('--') ? ['ping', ...c.args()] : [...c.args(), 'ping'];
      const res = await mcpc(argv);
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^pong \(\d+ ms\)\n$/);
      expect(res.stderr).toBe('');
    });
  }
});

describe('info', () => {
  it('legacy: name, protocol, transport, capabilities, instructions', async () => {
    const res = await mcpc(STDIO);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^mcp-servers\/everything \S+/);
    expect(res.stdout).toContain('protocol:     2025-11-25 (legacy, initialize)');
    expect(res.stdout).toContain('transport:    stdio');
    expect(res.stdout).toMatch(/capabilities: .*tools \(listChanged\).*resources \(subscribe, listChanged\)/);
    expect(res.stdout).toMatch(/instructions:\n {2}# Everything Server/);
    expect(res.stderr).toBe('');
  });

  it('modern: 2026-07-28, stateless, instructions', async () => {
    const res = await mcpc([modern.url, 'info']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^sdk-modern 2\.4\.0\n/);
    expect(res.stdout).toContain('protocol:     2026-07-28 (modern, stateless)');
    expect(res.stdout).toContain('transport:    streamable-http');
    expect(res.stdout).toContain('instructions:\n  A dual-era fixture server');
    // No library deprecation notice (onSampling) for the person at the terminal.
    expect(res.stderr).toBe('');
  });

  it('--json on the modern server carries serverInfo and extensions', async () => {
    const res = await mcpc([modern.url, '--json']);
    expect(res.code).toBe(0);
    const info = json<{ serverInfo: { name: string }; extensions: unknown[]; instructions: string }>(res.stdout);
    expect(info.serverInfo.name).toBe('sdk-modern');
    expect(Array.isArray(info.extensions)).toBe(true);
    expect(info.instructions).toBe('A dual-era fixture server');
  });
});

describe('tools and tool', () => {
  it('tools: each with its call signature, then what it does', async () => {
    const res = await mcpc([...STDIO, 'tools']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^echo\(message: string\).*\n {2}Echoes back the input string/m);
    expect(res.stdout).toMatch(/^get-sum\(a: number, b: number\)/m);
    expect(res.stdout).toMatch(/^simulate-research-query\(topic: string.*\) .*\[task/m);
    expect(res.stdout).not.toContain('input:');
  });

  it('tools --schema shows the input schemas', async () => {
    const res = await mcpc([http.url, 'tools', '--schema']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^ {2}input: +\{.*"message"/m);
  });

  it('tools --json parses, with input schemas and task support', async () => {
    const res = await mcpc([modern.url, 'tools', '--json']);
    expect(res.code).toBe(0);
    const list = json<{ name: string; inputSchema: { properties?: object }; taskSupport: string }[]>(res.stdout);
    const add = list.find((t) => t.name === 'add');
    expect(add?.inputSchema.properties).toHaveProperty('a');
    expect(list.map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'slow', 'progress', 'mutate']));
  });

  it('tool echo: schema, arguments, task support', async () => {
    const res = await mcpc([...STDIO, 'tool', 'echo']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^echo — Echo Tool\n/);
    expect(res.stdout).toContain('arguments:    message*  (* required)');
    expect(res.stdout).toContain('input schema:');
    expect(res.stdout).toMatch(/task support: forbidden/);
    const j = await mcpc([...STDIO, 'tool', 'echo', '--json']);
    expect(json<{ name: string; taskSupport: string }>(j.stdout)).toMatchObject({
      name: 'echo',
      taskSupport: 'forbidden',
    });
  });

  it('tool <unknown>: exit 2, says how to list them', async () => {
    const res = await mcpc([...STDIO, 'tool', 'no-such-tool']);
    expect(res.code).toBe(ExitCode.Usage);
    expect(res.stderr).toContain('the server has no tool "no-such-tool"');
    expect(res.stderr).toMatch(/hint: .*tools/);
  });
});

describe('call', () => {
  it('call echo message=hi (human)', async () => {
    const res = await mcpc([...STDIO, 'call', 'echo', 'message=hi']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('Echo: hi\n');
    expect(res.stderr).toBe('');
  });

  it('call echo --json over SSE', async () => {
    const res = await mcpc([sse.url, 'call', 'echo', 'message=hi', '--json']);
    expect(res.code).toBe(0);
    expect(text(json<CallResult>(res.stdout))).toBe('Echo: hi');
  });

  it('call get-sum a=2 b=3: key=value coerced to numbers by the schema', async () => {
    const res = await mcpc([http.url, 'call', 'get-sum', 'a=2', 'b=3']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('The sum of 2 and 3 is 5.');
    const j = await mcpc([http.url, 'call', 'get-sum', 'a=2', 'b=3', '--json']);
    expect(text(json<CallResult>(j.stdout))).toContain('is 5');
  });

  it('integer schema: steps=1 is sent as an integer, steps=1.5 is refused (exit 2)', async () => {
    const ok = await mcpc([tasksServer.url, 'call', 'job', 'steps=1', '--json']);
    expect(ok.code).toBe(0);
    expect(text(json<CallResult>(ok.stdout))).toBe('done');
    const bad = await mcpc([tasksServer.url, 'call', 'job', 'steps=1.5']);
    expect(bad.code).toBe(ExitCode.Usage);
    expect(bad.stderr).toContain('argument "steps" must be a whole number, not "1.5"');
  });

  it('a=x on a number: exit 2, says how to pass JSON', async () => {
    const res = await mcpc([...STDIO, 'call', 'get-sum', 'a=x', 'b=3']);
    expect(res.code).toBe(ExitCode.Usage);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('error: argument "a" must be of type number, not "x" (use a:=<json> to pass JSON)');
  });

  it('a missing required argument: exit 2 before anything is called', async () => {
    const res = await mcpc([...STDIO, 'call', 'get-sum', 'a=1']);
    expect(res.code).toBe(ExitCode.Usage);
    expect(res.stderr).toContain('missing required argument: b');
  });

  it('key:=json', async () => {
    const res = await mcpc([...STDIO, 'call', 'get-sum', 'a:=2', 'b:=40']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('The sum of 2 and 40 is 42.');
    const bad = await mcpc([...STDIO, 'call', 'get-sum', 'a:={', 'b:=1']);
    expect(bad.code).toBe(ExitCode.Usage);
    expect(bad.stderr).toContain('argument "a" is not valid JSON');
  });

  it("--args '{…}'", async () => {
    const res = await mcpc([...STDIO, 'call', 'get-sum', '--args', '{"a":1,"b":2}']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('The sum of 1 and 2 is 3.');
  });

  it('--args-file f.json, and key=value over it', async () => {
    const file = join(work, 'args.json');
    writeFileSync(file, JSON.stringify({ a: 5, b: 6 }));
    const res = await mcpc([...STDIO, 'call', 'get-sum', '--args-file', file]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('The sum of 5 and 6 is 11.');
    const over = await mcpc([...STDIO, 'call', 'get-sum', '--args-file', file, 'b=10']);
    expect(over.stdout).toContain('The sum of 5 and 10 is 15.');
    const missing = await mcpc([...STDIO, 'call', 'get-sum', '--args-file', join(work, 'nope.json')]);
    expect(missing.code).toBe(ExitCode.Usage);
    expect(missing.stderr).toContain('cannot read --args-file');
  });

  it('--args-file - reads stdin', async () => {
    const res = await mcpc([...STDIO, 'call', 'echo', '--args-file', '-'], { input: '{"message":"from stdin"}' });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('Echo: from stdin\n');
  });

  it('a tool result with isError: exit 6, the result still printed', async () => {
    // server-everything answers a schema-breaking argument with an isError result.
    const res = await mcpc([...STDIO, 'call', 'get-sum', 'a:="x"', 'b=1']);
    expect(res.code).toBe(ExitCode.ToolError);
    expect(res.stdout).toMatch(/Input validation error/);
    const modernError = await mcpc([tasksServer.url, 'call', 'tool-error', '--json']);
    expect(modernError.code).toBe(ExitCode.ToolError);
    expect(json<CallResult>(modernError.stdout).isError).toBe(true);
  });

  it('an unknown tool: exit 2, a close name and the command that lists them', async () => {
    const res = await mcpc([...STDIO, 'call', 'ech']);
    expect(res.code).toBe(ExitCode.Usage);
    expect(res.stderr).toContain('error: the server has no tool "ech"; did you mean "echo"?');
    expect(res.stderr).toContain(`hint: run \`mcpc --stdio "${NODE} ${EVERYTHING} stdio" tools\` to list them`);
    const url = await mcpc([http.url, 'call', 'nope']);
    expect(url.code).toBe(ExitCode.Usage);
    expect(url.stderr).toContain(`hint: run \`mcpc ${http.url} tools\` to list them`);
  });

  it('the modern server: add a=2 b=3', async () => {
    const res = await mcpc([modern.url, 'call', 'add', 'a=2', 'b=3']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('5\n');
    const stdio = await mcpc([...MODERN_STDIO, 'call', 'add', 'a=2', 'b=3', '--json']);
    expect(stdio.code).toBe(0);
    expect(text(json<CallResult>(stdio.stdout))).toBe('5');
  });
});

describe('prompts', () => {
  it('prompts lists them with their arguments', async () => {
    const res = await mcpc([...STDIO, 'prompts']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^args-prompt +A prompt with two arguments.*\(city\*, state\)$/m);
    const j = await mcpc([modern.url, 'prompts', '--json']);
    expect(json<{ name: string }[]>(j.stdout).map((p) => p.name)).toContain('greet');
  });

  it('prompt with arguments', async () => {
    const res = await mcpc([...STDIO, 'prompt', 'args-prompt', 'city=Paris']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("What's weather in Paris?");
    const j = await mcpc([modern.url, 'prompt', 'greet', 'name=Ada', '--json']);
    expect(j.code).toBe(0);
    const got = json<{ messages: { role: string; content: { text: string } }[] }>(j.stdout);
    expect(got.messages[0]?.content.text).toBe('Hello, Ada!');
  });
});

describe('resources', () => {
  const blobUri = 'demo://resource/dynamic/blob/1';

  it('resources and templates', async () => {
    const res = await mcpc([...STDIO, 'resources']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^demo:\/\/resource\/static\/document\/architecture\.md +architecture\.md/m);
    const t = await mcpc([...STDIO, 'templates']);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('demo://resource/dynamic/text/{resourceId}');
    const tj = await mcpc([http.url, 'templates', '--json']);
    expect(json<{ uriTemplate: string }[]>(tj.stdout).map((x) => x.uriTemplate)).toContain(
      'demo://resource/dynamic/blob/{resourceId}',
    );
  });

  it('read <text uri>', async () => {
    const res = await mcpc([...STDIO, 'read', 'demo://resource/static/document/architecture.md']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^# Everything Server – Architecture/);
    const j = await mcpc([modern.url, 'read', 'config://app', '--json']);
    expect(json<{ uri: string; text: string }[]>(j.stdout)[0]?.text).toMatch(/^config read at \d+/);
  });

  it('read <blob uri> -o file: the bytes; without -o and not a TTY: the raw bytes on stdout', async () => {
    const j = await mcpc([http.url, 'read', blobUri, '--json']);
    expect(j.code).toBe(0);
    const [item] = json<{ blob: string }[]>(j.stdout);
    const expected = Buffer.from(item!.blob, 'base64');
    expect(expected.byteLength).toBeGreaterThan(0);
    // The blob embeds the time of reading: compare shapes across reads, bytes within one.
    const file = join(work, 'blob.bin');
    const o = await mcpc([http.url, 'read', blobUri, '-o', file]);
    expect(o.code).toBe(0);
    expect(o.stdout).toBe('');
    const written = readFileSync(file);
    expect(o.stderr).toBe(`wrote ${written.byteLength} bytes to ${file}\n`);
    expect(written.toString('utf8')).toMatch(/^Resource 1: This is a base64 blob/);
    const raw = await mcpc([http.url, 'read', blobUri]);
    expect(raw.code).toBe(0);
    expect(raw.stdoutBytes.toString('utf8')).toMatch(/^Resource 1: This is a base64 blob/);
    expect(raw.stdoutBytes.byteLength).toBe(written.byteLength);
    // A text resource to -o is its UTF-8 bytes.
    const doc = join(work, 'doc.md');
    const d = await mcpc([...STDIO, 'read', 'demo://resource/static/document/architecture.md', '-o', doc, '--json']);
    expect(d.code).toBe(0);
    const facts = json<{ bytes: number; items: number }>(d.stdout);
    expect(facts).toMatchObject({ items: 1 });
    expect(readFileSync(doc).byteLength).toBe(facts.bytes);
  });
});

describe('complete, ping, log-level', () => {
  it('complete a prompt argument', async () => {
    const res = await mcpc([...STDIO, 'complete', 'completable-prompt', 'department', 'E']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('Engineering\n');
    const j = await mcpc([http.url, 'complete', 'completable-prompt', 'department', '', '--json']);
    expect(json<{ values: string[] }>(j.stdout).values).toEqual(expect.arrayContaining(['Engineering', 'Sales']));
  });

  it('complete a resource template argument', async () => {
    const res = await mcpc([...STDIO, 'complete', 'demo://resource/dynamic/text/{resourceId}', 'resourceId', '1']);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')).toContain('1');
  });

  it('ping --json', async () => {
    const res = await mcpc([...STDIO, 'ping', '--json']);
    expect(res.code).toBe(0);
    expect(json<{ ok: boolean; ms: number }>(res.stdout)).toMatchObject({ ok: true });
  });

  it('log-level debug', async () => {
    const res = await mcpc([...STDIO, 'log-level', 'debug']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('log level set to debug\n');
    const j = await mcpc([http.url, 'log-level', 'debug', '--json']);
    expect(json(j.stdout)).toEqual({ level: 'debug' });
    const bad = await mcpc([...STDIO, 'log-level', 'loud']);
    expect(bad.code).toBe(ExitCode.Usage);
    expect(bad.stderr).toContain('usage: mcpc <target> log-level <debug|');
  });
});

describe('listen and subscribe (until Ctrl-C)', () => {
  it('listen --tools on the modern server: lines of JSON, list_changed after `mutate`, SIGINT ends with 0', async () => {
    const listener = startMcpc([modern.url, 'listen', '--tools'], { timeoutMs: 20_000 });
    await listener.waitFor(/subscriptions\/acknowledged/, 10_000);
    const mutate = await mcpc([modern.url, 'call', 'mutate']);
    expect(mutate.code).toBe(0);
    await listener.waitFor(/notifications\/tools\/list_changed/, 10_000);
    const res = await listener.interrupt();
    expect(res.code).toBe(0);
    const lines = jsonLines(res.stdout) as { server: string; method: string; params?: unknown }[];
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines) expect(typeof l.method).toBe('string');
    expect(lines.map((l) => l.method)).toContain('notifications/tools/list_changed');
    expect(res.stderr).not.toMatch(/error/i);
  });

  it('listen without a filter on the modern server: exit 2', async () => {
    const res = await mcpc([modern.url, 'listen']);
    expect(res.code).toBe(ExitCode.Usage);
    expect(res.stderr).toContain('say what to listen for');
  });

  it('subscribe <uri> on server-everything: bounded, SIGINT ends it with 0', async () => {
    const sub = startMcpc([...STDIO, 'subscribe', 'demo://resource/static/document/architecture.md', '-v'], {
      timeoutMs: 20_000,
    });
    await sub.waitFor(/subscribed to demo:/, 10_000, 'stderr');
    const res = await sub.interrupt();
    expect(res.code).toBe(0);
    // Only resources/updated notifications are printed, one JSON document per line.
    for (const l of jsonLines(res.stdout) as { method: string }[])
      expect(l.method).toBe('notifications/resources/updated');
  });
});

describe('tasks', () => {
  it('tasks call simulate-research-query --wait (a legacy task on server-everything)', async () => {
    const res = await mcpc([...STDIO, 'tasks', 'call', 'simulate-research-query', 'topic=x', '--wait'], {
      timeoutMs: 25_000,
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('# Research Report: x');
  }, 30_000);

  it('tasks list (legacy): exit 0, a JSON array', async () => {
    const res = await mcpc([http.url, 'tasks', 'list', '--json']);
    expect(res.code).toBe(0);
    expect(Array.isArray(json(res.stdout))).toBe(true);
  });

  it('tasks call (no --wait), get and cancel across runs on the 2026-07-28 tasks server', async () => {
    // 1,500 steps of 40 ms: a minute, so the task is still working when the third run cancels it, however loaded the machine.
    const created = await mcpc([tasksServer.url, 'tasks', 'call', 'job', 'steps=1500', '--json']);
    expect(created.code).toBe(0);
    const task = json<{ taskId: string; status: string; tool: string }>(created.stdout);
    expect(task.status).toBe('working');
    expect(task.tool).toBe('job');
    const got = await mcpc([tasksServer.url, 'tasks', 'get', task.taskId]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^${task.taskId} {2}working`));
    const cancelled = await mcpc([tasksServer.url, 'tasks', 'cancel', task.taskId, '--json']);
    expect(cancelled.code).toBe(0);
    expect(json<{ status: string }>(cancelled.stdout).status).toBe('cancelled');
  });

  it('tasks get <unknown id>: exit 5; tasks list on 2026-07-28: exit 5 with the reason', async () => {
    const unknown = await mcpc([tasksServer.url, 'tasks', 'get', 'no-such-task']);
    expect(unknown.code).toBe(ExitCode.Server);
    expect(unknown.stderr).toContain('is not known to the server');
    const list = await mcpc([tasksServer.url, 'tasks', 'list']);
    expect(list.code).toBe(ExitCode.Server);
    expect(list.stderr).toContain('has no tasks/list');
  });

  it('a task that fails: exit 5', async () => {
    const res = await mcpc([tasksServer.url, 'call', 'fail']);
    expect(res.code).toBe(ExitCode.Server);
    expect(res.stderr).toContain('job failed');
  });
});

describe('errors', () => {
  it('an unknown command: exit 2', async () => {
    const res = await mcpc([...STDIO, 'frobnicate']);
    expect(res.code).toBe(ExitCode.Usage);
    expect(res.stderr).toContain('error: unknown command "frobnicate"');
    expect(res.stderr).toContain('mcpc --help');
  });

  it('an unknown flag: exit 2', async () => {
    const res = await mcpc([...STDIO, 'ping', '--bogus']);
    expect(res.code).toBe(ExitCode.Usage);
    expect(res.stderr).toMatch(/--bogus/);
  });

  it('a closed port: exit 3, the hint names mcpc doctor', async () => {
    // Find a port nobody listens on: listen, note it, close.
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    const res = await mcpc([url, 'ping']);
    expect(res.code).toBe(ExitCode.Connect);
    expect(res.stderr).toMatch(/^error: could not connect/m);
    expect(res.stderr).toContain(`hint: run \`mcpc doctor ${url}\``);
    const j = await mcpc([url, 'ping', '--json']);
    expect(j.code).toBe(ExitCode.Connect);
    expect(j.stdout).toBe('');
  });

  it('--timeout on a slow tool: exit 8', async () => {
    const res = await mcpc([
      '--timeout',
      '1500',
      http.url,
      'call',
      'trigger-long-running-operation',
      'duration=10',
      'steps=5',
    ]);
    expect(res.code).toBe(ExitCode.Timeout);
    expect(res.stderr).toContain('timed out after 1500 ms');
    expect(res.stderr).toContain('--timeout');
  });

  describe('a server that answers 401', () => {
    let server: HttpServer;
    let url: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        req.resume();
        const port = (server.address() as { port: number }).port;
        res.writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource"`,
        });
        res.end('{"error":"unauthorized"}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('exit 4, the hint names mcpc login', async () => {
      const res = await mcpc([url, 'tools']);
      expect(res.code).toBe(ExitCode.AuthRequired);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain(`hint: run \`mcpc login ${url}\``);
    });
  });

  it("-H 'X-Test: 1' reaches the HTTP server", async () => {
    type Stats = { headers: { method: string; headers: Record<string, string> }[] };
    const marked = async (): Promise<string[]> =>
      ((await getJson(new URL('/_stats', modern.url))) as Stats).headers
        .filter((h) => h.headers['x-test'] === 'yes-1')
        .map((h) => h.method);
    expect(await marked()).toEqual([]);
    const res = await mcpc(['-H', 'X-Test: yes-1', modern.url, 'tools']);
    expect(res.code).toBe(0);
    // Every request carries it (on 2026-07-28 the first is server/discover, then tools/list).
    const methods = await marked();
    expect(methods).toContain('server/discover');
    expect(methods).toContain('tools/list');
  });
});

describe('help and terminals', () => {
  it('--help lists every command and the exit codes', async () => {
    const res = await mcpc(['--help']);
    expect(res.code).toBe(0);
    for (const c of COMMANDS) expect(res.stdout).toMatch(new RegExp(`^ {2}${c.name} +\\S`, 'm'));
    for (const code of Object.values(ExitCode)) expect(res.stdout).toMatch(new RegExp(`(^|\\s)${code} \\w`, 'm'));
    expect(res.stdout).toContain('mcpc login');
    expect(res.stderr).toBe('');
  });

  it('mcpc help call: usage and an example; every command has help', async () => {
    const res = await mcpc(['help', 'call']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Usage: mcpc <target> call <tool>');
    expect(res.stdout).toMatch(/Example:\n {2}mcpc \S+ call get-sum a=2 b=3/);
    const flag = await mcpc([...STDIO, 'call', '--help']);
    expect(flag.code).toBe(0);
    expect(flag.stdout).toBe(res.stdout);
    const unknown = await mcpc(['help', 'frobnicate']);
    expect(unknown.code).toBe(ExitCode.Usage);
  });

  it('no colour and no bars when stdout is not a terminal: no ESC in anything printed so far', async () => {
    // Without NO_COLOR too: not a TTY is enough.
    const plain = await mcpc([...STDIO, 'call', 'trigger-long-running-operation', 'duration=1', 'steps=3'], {
      env: { NO_COLOR: undefined },
    });
    expect(plain.code).toBe(0);
    const bad = await mcpc([...STDIO, 'call', 'get-sum', 'a=x', 'b=1'], { env: { NO_COLOR: undefined } });
    expect(bad.code).toBe(ExitCode.Usage);
    expect(seen.length).toBeGreaterThan(40);
    for (const r of seen) {
      expect(r.stdout).not.toContain(ESC);
      expect(r.stderr).not.toContain(ESC);
    }
  });
});
