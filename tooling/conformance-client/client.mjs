#!/usr/bin/env node
// The client under test for the MCP conformance suite (@modelcontextprotocol/conformance).
//
// The runner spawns `node client.mjs <server-url>` with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION and
// sometimes MCP_CONFORMANCE_CONTEXT (a JSON object; `toolCalls` lists the calls to make). It uses @mcpc/client through
// its public API only, as a host would: era detection, caching, headers and round trips are the library's. Exit 0 when
// the scenario's steps ran; the runner judges the wire. For auth/* scenarios the server is given an @mcpc/oauth
// provider as its `auth` (auth.mjs). For the skills scenarios (sep-2640-client-*) it lists the skills and loads the
// first one as a host whose user asked for it would (loadSkill: SKILL.md read and verified), then reads the supporting
// files it lists only if the load verified; no-prefetch only lists.
import { Client, streamableHttp, textOf } from '@mcpc/client';
import { authFor } from './auth.mjs';

const url = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context =
  process.env.MCP_CONFORMANCE_CONTEXT === undefined ? {} : JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT);
if (url === undefined) {
  console.error('usage: client.mjs <server-url>');
  process.exit(2);
}

const log = (...args) => console.error(`[mcpc-conformance ${scenario}]`, ...args);
const logger = { debug: () => {}, info: (m) => log(m), warn: (m) => log(m), error: (m) => log(m) };

/** A host's form: every field the schema gives a default for gets it (SEP-1034). */
function answerWithDefaults(request) {
  if (request.mode === 'url') return { action: 'accept' };
  const content = {};
  for (const [name, schema] of Object.entries(request.requestedSchema.properties ?? {})) {
    if (schema !== null && typeof schema === 'object' && 'default' in schema) content[name] = schema.default;
  }
  return { action: 'accept', content };
}

let auth;
try {
  auth = await authFor(scenario, url, context, logger);
} catch (error) {
  log(`auth setup failed: ${error?.name}: ${error?.message}`);
  process.exit(process.env.MCPC_CONFORMANCE_STRICT === '1' ? 1 : 0);
}

const client = new Client({
  servers: [streamableHttp({ name: 'server', url, ...(auth === undefined ? {} : { auth }) })],
  clientInfo: { name: 'mcpc-conformance-client', version: '0.0.0' },
  logger,
  onElicitation: answerWithDefaults,
  elicitationModes: ['form', 'url'],
  onSampling: () => ({
    model: 'conformance-model',
    role: 'assistant',
    content: { type: 'text', text: 'sampled' },
    stopReason: 'endTurn',
  }),
  roots: [{ uri: 'file:///conformance', name: 'conformance' }],
  deprecationNotices: false,
});

let failed = false;

/** A host over the skills extension: list (no file read), then, unless only listing, load and read on. */
async function skillSteps() {
  let skills = [];
  await step('listSkills', async () => {
    skills = await client.listSkills();
    return skills.map((s) => s.label);
  });
  if (scenario === 'sep-2640-client-no-prefetch' || skills.length === 0) return;
  let loaded;
  await step(`loadSkill ${skills[0].label}`, async () => {
    loaded = await client.loadSkill(skills[0]);
    return loaded.frontmatter;
  });
  if (loaded === undefined || loaded.files === 'dynamic') return;
  for (const file of loaded.files)
    if (file.uri !== loaded.uri)
      await step(`readFile ${file.path}`, async () => (await loaded.readFile(file.path)).bytes.byteLength);
}
async function step(what, run) {
  try {
    const result = await run();
    log(`${what}: ok`, result === undefined ? '' : JSON.stringify(result).slice(0, 300));
  } catch (error) {
    log(`${what}: ${error?.name}: ${error?.message}`);
    failed = true;
  }
}

try {
  await client.connect();
  const server = client.server('server');
  log(`connected: ${server.protocolEra} ${server.protocolVersion}`);
  let tools = [];
  await step('listTools', async () => {
    tools = await client.listTools();
    return tools.map((t) => t.name);
  });
  if (Array.isArray(context.toolCalls)) {
    for (const call of context.toolCalls)
      await step(`callTool ${call.name}`, async () => textOf(await client.callTool(call.name, call.arguments ?? {})));
  } else if (scenario === 'json-schema-2020-12-preservation') {
    // The host hands the focal tool's inputSchema back as it received it: nothing may be lost or rewritten.
    const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    await step('callTool json_schema_echo', async () =>
      textOf(await client.callTool('json_schema_echo', { schema: focal?.inputSchema ?? {} })),
    );
  } else if (scenario.startsWith('sep-2640-client-')) {
    await skillSteps();
  } else if (scenario === 'tools_call') {
    await step('callTool add_numbers', async () => textOf(await client.callTool('add_numbers', { a: 5, b: 3 })));
  } else {
    for (const tool of tools)
      await step(`callTool ${tool.name}`, async () => textOf(await client.callTool(tool.name, {})));
  }
} catch (error) {
  log(`connect failed: ${error?.name}: ${error?.message}`);
  failed = true;
} finally {
  await client.close();
}
// The runner's checks judge the scenario; a step that failed is reported but only a broken client exits non-zero.
process.exit(failed && process.env.MCPC_CONFORMANCE_STRICT === '1' ? 1 : 0);
