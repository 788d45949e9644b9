// Loopback stand-ins for four model APIs, each scripted for one tool round.
//
// The APIs: OpenAI Chat Completions, Anthropic Messages, Gemini generateContent, the Vercel AI Gateway. The first
// request gets a call of the tool whose name mentions "sum" with {a: 2, b: 3}, the next gets a text answer quoting the
// tool result it was sent. No network, no keys; 127.0.0.1 only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Vendor = 'openai' | 'anthropic' | 'google' | 'ai-sdk';

export interface VendorApi {
  readonly url: string;
  /** Each request's path and JSON body, in order. */
  readonly requests: { path: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const MAX_BODY = 4 * 1024 * 1024;
const ARGS = { a: 2, b: 3 };

const asList = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const sumTool = (names: string[]): string => names.find((name) => /sum/i.test(name)) ?? names[0] ?? 'missing';
const answer = (toolText: string): string => `The tool answered: ${toolText}`;
/** The text of whatever shape a tool result took (a string, content blocks, an object). */
const textIn = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The answer to one request of `vendor`, given the request's body. */
function reply(vendor: Vendor, path: string, body: Json): { status: number; json: Json } {
  switch (vendor) {
    case 'openai': {
      if (!path.endsWith('/chat/completions')) return { status: 404, json: { error: { message: `no ${path}` } } };
      const result = asList(body.messages).find((m) => m.role === 'tool');
      const names = asList(body.tools).map((t) => String((t.function as Json | undefined)?.name));
      const message =
        result === undefined
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: sumTool(names), arguments: JSON.stringify(ARGS) } },
              ],
            }
          : { role: 'assistant', content: answer(textIn(result.content)) };
      return {
        status: 200,
        json: {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model: String(body.model),
          choices: [{ index: 0, message, finish_reason: result === undefined ? 'tool_calls' : 'stop', logprobs: null }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        },
      };
    }
    case 'anthropic': {
      if (!path.endsWith('/v1/messages'))
        return { status: 404, json: { type: 'error', error: { type: 'not_found_error', message: `no ${path}` } } };
      const blocks = asList(body.messages).flatMap((m) => asList(m.content));
      const result = blocks.find((b) => b.type === 'tool_result');
      const names = asList(body.tools).map((t) => String(t.name));
      return {
        status: 200,
        json: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: String(body.model),
          content:
            result === undefined
              ? [{ type: 'tool_use', id: 'toolu_1', name: sumTool(names), input: ARGS }]
              : [{ type: 'text', text: answer(textIn(result.content)) }],
          stop_reason: result === undefined ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      };
    }
    case 'google': {
      if (!path.endsWith(':generateContent'))
        return { status: 404, json: { error: { code: 404, message: `no ${path}` } } };
      const parts = asList(body.contents).flatMap((c) => asList(c.parts));
      const result = parts.find((p) => p.functionResponse !== undefined)?.functionResponse as Json | undefined;
      const names = asList(body.tools)
        .flatMap((t) => asList(t.functionDeclarations))
        .map((d) => String(d.name));
      return {
        status: 200,
        json: {
          candidates: [
            {
              content: {
                role: 'model',
                parts:
                  result === undefined
                    ? [{ functionCall: { name: sumTool(names), args: ARGS } }]
                    : [{ text: answer(textIn(result.response)) }],
              },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
        },
      };
    }
    case 'ai-sdk': {
      if (!path.endsWith('/language-model'))
        return { status: 404, json: { error: { message: `no ${path}`, type: 'not_found' } } };
      const parts = asList(body.prompt)
        .filter((m) => m.role === 'tool')
        .flatMap((m) => asList(m.content));
      const result = parts.find((p) => p.type === 'tool-result');
      const names = asList(body.tools).map((t) => String(t.name));
      const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } };
      return {
        status: 200,
        json:
          result === undefined
            ? {
                content: [
                  { type: 'tool-call', toolCallId: 'call-1', toolName: sumTool(names), input: JSON.stringify(ARGS) },
                ],
                finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
                usage,
                warnings: [],
              }
            : {
                content: [{ type: 'text', text: answer(textIn((result.output as Json | undefined)?.value)) }],
                finishReason: { unified: 'stop', raw: 'stop' },
                usage,
                warnings: [],
              },
      };
    }
  }
}

async function readJson(req: IncomingMessage): Promise<Json> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Json);
}

/** Starts the stand-in for `vendor` on 127.0.0.1 (a free port). */
export async function startVendorApi(vendor: Vendor): Promise<VendorApi> {
  const requests: VendorApi['requests'] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    readJson(req).then(
      (body) => {
        requests.push({ path, body });
        const { status, json } = reply(vendor, path, body);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      },
      (error: unknown) =>
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: String(error) } })),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
