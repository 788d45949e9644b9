// `listen` and `subscribe`: the server's notifications as lines of JSON, until Ctrl-C.
import type { CliContext } from '../context.js';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { UsageError } from '../errors.js';

/** Waits for Ctrl-C (or the session's caller going away). */
const interrupted = (ctx: CliContext): Promise<void> =>
  new Promise((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });

/** One notification as one line of JSON (what `jq` reads line by line). */
const printer =
  (ctx: CliContext, server: string) =>
  (method: string, params: unknown): void =>
    ctx.out.line(JSON.stringify({ server, method, ...(params !== undefined && { params }) }));

export const listen: Command = {
  async run(ctx, words, connection) {
    if (words.length > 0)
      throw new UsageError(
        '`listen` takes flags only: --tools --prompts --resources --resource URI --task ID',
        'listen',
      );
    const { client, server } = connection!;
    const { flags } = ctx;
    const print = printer(ctx, server.name);
    if (server.protocolEra === 'modern') {
      const filter = {
        ...(flags.tools === true && { toolsListChanged: true }),
        ...(flags.prompts === true && { promptsListChanged: true }),
        ...(flags.resources === true && { resourcesListChanged: true }),
        ...(flags.resource !== undefined && { resourceSubscriptions: flags.resource }),
        ...(flags.task !== undefined && { taskIds: flags.task }),
      };
      if (Object.keys(filter).length === 0)
        throw new UsageError(
          'say what to listen for: --tools, --prompts, --resources, --resource URI or --task ID',
          'listen',
        );
      const subscription = server.listen(filter, (method, params) => print(method, params), { ackTimeout: 30_000 });
      await Promise.race([subscription.ready, interrupted(ctx)]);
      if (!ctx.signal.aborted && subscription.unsupported.length > 0)
        ctx.out.warn(`the server did not grant: ${subscription.unsupported.join(', ')}`);
      await Promise.race([subscription.done, interrupted(ctx)]);
      await subscription.close();
      return ExitCode.Ok;
    }
    // A legacy session sends what it sends; resource updates need resources/subscribe.
    client.onNotification((_s, method, params) => print(method, params));
    for (const uri of flags.resource ?? []) await server.subscribeResource(uri);
    ctx.out.info('listening (legacy session: every notification is shown); Ctrl-C ends');
    await interrupted(ctx);
    return ExitCode.Ok;
  },
};

export const subscribe: Command = {
  async run(ctx, words, connection) {
    const uri = words[0];
    if (uri === undefined || words.length > 1)
      throw new UsageError('usage: mcpc <target> subscribe <uri>', 'subscribe');
    const { client, server } = connection!;
    const print = printer(ctx, server.name);
    client.onNotification((_s, method, params) => {
      if (method === 'notifications/resources/updated') print(method, params);
    });
    await server.subscribeResource(uri, { signal: ctx.signal });
    ctx.out.info(`subscribed to ${uri}; Ctrl-C ends`);
    await interrupted(ctx);
    await server.unsubscribeResource(uri).catch(() => {});
    return ExitCode.Ok;
  },
};
