// Where sessions live: the per-user directory (0700), each session's socket or pipe, record and log.
import { chmod, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../exit.js';

/** What a running session's daemon writes next to its socket (`<name>.json`, mode 0600). */
export interface SessionRecord {
  readonly name: string;
  readonly pid: number;
  /** The target as the user gave it when starting the session. */
  readonly target: string;
  /** ISO time the daemon started. */
  readonly started: string;
  readonly socket: string;
}

const NAME = /^[\w.-]{1,64}$/;

/** Refuses a session name that is not letters, digits, `.`, `_` or `-` (it becomes a file name). */
export function checkName(name: string): string {
  if (!NAME.test(name) || name === '.' || name === '..')
    throw new UsageError(`"@${name}" is no session name (1 to 64 letters, digits, . _ -)`, 'session');
  return name;
}

/**
 * The sessions directory: `MCPC_SESSION_DIR`, else `$XDG_RUNTIME_DIR/mcpc`, else
 * `$XDG_CONFIG_HOME/mcpc/sessions` (`%APPDATA%` on Windows), else `~/.config/mcpc/sessions`.
 */
export function sessionDir(env: NodeJS.ProcessEnv): string {
  if (env.MCPC_SESSION_DIR) return env.MCPC_SESSION_DIR;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'mcpc');
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'mcpc', 'sessions');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'mcpc', 'sessions');
  return join(env.HOME || homedir(), '.config', 'mcpc', 'sessions');
}

/** Creates the directory (mode 0700) or checks the one there: ours, and no one else's to read. */
export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const info = await stat(dir);
  if (!info.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (typeof process.getuid === 'function' && info.uid !== process.getuid())
    throw new Error(`${dir} belongs to another user; set MCPC_SESSION_DIR to a directory of yours`);
  if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

export const recordPath = (dir: string, name: string): string => join(dir, `${name}.json`);
export const logPath = (dir: string, name: string): string => join(dir, `${name}.log`);

/** The socket (a named pipe on Windows) a session listens on. */
export function socketPath(dir: string, name: string): string {
  if (process.platform === 'win32') {
    const user = safeUser().replace(/[^\w.-]/g, '_');
    return `\\\\.\\pipe\\mcpc-${user}-${name}`;
  }
  const path = join(dir, `${name}.sock`);
  // sun_path holds 104 (macOS) to 108 (Linux) bytes.
  if (Buffer.byteLength(path) > 103)
    throw new UsageError(`the session socket path is too long (${path}); set MCPC_SESSION_DIR to a shorter directory`);
  return path;
}

function safeUser(): string {
  try {
    return userInfo().username || 'user';
  } catch {
    return 'user';
  }
}

/** Writes a record atomically, mode 0600. */
export async function writeRecord(dir: string, record: SessionRecord): Promise<void> {
  const file = recordPath(dir, record.name);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** The record of session `name`, or undefined when there is none (or it is unreadable). */
export async function readRecord(dir: string, name: string): Promise<SessionRecord | undefined> {
  let text: string;
  try {
    text = await readFile(recordPath(dir, name), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<SessionRecord>;
    if (
      typeof value.pid !== 'number' ||
      typeof value.socket !== 'string' ||
      typeof value.target !== 'string' ||
      typeof value.started !== 'string'
    )
      return undefined;
    return { name, pid: value.pid, target: value.target, started: value.started, socket: value.socket };
  } catch {
    return undefined;
  }
}

/** The names of every session with a record. */
export async function recordNames(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.endsWith('.json'))
    .map((e) => e.slice(0, -'.json'.length))
    .filter((n) => NAME.test(n))
    .sort()
    .slice(0, 1_000);
}

/** Removes a session's record and socket (what a stopped daemon leaves behind). */
export async function removeSession(dir: string, name: string, socket?: string): Promise<void> {
  await rm(recordPath(dir, name), { force: true });
  if (process.platform !== 'win32') await rm(socket ?? join(dir, `${name}.sock`), { force: true });
}

/** Whether a process with this id exists (signal 0 checks without sending). */
export function alive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
