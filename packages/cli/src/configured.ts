// The servers configured on this machine (or in --config), found once per run.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { CliContext } from './context.js';
import { discoverServers } from './discovery/index.js';
import type { Discovered } from './discovery/types.js';

const found = new WeakMap<CliContext, Promise<Discovered>>();

/** What discovery finds for this run (read once, however many commands ask). */
export function discover(ctx: CliContext): Promise<Discovered> {
  let result = found.get(ctx);
  if (result === undefined) {
    const home = ctx.env.HOME ?? ctx.env.USERPROFILE ?? homedir();
    const configFile = ctx.flags.config === undefined ? undefined : resolve(ctx.cwd, ctx.flags.config);
    result = discoverServers({
      env: ctx.env,
      cwd: ctx.cwd,
      home,
      platform: process.platform,
      ...(configFile !== undefined && { configFile }),
    });
    found.set(ctx, result);
  }
  return result;
}
