// A Cloudflare Worker that calls a remote MCP server's tool on every request.
//
// GET /?a=2&b=40 answers the server's `add` result. MCP_URL (a variable of the Worker) names the Streamable HTTP
// endpoint.
//
//   npx wrangler dev worker.mjs --var MCP_URL:http://127.0.0.1:PORT/mcp    (or miniflare, as the tests do)

// @ts-check
import { Client, streamableHttp } from '@mcpc/client';

export default {
  /** @param {Request} request @param {{ MCP_URL: string }} env @returns {Promise<Response>} */
  async fetch(request, env) {
    const query = new URL(request.url).searchParams;
    // One client per request: a Worker keeps no connection between requests.
    const client = new Client({ servers: [streamableHttp({ name: 'remote', url: env.MCP_URL })] });
    try {
      await client.connect();
      const result = await client.callTool('add', { a: Number(query.get('a')), b: Number(query.get('b')) });
      return Response.json({ result: result.structuredContent ?? null, isError: result.isError === true });
    } catch (error) {
      const e = /** @type {{ name?: string, code?: string, message?: string }} */ (error);
      return Response.json({ error: { name: e.name, code: e.code, message: e.message } }, { status: 502 });
    } finally {
      await client.close();
    }
  },
};
