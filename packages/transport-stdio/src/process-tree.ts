// Signalling a server process and everything it started, on POSIX and Windows, including at host exit.
import { spawn, spawnSync } from 'node:child_process';

/**
 * Signalling a server and everything it started. On POSIX the server leads its own process group
 * (it is spawned `detached`), so a negative pid reaches an `npx` wrapper and the real server under it
 * alike. Windows has no groups or SIGTERM; `taskkill /T /F` ends the tree by parent links instead.
 */
export function signalTree(
  pid: number,
  signal: 'SIGTERM' | 'SIGKILL',
  platform: NodeJS.Platform = process.platform,
): void {
  if (platform === 'win32') {
    const taskkill = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    taskkill.on('error', () => {});
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone already. Fall back to the leader alone, in case it left the group.
    try {
      process.kill(pid, signal);
    } catch {
      // Gone as well.
    }
  }
}

/** For the process 'exit' hook, where nothing asynchronous runs any more. */
export function killTreeSync(pid: number, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone.
  }
}

/**
 * After a server's leader has exited: SIGKILLs whatever is left in its group (a grandchild a wrapper
 * did not wait for) and says whether there was anything. Only the group is signalled, never the
 * bare pid, which may already belong to another process. Windows has no groups: nothing to do there.
 */
export function killGroupSurvivors(pid: number, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') return false;
  try {
    process.kill(-pid, 0);
  } catch {
    // ESRCH: the group is empty. EPERM: what is left is not ours to signal.
    return false;
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Emptied in between.
  }
  return true;
}

// One listener for all live servers, not one per transport: many transports must not trip the
// max-listeners warning, and a closed transport must leave nothing registered.
const live = new Set<() => void>();
const killAll = (): void => {
  for (const kill of live) {
    try {
      kill();
    } catch {
      // The host is exiting; one failure must not spare the others.
    }
  }
};

/**
 * Kills a server's tree should this process exit while it runs (a detached server would outlive
 * us). Returns the function that stops watching it, and removes the 'exit' listener with the last one.
 */
export function killOnProcessExit(pid: number, platform: NodeJS.Platform = process.platform): () => void {
  const kill = (): void => killTreeSync(pid, platform);
  if (live.size === 0) process.on('exit', killAll);
  live.add(kill);
  return () => {
    if (live.delete(kill) && live.size === 0) process.off('exit', killAll);
  };
}
