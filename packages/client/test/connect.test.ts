// `connect(target)`: command lines, URLs and several targets, the transport chosen, failures wrapped.
import { describe, expect, it } from 'vitest';
import { StdioTransport } from '@mcpc/transport-stdio';
import { Client, ConnectionError, connect, splitCommandLine, textOf, type ServerConfig, type Tool } from '@mcpc/client';
import type { ConvertibleTool } from '@mcpc/client/convert';
import { EVERYTHING, REVISIONS } from './helpers.js';

const REVISION_SERVER = new URL('../../../tooling/fixtures/servers/revision-server.mjs', import.meta.url).pathname;

describe('connect(target)', () => {
  it('connects a command line over stdio, naming the server after it', async () => {
    await using client = await connect(`${process.execPath} ${EVERYTHING} stdio`);
    expect(client.servers.map((s) => s.name)).toEqual(['server-everything']);
    expect(client.servers[0]!.state).toBe('connected');
    expect(textOf(await client.callTool('echo', { message: 'cmd' }))).toBe('Echo: cmd');
  });

  it('connects a stdio:// target, an argv array, and several targets at once', async () => {
    await using client = await connect([
      `stdio://${process.execPath} ${REVISION_SERVER} 2025-11-25`,
      [process.execPath, REVISION_SERVER, REVISIONS[0]],
    ]);
    expect(client.servers.map((s) => s.name)).toEqual(['revision-server', 'revision-server-2']);
    expect(client.servers.map((s) => s.protocolVersion)).toEqual(['2025-11-25', '2024-11-05']);
  });

  it('names a single target with { name }', async () => {
    await using client = await connect([process.execPath, REVISION_SERVER, '2025-06-18'], {
      name: 'rev',
      clientInfo: { name: 'x', version: '1' },
    });
    expect(client.server('rev').protocolVersion).toBe('2025-06-18');
  });

  it('refuses unknown schemes, and a forced HTTP transport for a command line', async () => {
    await expect(connect('ws://localhost:1')).rejects.toThrow(TypeError);
    await expect(connect('npx some-server', { transport: 'sse' })).rejects.toThrow(/needs an http\(s\) URL/);
  });

  it('wraps a server that exits during the handshake in ConnectionError, with the cause', async () => {
    const error = await connect([process.execPath, '-e', 'process.exit(3)']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      /^could not connect to server "[^"]+": the server process exited \(code 3\) during the handshake; run the command yourself/,
    );
    expect((error as ConnectionError).code).toBe('MCPC_SERVER_EXITED');
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('accepts any config with an open() factory: the seam the HTTP transports will use', async () => {
    const config: ServerConfig = {
      name: 'factory',
      kind: 'custom',
      label: 'revision-server',
      open: async () => new StdioTransport({ command: process.execPath, args: [REVISION_SERVER, '2025-11-25'] }),
    };
    await using client = await connect(config);
    expect(client.server('factory').protocolVersion).toBe('2025-11-25');
  });
});

describe('splitCommandLine', () => {
  it('splits like a POSIX shell, without expanding anything', () => {
    expect(splitCommandLine(`npx -y "@scope/my server" --flag='a b' plain\\ space $HOME ""`)).toEqual([
      'npx',
      '-y',
      '@scope/my server',
      '--flag=a b',
      'plain space',
      '$HOME',
      '',
    ]);
    expect(() => splitCommandLine('node "unterminated')).toThrow(/unterminated quote/);
  });
});

describe('conversions through the client', () => {
  it('converts the tools of every server, and the AI SDK tools call back through the client', async () => {
    await using client = new Client({
      servers: [
        {
          name: 'rev',
          transport: new StdioTransport({ command: process.execPath, args: [REVISION_SERVER, '2025-11-25'] }),
        },
      ],
    });
    const tools = await client.listTools();
    const convertible: readonly ConvertibleTool[] = tools satisfies readonly Tool[];
    expect(convertible.length).toBeGreaterThan(0);
    expect((await client.toOpenAITools()).map((t) => t.function.name)).toContain('echo');
    expect((await client.toAnthropicTools(tools.filter((t) => t.name === 'add'))).map((t) => t.name)).toEqual(['add']);
    expect((await client.toGoogleTools())[0]?.functionDeclarations?.length).toBe(tools.length);
    const set = await client.toAiSdkTools();
    const result = await set['echo']!.execute!({ message: 'via ai sdk' }, { toolCallId: '1', messages: [] } as never);
    expect(textOf(result as never)).toBe('Echo: via ai sdk');
  });
});
