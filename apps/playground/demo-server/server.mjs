#!/usr/bin/env node
// server.mjs: the playground's embedded demo MCP server (tools, prompts, resources, tasks, an MCP App, OAuth).
//
//   node server.mjs stdio|http [--era both|modern|legacy] [--oauth]
//
// Built on the official TypeScript SDK v2 server (@modelcontextprotocol/server 2.4.0): one factory serves
// MCP 2026-07-28 (server/discover, per-request _meta, input_required rounds, subscriptions/listen) and,
// through the SDK's legacy leg, the 2025-11-25 initialize handshake, where the SDK's shim turns the same
// input_required returns into real server→client requests (elicitation/create, sampling/createMessage).
// Over HTTP the modern leg is `createMcpHandler` (per-request instances) and the legacy leg a sessionful
// `WebStandardStreamableHTTPServerTransport` routed with `isLegacyRequest` (the SDK's documented pattern), so
// 2025-11-25 clients get sessions, the GET stream, resources/subscribe updates, elicitation and sampling.
// The tasks extension (io.modelcontextprotocol/tasks, 2026-07-28) uses @modelcontextprotocol/ext-tasks
// 0.2.2's wire schemas with this file's own in-memory task table (neither package ships a task runtime).
// `http` prints `listening <url>` (the /mcp endpoint); `--oauth` also serves /mcp-protected behind bearer
// tokens of the oidc-provider fixture (tooling/fixtures/oauth), started as a child, and prints
// `authorization-server <issuer>`. The tools, resources and prompts are listed in README.md.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import {
  McpServer,
  ProtocolError,
  ResourceTemplate,
  WebStandardStreamableHTTPServerTransport,
  acceptedContent,
  completable,
  createMcpHandler,
  inputRequired,
  inputResponse,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import {
  TASKS_EXTENSION_ID_V2,
  GetTaskRequestV2Schema,
  InputResponsesV2Schema,
  CancelTaskRequestV2Schema,
  hasTaskClientCapabilityV2,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { z } from 'zod';
import { exitWithParent, listenLoopback, parseFlags } from '../../../tooling/fixtures/http/_common.mjs';
import { CHART_HTML, CHART_URI, APP_MIME_TYPE } from './chart-app.mjs';

const USAGE = 'usage: server.mjs stdio|http [--era both|modern|legacy] [--oauth]';
const flags = parseFlags(process.argv.slice(2), { era: 'string', oauth: 'boolean' }, USAGE);
const mode = flags._[0];
const era = flags.era ?? 'both';
if ((mode !== 'stdio' && mode !== 'http') || !['both', 'modern', 'legacy'].includes(era)) {
  console.error(USAGE);
  process.exit(2);
}
if (flags.oauth && mode !== 'http') {
  console.error('--oauth needs http');
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------
// Shared state (one process serves every connection).
const COUNTER_URI = 'demo://counter';
const COUNTER_MS = 2000;
const TASK_TTL_MS = 5 * 60_000;
const TASK_POLL_MS = 250;
const TASK_STEP_MS = 400;
const MAX_STEPS = 50;
const MAX_EXTRA_TOOLS = 50;
const state = {
  counter: 0,
  extraTools: 0,
  /** Connection-long McpServer instances (stdio, legacy HTTP sessions) → { era, subscriptions:Set<uri> }. */
  live: new Map(),
  /** The modern HTTP handler's notifier (subscriptions/listen streams). */
  notifier: undefined,
};
const tasks = new Map();
const NAMES = ['Ada', 'Alan', 'Barbara', 'Grace', 'Katherine', 'Linus', 'Margaret', 'Tim'];
const STYLES = ['formal', 'casual', 'pirate'];
const NOTES = {
  1: 'Buy milk',
  2: 'Read the MCP 2026-07-28 changelog',
  3: 'Try the playground protocol view',
  42: 'The answer',
};
const text = (value) => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});
const now = () => new Date().toISOString();
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

// A 16×16 PNG (a blue square with a white diagonal), built at start-up so no binary file is checked in.
function makeLogo() {
  const size = 16;
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    raw[y * (1 + size * 3)] = 0;
    for (let x = 0; x < size; x++) {
      const o = y * (1 + size * 3) + 1 + x * 3;
      const on = x === y || x === size - 1 - y;
      raw[o] = on ? 255 : 37;
      raw[o + 1] = on ? 255 : 99;
      raw[o + 2] = on ? 255 : 235;
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const LOGO = makeLogo().toString('base64');

const README = `# mcpc playground demo server

A server for trying every MCP feature the playground shows, on MCP 2026-07-28 and 2025-11-25.

- **Tools:** \`add\`, \`echo\`, \`slow-count\` (progress), \`fail-tool\`, \`bad-output\`, \`ask-name\`
  (elicitation), \`open-link\` (URL elicitation), \`summarize\` (sampling), \`two-step\`, \`long-task\`
  (a task), \`add-tool\` (list_changed), \`show-chart\` (an MCP App).
- **Resources:** this file, \`demo://config.json\`, \`demo://logo.png\`, \`demo://counter\` (subscribe to it),
  \`demo://notes/{id}\`.
- **Prompts:** \`greeting\`.
`;

// ---------------------------------------------------------------------------------------------------
// Tasks (MCP 2026-07-28 tasks extension): the wire shapes of @modelcontextprotocol/ext-tasks core/v2.
const declaresTasks = (ctx) => hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope ?? {} });
function requireTasks(ctx) {
  if (declaresTasks(ctx)) return;
  throw new ProtocolError(-32021, 'Missing required client capability', {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } },
  });
}
function taskView(task) {
  const out = {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.status === 'input_required') out.inputRequests = task.inputRequests;
  if (task.status === 'completed') out.result = task.result;
  if (task.status === 'failed') out.error = task.error;
  return out;
}
function moveTask(task, status, fields = {}) {
  if (task.terminal) return;
  Object.assign(task, { status, lastUpdatedAt: now(), ...fields });
  if (status !== 'input_required') task.inputRequests = undefined;
  task.terminal = status === 'completed' || status === 'failed' || status === 'cancelled';
}
function startTask(work, ttlMs = TASK_TTL_MS) {
  const task = {
    taskId: randomUUID(),
    status: 'working',
    statusMessage: 'Starting',
    createdAt: now(),
    lastUpdatedAt: now(),
    ttlMs,
    pollIntervalMs: TASK_POLL_MS,
    controller: new AbortController(),
    answers: {},
    wake: undefined,
    terminal: false,
  };
  tasks.set(task.taskId, task);
  setTimeout(() => tasks.delete(task.taskId), ttlMs).unref();
  queueMicrotask(async () => {
    try {
      const result = await work(task);
      moveTask(task, 'completed', { result, statusMessage: 'Done' });
    } catch (e) {
      const error =
        e instanceof ProtocolError
          ? { code: e.code, message: e.message }
          : { code: -32603, message: e instanceof Error ? e.message : String(e) };
      moveTask(task, 'failed', { error, statusMessage: `Failed: ${error.message}` });
    }
  });
  return { resultType: 'task', ...taskView(task) };
}
async function askTask(task, key, request) {
  moveTask(task, 'input_required', { inputRequests: { [key]: request }, statusMessage: 'Waiting for input' });
  for (let i = 0; i < TASK_TTL_MS / TASK_POLL_MS && !task.terminal && task.answers[key] === undefined; i++) {
    await new Promise((resolve) => {
      task.wake = resolve;
      setTimeout(resolve, TASK_POLL_MS);
    });
  }
  moveTask(task, 'working', { statusMessage: 'Input received' });
  return task.answers[key];
}

/** A log message on the request's own stream (notifications/message, logger "slow-count"). */
const log = (ctx, level, data) =>
  ctx.mcpReq.notify({ method: 'notifications/message', params: { level, logger: 'slow-count', data } });

const CONFIRM = z.object({ proceed: z.boolean() });
const confirmRequest = (steps) =>
  inputRequired.elicit({
    message: `Halfway through ${steps} steps. Carry on?`,
    requestedSchema: {
      type: 'object',
      properties: { proceed: { type: 'boolean', title: 'Carry on', default: true } },
      required: ['proceed'],
    },
  });

// long-task as a task: steps × TASK_STEP_MS, statusMessage `step i/n`, one elicitation midway.
async function runLongTask({ steps }, task) {
  const n = Math.max(1, Math.min(MAX_STEPS, steps));
  const half = Math.ceil(n / 2);
  for (let i = 1; i <= n && !task.terminal; i++) {
    await sleep(TASK_STEP_MS, task.controller.signal);
    if (task.terminal) break;
    Object.assign(task, { statusMessage: `step ${i}/${n}`, lastUpdatedAt: now() });
    if (i === half) {
      const answer = await askTask(task, 'proceed', confirmRequest(n));
      const given = acceptedContent({ proceed: answer }, 'proceed', CONFIRM);
      if (!given?.proceed) return { ...text(`stopped after step ${i} of ${n}`), isError: true };
    }
  }
  return text(`long task finished ${n} steps`);
}

// ---------------------------------------------------------------------------------------------------
// The server definition: one factory for both eras.
class DemoServer extends McpServer {
  // bad-output's result breaks its outputSchema on purpose: McpServer's own output check is skipped for it
  // (the playground shows the client-side check instead).
  async validateToolOutput(tool, result, toolName) {
    if (toolName === 'bad-output') return;
    return super.validateToolOutput(tool, result, toolName);
  }
}

function registerExtra(server, n) {
  server.registerTool(`extra-${n}`, { description: `A tool added at run time by add-tool (number ${n})` }, async () =>
    text(`extra-${n} says hi`),
  );
}

function build(serving) {
  const server = new DemoServer(
    { name: 'mcpc-demo', title: 'mcpc playground demo', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
        ...(serving === 'modern' ? { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } : {}),
      },
      instructions:
        'The mcpc playground demo server. Try add, slow-count, ask-name, long-task (as a task) and show-chart; subscribe to demo://counter.',
    },
  );

  server.registerTool(
    'add',
    {
      title: 'Add two numbers',
      description: 'Adds a and b; the sum comes back as structured content',
      inputSchema: { a: z.number().describe('First addend'), b: z.number().describe('Second addend') },
      outputSchema: { sum: z.number() },
      annotations: { readOnlyHint: true },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    'echo',
    { description: 'Echoes the message', inputSchema: { message: z.string().describe('What to echo') } },
    async ({ message }) => text(message),
  );
  server.registerTool(
    'slow-count',
    {
      description:
        'Counts to steps, one step every delayMs, sending notifications/progress and a log message (debug, info) each step, and a warning at the end',
      inputSchema: {
        steps: z.number().int().min(1).max(MAX_STEPS).default(5),
        delayMs: z.number().int().min(0).max(10_000).default(200),
      },
    },
    async ({ steps, delayMs }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await sleep(delayMs, ctx.mcpReq.signal);
        if (ctx.mcpReq.signal.aborted) return text(`cancelled at ${i - 1}/${steps}`);
        if (token !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: steps, message: `step ${i}/${steps}` },
          });
        await log(ctx, 'debug', `tick ${i}`);
        await log(ctx, 'info', `step ${i} of ${steps}`);
      }
      await log(ctx, 'warning', `counted to ${steps}: the count is done`);
      return text(`counted to ${steps}`);
    },
  );
  server.registerTool('fail-tool', { description: 'Always fails: a result with isError' }, async () => ({
    ...text('fail-tool failed, as it always does'),
    isError: true,
  }));
  server.registerTool(
    'bad-output',
    {
      description: 'Returns structuredContent that breaks its own outputSchema (count is a string)',
      outputSchema: { count: z.number(), label: z.string() },
    },
    async () => ({ ...text('{"count":"three"}'), structuredContent: { count: 'three' } }),
  );

  const PERSON = z.object({
    name: z.string(),
    age: z.number().int().min(0).max(150).optional(),
    color: z.enum(['red', 'green', 'blue']).optional(),
    subscribe: z.boolean().optional(),
  });
  server.registerTool(
    'ask-name',
    { description: 'Asks you for your name and more (form elicitation)' },
    async (ctx) => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'person');
      if (view.kind !== 'elicit') {
        return inputRequired({
          inputRequests: {
            person: inputRequired.elicit({
              message: 'Who are you?',
              requestedSchema: {
                type: 'object',
                properties: {
                  name: { type: 'string', title: 'Name', minLength: 1 },
                  age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
                  color: { type: 'string', title: 'Favourite colour', enum: ['red', 'green', 'blue'] },
                  subscribe: { type: 'boolean', title: 'Subscribe to the newsletter', default: false },
                },
                required: ['name'],
              },
            }),
          },
        });
      }
      if (view.action !== 'accept') return text(`you chose to ${view.action}`);
      const person = acceptedContent(ctx.mcpReq.inputResponses, 'person', PERSON);
      if (person === undefined) return { ...text('the answer did not match the form'), isError: true };
      const extras = [
        person.age === undefined ? '' : `, ${person.age} years old`,
        person.color === undefined ? '' : `, likes ${person.color}`,
        person.subscribe ? ', subscribed' : '',
      ].join('');
      return text(`Hello, ${person.name}${extras}!`);
    },
  );
  server.registerTool(
    'open-link',
    {
      description: 'Asks you to open a URL (URL-mode elicitation)',
      inputSchema: { url: z.string().url().default('https://example.com/mcpc-demo-consent') },
    },
    async ({ url }, ctx) => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'link');
      if (view.kind !== 'elicit') {
        return inputRequired({
          inputRequests: { link: inputRequired.elicitUrl({ message: 'Please open this page to continue', url }) },
        });
      }
      return text(`URL elicitation answered: ${view.action}`);
    },
  );
  server.registerTool(
    'summarize',
    { description: 'Asks your model to summarize text (sampling)', inputSchema: { text: z.string() } },
    async (args, ctx) => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'llm');
      if (view.kind !== 'sampling') {
        return inputRequired({
          inputRequests: {
            llm: inputRequired.createMessage({
              messages: [
                { role: 'user', content: { type: 'text', text: `Summarize in one sentence:\n\n${args.text}` } },
              ],
              systemPrompt: 'You are a concise summarizer.',
              maxTokens: 200,
            }),
          },
        });
      }
      const content = Array.isArray(view.result.content) ? view.result.content[0] : view.result.content;
      return text(`Summary (${view.result.model}): ${content?.type === 'text' ? content.text : '(no text)'}`);
    },
  );
  const CITY = z.object({ city: z.string() });
  const DAYS = z.object({ days: z.number().int().min(1).max(30) });
  server.registerTool(
    'two-step',
    { description: 'Plans a trip in two rounds of input (multi round-trip: city, then days)' },
    async (ctx) => {
      // requestState comes back from the client: it is only a hint here, never trusted for access decisions.
      const saved = (() => {
        try {
          return JSON.parse(ctx.mcpReq.requestState() ?? '{}');
        } catch {
          return {};
        }
      })();
      const city = acceptedContent(ctx.mcpReq.inputResponses, 'city', CITY)?.city ?? saved.city;
      if (typeof city !== 'string' || city === '') {
        return inputRequired({
          inputRequests: {
            city: inputRequired.elicit({
              message: 'Step 1 of 2: where to?',
              requestedSchema: {
                type: 'object',
                properties: { city: { type: 'string', title: 'City' } },
                required: ['city'],
              },
            }),
          },
          requestState: JSON.stringify({ step: 1 }),
        });
      }
      const days = acceptedContent(ctx.mcpReq.inputResponses, 'days', DAYS)?.days;
      if (days === undefined) {
        return inputRequired({
          inputRequests: {
            days: inputRequired.elicit({
              message: `Step 2 of 2: how many days in ${city}?`,
              requestedSchema: {
                type: 'object',
                properties: { days: { type: 'integer', title: 'Days', minimum: 1, maximum: 30 } },
                required: ['days'],
              },
            }),
          },
          requestState: JSON.stringify({ step: 2, city }),
        });
      }
      return text(`Trip planned: ${days} day${days === 1 ? '' : 's'} in ${city}`);
    },
  );
  // long-task: a task when the request declares the tasks extension (see the tools/call hook below); called
  // directly it asks its midway question first (one input_required round), then runs with progress.
  server.registerTool(
    'long-task',
    {
      description: 'A long job; run it as a task (it asks one question midway)',
      inputSchema: {
        steps: z.number().int().min(1).max(MAX_STEPS).default(5),
        ttlMs: z.number().int().min(1_000).max(TASK_TTL_MS).optional().describe('The task ttl (as a task only)'),
      },
    },
    async ({ steps }, ctx) => {
      const view = inputResponse(ctx.mcpReq.inputResponses, 'proceed');
      if (view.kind !== 'elicit') return inputRequired({ inputRequests: { proceed: confirmRequest(steps) } });
      const given = acceptedContent(ctx.mcpReq.inputResponses, 'proceed', CONFIRM);
      if (!given?.proceed) return { ...text('stopped before starting'), isError: true };
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= steps && !ctx.mcpReq.signal.aborted; i++) {
        await sleep(TASK_STEP_MS, ctx.mcpReq.signal);
        if (token !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: steps, message: `step ${i}/${steps}` },
          });
      }
      return text(`long task finished ${steps} steps`);
    },
  );
  server.registerTool('add-tool', { description: 'Adds a tool extra-<n> and sends tools/list_changed' }, async () => {
    if (state.extraTools >= MAX_EXTRA_TOOLS)
      return { ...text(`already ${MAX_EXTRA_TOOLS} extra tools`), isError: true };
    const n = ++state.extraTools;
    for (const [instance] of state.live) {
      if (!instance.isConnected()) continue;
      try {
        registerExtra(instance, n); // McpServer announces tools/list_changed itself
      } catch (e) {
        console.error('[demo] add-tool:', e.message);
      }
    }
    state.notifier?.toolsChanged();
    return text(`added extra-${n}`);
  });
  for (let n = 1; n <= state.extraTools; n++) registerExtra(server, n);

  server.registerTool(
    'show-chart',
    {
      title: 'Show a bar chart',
      description: 'Draws the values as bars in an MCP App (ui://demo/chart)',
      inputSchema: { values: z.array(z.number()).min(1).max(100).default([3, 1, 4, 1, 5, 9, 2, 6]) },
      outputSchema: { values: z.array(z.number()), max: z.number() },
      // MCP Apps (SEP-1865, 2026-01-26) "Resource Discovery": the tool names its UI in _meta.ui.resourceUri.
      _meta: { ui: { resourceUri: CHART_URI } },
    },
    async ({ values }) => ({
      content: [{ type: 'text', text: `chart of ${values.length} values: ${values.join(', ')}` }],
      structuredContent: { values, max: Math.max(...values) },
    }),
  );

  // Prompts
  server.registerPrompt(
    'greeting',
    {
      title: 'Greeting',
      description: 'A greeting in a chosen style',
      argsSchema: {
        name: completable(z.string().describe('Who to greet'), (value) =>
          NAMES.filter((n) => n.toLowerCase().startsWith(String(value ?? '').toLowerCase())),
        ),
        style: completable(z.string().describe('formal, casual or pirate'), (value) =>
          STYLES.filter((s) => s.startsWith(String(value ?? '').toLowerCase())),
        ),
      },
    },
    ({ name, style }) => {
      const line =
        style === 'pirate'
          ? `Ahoy, ${name}! Welcome aboard, matey.`
          : style === 'casual'
            ? `Hey ${name}, good to see you!`
            : `Good day, ${name}. It is a pleasure to make your acquaintance.`;
      return {
        description: `A ${style} greeting for ${name}`,
        messages: [{ role: 'user', content: { type: 'text', text: `Greet ${name} like this: ${line}` } }],
      };
    },
  );

  // Resources
  server.registerResource(
    'readme',
    'demo://readme',
    { title: 'README', description: 'About this server (markdown)', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: README }] }),
  );
  server.registerResource(
    'config',
    'demo://config.json',
    { title: 'Configuration', description: 'A JSON document', mimeType: 'application/json' },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify(
            {
              name: 'mcpc-demo',
              features: ['tools', 'prompts', 'resources', 'tasks', 'apps'],
              limits: { steps: MAX_STEPS },
            },
            null,
            2,
          ),
        },
      ],
    }),
  );
  server.registerResource(
    'logo',
    'demo://logo.png',
    { title: 'Logo', description: 'A 16×16 PNG (binary)', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: LOGO }] }),
  );
  server.registerResource(
    'counter',
    COUNTER_URI,
    { title: 'Counter', description: `Changes every ${COUNTER_MS / 1000} s; subscribe to it`, mimeType: 'text/plain' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `counter ${state.counter} at ${now()}` }],
    }),
  );
  server.registerResource(
    'note',
    new ResourceTemplate('demo://notes/{id}', {
      list: async () => ({
        resources: Object.entries(NOTES).map(([id, note]) => ({
          uri: `demo://notes/${id}`,
          name: `note ${id}`,
          description: note,
          mimeType: 'text/plain',
        })),
      }),
      complete: { id: (value) => Object.keys(NOTES).filter((id) => id.startsWith(String(value ?? ''))) },
    }),
    { title: 'Note', description: 'A note by id (1, 2, 3, 42)', mimeType: 'text/plain' },
    async (uri, { id }) => {
      const note = NOTES[String(id)];
      if (note === undefined) throw new ProtocolError(-32602, `Resource ${uri.href} not found`, { uri: uri.href });
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: note }] };
    },
  );
  // MCP Apps "UI Resource Format": mimeType text/html;profile=mcp-app, no csp → the host's restrictive default.
  server.registerResource(
    'chart-app',
    CHART_URI,
    { title: 'Chart app', description: 'The MCP App of show-chart', mimeType: APP_MIME_TYPE },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: APP_MIME_TYPE, text: CHART_HTML, _meta: { ui: { prefersBorder: true } } }],
    }),
  );

  // tools/call hook: long-task becomes a task when the request declares the extension (2026-07-28); every other
  // call goes to McpServer's own handler.
  if (serving === 'modern') {
    const original = server.server._getRequestHandler('tools/call');
    server.server.setRequestHandler('tools/call', async (request, ctx) => {
      if (request.params.name === 'long-task' && declaresTasks(ctx)) {
        const parsed = z
          .object({
            steps: z.number().int().min(1).max(MAX_STEPS).default(5),
            ttlMs: z.number().int().min(1_000).max(TASK_TTL_MS).optional(),
          })
          .safeParse(request.params.arguments ?? {});
        if (!parsed.success)
          throw new ProtocolError(-32602, `Invalid arguments for tool long-task: ${parsed.error.message}`);
        return startTask((task) => runLongTask(parsed.data, task), parsed.data.ttlMs);
      }
      return original(request, ctx);
    });
    const params = (schema) => ({ params: schema.shape.params });
    const find = (taskId) => {
      const task = tasks.get(taskId);
      if (task === undefined) throw new ProtocolError(-32602, 'Failed to retrieve task: Task not found');
      return task;
    };
    server.server.setRequestHandler('tasks/get', params(GetTaskRequestV2Schema), async ({ taskId }, ctx) => {
      requireTasks(ctx);
      return taskView(find(taskId));
    });
    server.server.setRequestHandler('tasks/update', params(GetTaskRequestV2Schema), async ({ taskId }, ctx) => {
      requireTasks(ctx);
      const responses = InputResponsesV2Schema.safeParse(ctx.mcpReq.inputResponses);
      if (!responses.success) throw new ProtocolError(-32602, 'Invalid params for tasks/update: inputResponses');
      const task = find(taskId);
      for (const [key, response] of Object.entries(responses.data)) {
        if (task.status === 'input_required' && key in task.inputRequests && task.answers[key] === undefined)
          task.answers[key] = response;
      }
      task.wake?.();
      return {};
    });
    server.server.setRequestHandler('tasks/cancel', params(CancelTaskRequestV2Schema), async ({ taskId }, ctx) => {
      requireTasks(ctx);
      const task = find(taskId);
      task.controller.abort();
      moveTask(task, 'cancelled', { statusMessage: 'Cancelled by request' });
      task.wake?.();
      return {};
    });
  } else {
    // 2025-11-25 resources/subscribe: this connection's subscriptions, fed by the counter timer.
    const subscriptions = new Set();
    server.server.setRequestHandler('resources/subscribe', async (request) => {
      subscriptions.add(request.params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', async (request) => {
      subscriptions.delete(request.params.uri);
      return {};
    });
    server.subscriptions = subscriptions;
  }
  return server;
}

/** A connection-long instance: tracked for add-tool and the counter's updates. */
function track(server, serving) {
  state.live.set(server, { era: serving });
  return server;
}

// The counter ticks every COUNTER_MS; updates go to 2025-11-25 subscribers and 2026-07-28 listen streams.
setInterval(() => {
  state.counter++;
  for (const [instance, info] of state.live) {
    if (!instance.isConnected()) {
      state.live.delete(instance);
      continue;
    }
    const wanted = info.era === 'modern' || instance.subscriptions?.has(COUNTER_URI);
    if (wanted) instance.server.sendResourceUpdated({ uri: COUNTER_URI }).catch(() => {});
  }
  state.notifier?.resourceUpdated(COUNTER_URI);
}, COUNTER_MS).unref();

// ---------------------------------------------------------------------------------------------------
// Serving.
if (mode === 'stdio') {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  if (era === 'legacy') {
    // Legacy only: a hand-wired 2025-era connection (server/discover is not answered as a modern server).
    const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
    const server = track(build('legacy'), 'legacy');
    await server.connect(new StdioServerTransport());
  } else {
    serveStdio((ctx) => track(build(ctx.era), ctx.era), {
      legacy: era === 'modern' ? 'reject' : 'serve',
      onerror: (e) => console.error('[demo]', e.message),
    });
  }
  process.stdin.once('end', () => process.exit(0));
} else {
  const modern = createMcpHandler((ctx) => build(ctx.era), { legacy: 'reject', onerror: () => {} });
  state.notifier = modern.notify;
  /** 2025-11-25 sessions: id → transport. */
  const sessions = new Map();
  const MAX_SESSIONS = 256;
  async function legacyLeg(request) {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const transport = sessions.get(id);
      if (!transport)
        return Response.json(
          { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
          { status: 404 },
        );
      return transport.handleRequest(request);
    }
    if (request.method !== 'POST')
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null },
        { status: 400 },
      );
    if (sessions.size >= MAX_SESSIONS) {
      const [oldest] = sessions.keys();
      await sessions
        .get(oldest)
        ?.close()
        .catch(() => {});
      sessions.delete(oldest);
    }
    const server = build('legacy');
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, transport);
        track(server, 'legacy');
      },
      onsessionclosed: (sid) => {
        sessions.delete(sid);
        state.live.delete(server);
      },
    });
    await server.connect(transport);
    return transport.handleRequest(request);
  }
  async function mcp(request) {
    if (era === 'legacy') return legacyLeg(request);
    if (era === 'both' && (await isLegacyRequest(request))) return legacyLeg(request);
    return modern.fetch(request);
  }
  const oauth = flags.oauth ? await import('./oauth.mjs') : undefined;
  const http = createServer(async (req, res) => {
    // A public MCP server that browsers may use allows any origin (CORS), and exposes what a client reads:
    // the session id, the protocol version and the OAuth challenge. Credentials are bearer tokens, never cookies.
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version, www-authenticate');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      });
      return void res.end();
    }
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      const controller = new AbortController();
      res.once('close', () => controller.abort());
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const request = new Request(url, {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) =>
          Array.isArray(v) ? v.map((x) => [k, x]) : v === undefined ? [] : [[k, v]],
        ),
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        signal: controller.signal,
      });
      let response;
      if (url.pathname === '/mcp') response = await mcp(request);
      else if (oauth) response = (await oauth.handle(request, url, mcp)) ?? new Response('not found', { status: 404 });
      else response = new Response('not found', { status: 404 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) return res.end();
      Readable.fromWeb(response.body)
        .on('error', () => res.destroy())
        .pipe(res);
    } catch (e) {
      console.error('[demo] request failed:', e?.message ?? e);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error');
    }
  });
  if (oauth) {
    // The authorization server first: its issuer is printed, and the protected resource names it.
    await oauth.start();
  }
  const { origin } = await listenLoopback(http, '/mcp');
  if (oauth) {
    oauth.setOrigin(origin);
    process.stdout.write(`authorization-server ${oauth.issuer()}\n`);
  }
  exitWithParent('demo', async () => {
    await modern.close().catch(() => {});
    for (const transport of sessions.values()) await transport.close().catch(() => {});
    await oauth?.stop();
    http.close();
  });
}
