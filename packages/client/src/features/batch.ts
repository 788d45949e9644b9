import type { ToolCall, ToolCallOutcome } from '../options.js';
import type { CallToolOptions, RequestOptions, Server } from '../server/server.js';

/**
 * Runs calls concurrently (at most `concurrency` at once; all of them by default). Each outcome sits in
 * the position of its call and holds its result or its error, so one failure fails no other.
 */
export async function runBatch(
  calls: readonly ToolCall[],
  route: (name: string, server: string | undefined) => Promise<Server>,
  options: RequestOptions & { readonly concurrency?: number },
): Promise<ToolCallOutcome[]> {
  const { concurrency, ...requestOptions } = options;
  const outcomes: ToolCallOutcome[] = new Array(calls.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < calls.length; i = next++) {
      const call = calls[i]!;
      let server: Server | undefined;
      try {
        server = await route(call.name, call.server);
        const callOptions: CallToolOptions = {
          ...requestOptions,
          ...(call.meta !== undefined && { meta: call.meta }),
          ...(call.timeout !== undefined && { timeout: call.timeout }),
        };
        outcomes[i] = { ok: true, name: call.name, server: server.name, result: await server.callTool(call.name, call.arguments, callOptions) };
      } catch (error) {
        outcomes[i] = { ok: false, name: call.name, server: server?.name ?? call.server, error: error instanceof Error ? error : new Error(String(error)) };
      }
    }
  };
  const workers = Math.max(1, Math.min(concurrency ?? calls.length, calls.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}
