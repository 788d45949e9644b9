// Starting the server process: its environment, the command as the platform runs it, the wait for the spawn.
//
// A failure to start becomes a SpawnError.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { escapeForLog } from '@mcpc/jsonrpc';
import { defaultEnvironment, mergeEnvironment } from './environment.js';
import { SpawnError } from './errors.js';
import { resolveCommand } from './resolve-command.js';

export interface SpawnRequest {
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the safe default environment. */
  readonly env: Readonly<Record<string, string>> | undefined;
  readonly cwd: string | undefined;
  readonly platform: NodeJS.Platform;
}

export interface SpawnListeners {
  /** Reading stdout failed: the connection cannot go on. */
  readonly stdoutError: (error: Error) => void;
  readonly debug: (message: string) => void;
}

/**
 * Spawns the server and resolves once it is running, its pipes' errors already listened to; rejects
 * with a `SpawnError` (its pipes released) when it cannot be started.
 */
export async function spawnChild(request: SpawnRequest, on: SpawnListeners): Promise<ChildProcessWithoutNullStreams> {
  const { command, cwd, platform } = request;
  const env = mergeEnvironment(defaultEnvironment({ platform }), request.env, platform);
  let child: ChildProcessWithoutNullStreams;
  try {
    const resolved = resolveCommand(
      command,
      request.args,
      cwd === undefined ? { platform, env } : { platform, env, cwd },
    );
    child = spawn(resolved.command, resolved.args, {
      ...(cwd === undefined ? {} : { cwd }),
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      windowsVerbatimArguments: resolved.windowsVerbatimArguments,
      // Its own process group, so that shutdown can signal the whole tree (an npx wrapper and the
      // server under it). Windows has no groups, and `detached` would open a console there.
      detached: platform !== 'win32',
    });
  } catch (error) {
    throw new SpawnError(command, error);
  }
  // A pipe fails with EPIPE when the server goes away; an 'error' without a listener would crash the host.
  child.stdin.on('error', (error) => on.debug(`stdin: ${escapeForLog(error.message)}`));
  child.stderr.on('error', (error) => on.debug(`stderr: ${escapeForLog(error.message)}`));
  child.stdout.on('error', (error) => on.stdoutError(error));

  const failure = await new Promise<Error | undefined>((resolve) => {
    const onSpawn = (): void => {
      child.off('error', onError);
      resolve(undefined);
    };
    const onError = (error: Error): void => {
      child.off('spawn', onSpawn);
      resolve(error);
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
  });
  if (failure !== undefined) {
    child.stdin.destroy();
    child.stdout.destroy();
    child.stderr.destroy();
    throw new SpawnError(command, failure, spawnDetail(failure, cwd));
  }
  return child;
}

/** ENOENT names the command even when the missing file is the working directory; say which it was. */
function spawnDetail(error: Error, cwd: string | undefined): { detail: string } | undefined {
  if (cwd === undefined || (error as NodeJS.ErrnoException).code !== 'ENOENT' || existsSync(cwd)) return undefined;
  return { detail: `the working directory "${escapeForLog(cwd)}" does not exist` };
}
