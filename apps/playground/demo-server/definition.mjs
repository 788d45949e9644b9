// The demo server's factory: one McpServer for either era, with each feature table registered on it.
//
// A feature table is a module exporting a `register…(server)` (tools.mjs, prompts.mjs, resources.mjs): a new feature
// is one module and one entry in FEATURES (and its capability below). What differs by era is added after them: the
// tasks extension on 2026-07-28 (tasks.mjs), resources/subscribe on 2025-11-25 (resources.mjs).
import { McpServer } from '@modelcontextprotocol/server';
import { registerPrompts } from './prompts.mjs';
import { registerResources, registerSubscriptions } from './resources.mjs';
import { registerSkills } from './skills.mjs';
import { TASKS_EXTENSION_ID_V2, registerTasks } from './tasks.mjs';
import { registerTools } from './tools.mjs';

/** The feature tables, registered in this order (tools/list, prompts/list and resources/list follow it). */
const FEATURES = [registerTools, registerPrompts, registerResources, registerSkills];

// The server definition: one factory for both eras.
class DemoServer extends McpServer {
  // bad-output's result breaks its outputSchema on purpose: McpServer's own output check is skipped for it
  // (the playground shows the client-side check instead).
  async validateToolOutput(tool, result, toolName) {
    if (toolName === 'bad-output') return;
    return super.validateToolOutput(tool, result, toolName);
  }
}

/** A server for one era (`modern`: 2026-07-28, `legacy`: 2025-11-25), every feature registered. */
export function build(serving) {
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
  for (const register of FEATURES) register(server);
  if (serving === 'modern') registerTasks(server);
  else registerSubscriptions(server);
  return server;
}
