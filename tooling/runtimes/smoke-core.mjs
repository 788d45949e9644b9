// What every runtime must do with the built packages, as functions each runtime's entry calls.
//
// A server over a config (list, call, close), and schema verdicts. Returns plain JSON, compared across runtimes by the
// test.
import { Client, streamableHttp, textOf } from '@mcpc/client';
import { OAuthProvider, enterpriseManagedAuthorization } from '@mcpc/oauth';
import { compile } from '@mcpc/schema-validator';

/** Connects one server, lists and calls, closes; what it saw, or the error as `{ error: { name, code, message } }`. */
export async function exercise(config) {
  const client = new Client({ servers: [config] });
  try {
    await client.connect();
    const server = client.servers[0];
    const tools = await client.listTools();
    const echo = await client.callTool('echo', { message: 'hello from a runtime' });
    const sum = await client.callTool('get-sum', { a: 2, b: 40 });
    return {
      protocolVersion: server.protocolVersion,
      transport: server.transportKind,
      tools: tools.length,
      echo: textOf(echo),
      sum: textOf(sum),
    };
  } catch (error) {
    return { error: { name: error?.name, code: error?.code, message: String(error?.message).slice(0, 300) } };
  } finally {
    await client.close();
  }
}

/** Schema verdicts, patterns included: the same everywhere, with or without worker threads. */
export function schemaVerdicts() {
  const checks = [
    [
      { type: 'object', properties: { n: { type: 'integer', multipleOf: 3 } }, required: ['n'] },
      [{ n: 9 }, { n: 10 }, {}],
    ],
    [{ type: 'string', pattern: '^[a-z]+(-[a-z]+)*$' }, ['kebab-case', 'Not-Kebab', 'x'.repeat(10_000)]],
    [{ type: 'string', format: 'email' }, ['a@example.com', 'not an email']],
    // Past the fast engines: the backtracking matcher, on counted steps (a worker thread before, none here).
    [
      { type: 'string', pattern: '^(\\w+)(?:,\\s?\\1)*$' },
      ['ab, ab,ab', 'a,b', Array.from({ length: 5_000 }, () => 'word').join(',')],
    ],
    [{ type: 'string', pattern: '(?<=(a))(b+)+\\1' }, ['abba', 'abbb']],
  ];
  return checks.map(([schema, values]) => {
    const validator = compile(schema);
    return values.map((v) => validator.validate(v).valid);
  });
}

/** Settles as `promise`, or with `fallback` after `ms`: no step of a scenario can hang the run. */
const within = (promise, ms, fallback) => {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  // Cleared either way: the run checks that nothing is left open once the clients have closed.
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
};

/** A failure as JSON: its class and code, which every runtime must agree on. */
const failure = (error) => ({ name: error?.name, code: error?.code });

/**
 * The features every runtime must have, against the playground's demo server (Streamable HTTP, MCP
 * 2026-07-28 and, with `era: 'legacy'`, 2025-11-25): structured output checked strictly, an abort that
 * cancels a slow call, an elicitation answered, a task-augmented call (2026-07-28), a resource
 * subscription that receives an update, and a close. Each feature's result, or its error's class and code.
 */
export async function scenario(url, era) {
  const elicited = [];
  const client = new Client({
    servers: [streamableHttp({ name: 'demo', url, protocol: era })],
    extensions: ['io.modelcontextprotocol/tasks'],
    onElicitation: (request) => {
      elicited.push(request.message);
      if (request.message === 'Who are you?')
        return { action: 'accept', content: { name: 'Ada', age: 36, color: 'blue', subscribe: true } };
      return { action: 'accept', content: { proceed: true } };
    },
  });
  const out = {};
  const step = async (name, run) => {
    try {
      out[name] = await within(run(), 15_000, 'timed out');
    } catch (error) {
      out[name] = failure(error);
    }
  };
  await step('connect', async () => {
    await client.connect();
    return { era: client.servers[0].protocolEra, protocolVersion: client.servers[0].protocolVersion };
  });
  await step('structured', async () => {
    const r = await client.callTool('add', { a: 1, b: 2 }, { validateStructuredContent: 'strict' });
    return r.structuredContent;
  });
  await step('abort', async () => {
    const started = Date.now();
    const error = await client
      .callTool('slow-count', { steps: 50, delayMs: 100 }, { signal: AbortSignal.timeout(300) })
      .then(() => undefined, failure);
    return { ...error, bounded: Date.now() - started < 3_000 };
  });
  await step('elicitation', async () => textOf(await client.callTool('ask-name', {})));
  if (era !== 'legacy') await step('task', async () => textOf(await client.callTool('long-task', { steps: 2 })));
  await step('subscription', async () => {
    const updated = new Promise((resolve) => {
      const off = client.onNotification((_server, method, params) => {
        if (method === 'notifications/resources/updated' && params?.uri === 'demo://counter') {
          off();
          resolve(true);
        }
      });
    });
    await client.servers[0].subscribeResource('demo://counter');
    // The counter ticks every 2 s.
    return within(updated, 8_000, false);
  });
  await step('close', async () => {
    await client.close();
    return client.servers[0].state;
  });
  out.elicited = elicited;
  return out;
}

/**
 * OAuth's client credentials grant against the demo server's protected endpoint (`/mcp-protected`, its
 * pre-registered machine client): discovery from the 401, the token, then a call with it.
 */
export async function clientCredentials(protectedUrl) {
  let client;
  try {
    const metadata = new URL('/.well-known/oauth-protected-resource/mcp-protected', protectedUrl);
    const issuer = (await (await fetch(metadata)).json()).authorization_servers[0];
    client = new Client({
      servers: [
        streamableHttp({
          name: 'protected',
          url: protectedUrl,
          auth: new OAuthProvider({
            serverUrl: protectedUrl,
            grantType: 'client_credentials',
            scope: 'mcp',
            clientInfo: { issuer, clientId: 'playground-demo', clientSecret: 'playground-demo-secret' },
          }),
        }),
      ],
    });
    await client.connect();
    return (await client.callTool('add', { a: 20, b: 22 })).structuredContent;
  } catch (error) {
    return { error: { name: error?.name, code: error?.code, message: String(error?.stack ?? error).slice(0, 600) } };
  } finally {
    await client?.close();
  }
}

/**
 * Enterprise-Managed Authorization: the ID token exchanged at the IdP (RFC 8693) for an ID-JAG, presented to
 * the MCP server's authorization server as a JWT bearer grant; then the protected server's `echo`.
 * @param {{ serverUrl: string, issuer: string, idp: string, idToken: string }} stack
 */
export async function tokenExchange({ serverUrl, issuer, idp, idToken }) {
  let client;
  try {
    client = new Client({
      servers: [
        streamableHttp({
          name: 'protected',
          url: serverUrl,
          auth: new OAuthProvider({
            serverUrl,
            grantType: 'jwt-bearer',
            scope: 'mcp',
            clientInfo: { issuer, clientId: 'ema-client', clientSecret: 'ema-secret' },
            assertion: enterpriseManagedAuthorization({ idp: { issuer: idp, clientId: 'idp-client' }, idToken }),
          }),
        }),
      ],
    });
    await client.connect();
    return textOf(await client.callTool('echo', { message: 'from a Worker' }));
  } catch (error) {
    return { error: { name: error?.name, code: error?.code, message: String(error?.stack ?? error).slice(0, 600) } };
  } finally {
    await client?.close();
  }
}
