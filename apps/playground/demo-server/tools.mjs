// The demo's tool table: each tool the playground shows (see README.md's Tools), registered on one McpServer.
//
// Tools that need input return `input_required` rounds (elicitation, URL elicitation, sampling): the SDK turns them
// into server→client requests on the 2025-11-25 leg. long-task as a task is tasks.mjs's; called directly it is here.
import { acceptedContent, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CHART_URI } from './chart-app.mjs';
import { MAX_EXTRA_TOOLS, MAX_STEPS, TASK_STEP_MS, TASK_TTL_MS, sleep, state, text } from './state.mjs';
import { CONFIRM, confirmRequest } from './tasks.mjs';

/** A log message on the request's own stream (notifications/message, logger "slow-count"). */
const log = (ctx, level, data) =>
  ctx.mcpReq.notify({ method: 'notifications/message', params: { level, logger: 'slow-count', data } });

function registerExtra(server, n) {
  server.registerTool(`extra-${n}`, { description: `A tool added at run time by add-tool (number ${n})` }, async () =>
    text(`extra-${n} says hi`),
  );
}

/** Registers every tool on `server`, in the order tools/list shows them (add-tool's extras before show-chart). */
export function registerTools(server) {
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
}
