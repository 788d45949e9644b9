// A server the reference names: a FastMCP server (Python), over stdio in both eras and over Streamable HTTP.
//
// PyPI is out of reach of CI and Debian 12 ships pydantic 1, so this runs only where a Python that imports `fastmcp` is
// found: MCPC_FASTMCP_PYTHON, else python3 (see tooling/fixtures/python/README.md).
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, stdio, streamableHttp, textOf, type ServerConfig } from '@mcpc/client';

const SERVER = fileURLToPath(new URL('../../../tooling/fixtures/python/fastmcp_server.py', import.meta.url));
const PYTHON = process.env.MCPC_FASTMCP_PYTHON ?? 'python3';
const found = spawnSync(PYTHON, ['-c', 'import fastmcp; print(fastmcp.__version__)'], {
  encoding: 'utf8',
  timeout: 20_000,
});
const VERSION = found.status === 0 ? found.stdout.trim() : undefined;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

describe.skipIf(VERSION === undefined)(`FastMCP ${VERSION ?? '(not installed)'}`, () => {
  let http: ReturnType<typeof spawn> | undefined;
  let url = '';

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    http = spawn(PYTHON, [SERVER, 'http', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    // Uvicorn says it is up on stderr.
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`FastMCP did not start: ${seen.slice(-500)}`)), 30_000);
      http!.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('Uvicorn running')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }, 40_000);
  afterAll(() => {
    http?.kill();
  });

  const configs: [string, () => ServerConfig, string][] = [
    ['stdio (2026-07-28)', () => stdio({ name: 'py', command: PYTHON, args: [SERVER] }), '2026-07-28'],
    [
      'stdio (initialize)',
      () => stdio({ name: 'py', command: PYTHON, args: [SERVER], protocol: 'legacy' }),
      '2025-11-25',
    ],
    ['Streamable HTTP', () => streamableHttp({ name: 'py', url }), '2026-07-28'],
  ];

  describe.each(configs)('%s', (_label, config, revision) => {
    let client: Client;
    const elicited: string[] = [];
    beforeAll(async () => {
      client = new Client({
        servers: [config()],
        onElicitation: (request) => {
          elicited.push(request.message);
          return { action: 'accept', content: { value: 'Ada' } };
        },
      });
      await client.connect();
    }, 30_000);
    afterAll(() => client?.close());

    it('negotiates its revision and reads Pydantic schemas (enum, default, anyOf null, minLength)', async () => {
      const server = client.server('py');
      expect(server.protocolVersion).toBe(revision);
      expect(server.serverInfo.name).toBe('fastmcp-fixture');
      const weather = (await client.listTools()).find((t) => t.name === 'weather')!;
      expect(weather.inputSchema.properties).toMatchObject({
        city: { type: 'string', minLength: 1 },
        unit: { enum: ['celsius', 'fahrenheit'], default: 'celsius' },
        days: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      });
      expect(weather.annotations.readOnlyHint).toBe(true);
    });

    it('structured output passes its outputSchema in strict mode, wrapped scalars included', async () => {
      const strict = { validateStructuredContent: 'strict' } as const;
      const weather = await client.callTool('weather', { city: 'Oslo', unit: 'fahrenheit' }, strict);
      expect(weather.structuredContent).toEqual({ city: 'Oslo', degrees: 70.7, unit: 'fahrenheit' });
      const sum = await client.callTool('add', { a: 2, b: 3 }, strict);
      expect(sum.structuredContent).toEqual({ result: 5 });
    });

    it('reports progress and returns a tool error as a result', async () => {
      const seen: number[] = [];
      const counted = await client.callTool('count', { n: 3 }, { onProgress: (p) => seen.push(p.progress) });
      expect(textOf(counted)).toBe('counted 3');
      expect(seen).toEqual([1, 2, 3]);
      const failed = await client.callTool('fail', {});
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toContain('deliberate failure');
    });

    it('lists resources and templates, reads a template instance, and renders a prompt', async () => {
      expect((await client.listResources()).map((r) => r.uri)).toEqual(['data://greeting']);
      expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(['data://users/{user_id}']);
      const [user] = await client.readResource('data://users/42');
      expect(JSON.parse((user as { text: string }).text)).toEqual({ id: '42' });
      const prompt = await client.getPrompt('review', { code: 'x=1' });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Review this python: x=1' });
    });

    it('elicitation: answered through the handler where FastMCP can ask (initialize); a tool error where it cannot', async () => {
      elicited.length = 0;
      const result = await client.callTool('ask_name', {});
      if (revision === '2025-11-25') {
        expect(textOf(result)).toBe('hello Ada');
        expect(elicited).toEqual(['What is your name?']);
      } else {
        // FastMCP 4.0 has no multi round-trip elicitation on 2026-07-28: it says so as a tool error.
        expect(result.isError).toBe(true);
        expect(elicited).toEqual([]);
      }
    });
  });
});
