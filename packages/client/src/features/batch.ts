// Batches of tool calls: bounded concurrency, one outcome per call in call order.
import type { ToolCall, ToolCallOutcome } from '../options.js';
import type { CallToolOptions, RequestOptions, Server } from '../server/server.js';
import type { StructuredContentValidation } from './structured-output.js';

export interface BatchOptions extends RequestOptions {
  /** Calls in flight at once (all of them by default). */
  readonly concurrency?: number;
  /** How every result is checked against its tool's `outputSchema`, unless the call says otherwise. */
  readonly validateStructuredContent?: StructuredContentValidation;
}

/**
 * Runs calls concurrently (at most `concurrency` at once; all of them by default). Each outcome sits in
 * the position of its call and holds its result or its error, so one failure fails no other.
 */
export async function runBatch(
  calls: readonly ToolCall[],
  route: (name: string, server: string | undefined) => Promise<Server>,
  options: BatchOptions,
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
          ...(call.validateStructuredContent !== undefined && {
            validateStructuredContent: call.validateStructuredContent,
          }),
        };
        outcomes[i] = {
          ok: true,
          name: call.name,
          server: server.name,
          result: await server.callTool(call.name, call.arguments, callOptions),
        };
      } catch (error) {
        outcomes[i] = {
          ok: false,
          name: call.name,
          server: server?.name ?? call.server,
          error: error instanceof Error ? error : new Error(String(error)),
        };
      }
    }
  };
  const workers = Math.max(1, Math.min(concurrency ?? calls.length, calls.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}
