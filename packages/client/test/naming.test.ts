// Server names derived from URLs: by host, path or port, never with credentials or unsafe characters.
import { describe, expect, it } from 'vitest';
import { Client, serversFromConfig, streamableHttp, stdio } from '@mcpc/client';

const names = (client: Client): string[] => client.servers.map((s) => s.name);

describe('server names derived from URLs', () => {
  it('a URL server alone on its host is named after the host', async () => {
    await using client = new Client({ servers: [streamableHttp({ url: 'http://127.0.0.1:8081/weather/mcp' })] });
    expect(names(client)).toEqual(['127.0.0.1']);
  });

  it('URL servers sharing a host are told apart by their path, not numbered', async () => {
    await using client = new Client({
      servers: [
        streamableHttp({ url: 'http://127.0.0.1:8081/weather/mcp' }),
        streamableHttp({ url: 'http://127.0.0.1:8081/news/mcp' }),
        streamableHttp({ url: 'http://127.0.0.1:8081/tools/github' }),
      ],
    });
    expect(names(client)).toEqual(['127.0.0.1-weather', '127.0.0.1-news', '127.0.0.1-tools-github']);
  });

  it('by their port when the paths say nothing (/mcp on each), and numbered only when nothing differs', async () => {
    await using client = new Client({
      servers: [
        streamableHttp({ url: 'http://127.0.0.1:8081/mcp' }),
        streamableHttp({ url: 'http://127.0.0.1:8082/mcp' }),
        streamableHttp({ url: 'http://localhost/mcp' }),
        streamableHttp({ url: 'http://localhost/mcp?key=secret' }),
      ],
    });
    expect(names(client)).toEqual(['127.0.0.1-8081', '127.0.0.1-8082', 'localhost', 'localhost-2']);
  });

  it('never puts credentials, the query or unsafe characters into a name; explicit names win', async () => {
    await using client = new Client({
      servers: [
        streamableHttp({ url: 'https://user:pw@api.example.com/%1B%5B31m%0Aevil/mcp?token=t' }),
        streamableHttp({ url: 'https://api.example.com/b/mcp' }),
        streamableHttp({ name: 'api.example.com', url: 'https://api.example.com/c/mcp' }),
        stdio({ command: 'node', args: ['/srv/weather/dist/index.js'] }),
      ],
    });
    expect(names(client)).toEqual(['api.example.com-31m-evil', 'api.example.com-b', 'api.example.com', 'weather']);
  });

  it('applies to server definition files', async () => {
    const servers = serversFromConfig({ mcpServers: { a: { url: 'http://127.0.0.1:1/a/mcp' } } });
    await using client = new Client({ servers: [...servers, streamableHttp({ url: 'http://127.0.0.1:2/b/mcp' })] });
    expect(names(client)).toEqual(['a', '127.0.0.1']);
  });
});
