// Where `mcpc` keeps its own files: the config dir and the auth profiles under it.
//
// The config dir comes from $MCPC_CONFIG_DIR, $XDG_CONFIG_HOME, ~/.config or %APPDATA%.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';

/** The directory `mcpc` keeps its files in: `$MCPC_CONFIG_DIR`, else `$XDG_CONFIG_HOME/mcpc`, else `~/.config/mcpc` (`%APPDATA%\mcpc` on Windows). */
export function mcpcDir(env: NodeJS.ProcessEnv): string {
  if (env.MCPC_CONFIG_DIR) return join(env.MCPC_CONFIG_DIR, 'mcpc');
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'mcpc');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'mcpc');
  return join(env.HOME || env.USERPROFILE || homedir(), '.config', 'mcpc');
}

const PROFILE = /^[\w.-]{1,64}$/;

/** The profile the command line names (`--profile`, default `default`), checked. */
export function profileName(ctx: Pick<CliContext, 'flags'>): string {
  const name = ctx.flags.profile ?? 'default';
  if (!PROFILE.test(name) || name === '.' || name === '..')
    throw new UsageError(`--profile takes 1 to 64 letters, digits, "_", "." or "-", not "${name}"`);
  return name;
}

/** A profile's directory: `<config dir>/mcpc/auth/<profile>/`. */
export function profileDir(env: NodeJS.ProcessEnv, profile: string): string {
  return join(mcpcDir(env), 'auth', profile);
}

/** The OAuth state of a profile (FileStorage: registrations and tokens, mode 0600). */
export const storagePath = (dir: string): string => join(dir, 'oauth.json');

/** What `mcpc login` recorded per server (no secrets: URLs, issuer, grant, scope), mode 0600 too. */
export const loginsPath = (dir: string): string => join(dir, 'logins.json');
