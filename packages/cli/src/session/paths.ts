// Where sessions live: the per-user directory, and each session's socket or pipe, record and log.
//
// The directory is 0700, and every reader checks it.
import type { Stats } from 'node:fs';
import { lstat, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { UnsafeSessionError, UsageError } from '../errors.js';

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

const ownUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** Whether a file's owner is the user running mcpc (always true where there are no uids). */
const ours = (info: Stats): boolean => {
  const uid = ownUid();
  return uid === undefined || info.uid === uid;
};

const lstatOrUndefined = async (path: string): Promise<Stats | undefined> => {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

/**
 * Checks the sessions directory before anything in it is read, deleted or connected to: a directory (not a
 * symbolic link), the user's own, open to no one else (0700). False when it does not exist; throws
 * `UnsafeSessionError` otherwise. Everything a record names is trusted only because of this.
 */
export async function checkSessionDir(dir: string): Promise<boolean> {
  const info = await lstatOrUndefined(dir);
  if (info === undefined) return false;
  if (process.platform === 'win32') return info.isDirectory();
  const elsewhere = 'set MCPC_SESSION_DIR to a directory of yours';
  if (info.isSymbolicLink())
    throw new UnsafeSessionError(
      `the sessions directory ${dir} is a symbolic link`,
      dir,
      `remove it (\`rm ${dir}\`), or ${elsewhere}`,
    );
  if (!info.isDirectory())
    throw new UnsafeSessionError(`the sessions directory ${dir} is not a directory`, dir, elsewhere);
  if (!ours(info))
    throw new UnsafeSessionError(
      `the sessions directory ${dir} belongs to another user (uid ${info.uid})`,
      dir,
      elsewhere,
    );
  if ((info.mode & 0o077) !== 0)
    throw new UnsafeSessionError(
      `the sessions directory ${dir} is open to other users (mode ${(info.mode & 0o777).toString(8)}): a record in it could have been planted`,
      dir,
      `check what is in it, then run \`chmod 700 ${dir}\``,
    );
  return true;
}

/** Creates the directory (mode 0700), or checks the one there as every reader does. */
export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await checkSessionDir(dir);
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

/**
 * The record of session `name`, or undefined when there is none (or it does not parse). The directory is
 * checked first; a record that is not a regular file of the user's, or names any socket but this session's
 * own in this directory, or whose socket is not a socket of the user's, throws `UnsafeSessionError`.
 */
export async function readRecord(dir: string, name: string): Promise<SessionRecord | undefined> {
  if (!(await checkSessionDir(dir))) return undefined;
  const file = recordPath(dir, name);
  const info = await lstatOrUndefined(file);
  if (info === undefined) return undefined;
  if (!info.isFile() || !ours(info))
    throw new UnsafeSessionError(
      `the session record ${file} is not a file of yours`,
      file,
      `remove it (\`rm ${file}\`) if you did not make it`,
    );
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  let value: Partial<SessionRecord>;
  try {
    value = JSON.parse(text) as Partial<SessionRecord>;
  } catch {
    return undefined;
  }
  if (
    typeof value.pid !== 'number' ||
    typeof value.socket !== 'string' ||
    typeof value.target !== 'string' ||
    typeof value.started !== 'string'
  )
    return undefined;
  // The socket is where this session's must be, never where a record says: a planted record must not
  // send a command line (and its secrets) to a listener of someone else's.
  const socket = socketPath(dir, name);
  if (value.socket !== socket)
    throw new UnsafeSessionError(
      `the session record ${file} names a socket outside its place (${value.socket})`,
      file,
      `remove it (\`rm ${file}\`) if you did not make it`,
    );
  await checkSocket(socket);
  return { name, pid: value.pid, target: value.target, started: value.started, socket };
}

/** A session's socket, when there is one, must be a socket of the user's (not a link, file or someone's listener). */
async function checkSocket(socket: string): Promise<void> {
  if (process.platform === 'win32') return;
  const info = await lstatOrUndefined(socket);
  if (info === undefined) return;
  if (!info.isSocket() || !ours(info))
    throw new UnsafeSessionError(
      `${socket} is not a session socket of yours`,
      socket,
      `remove it (\`rm ${socket}\`) if you did not make it`,
    );
}

/** The names of every session with a record (none when the directory is absent; it is checked first). */
export async function recordNames(dir: string): Promise<string[]> {
  if (!(await checkSessionDir(dir))) return [];
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

/**
 * Removes what a stopped daemon leaves behind: this session's record and socket, at their own paths in the
 * checked directory, and only each that is the user's own file or socket (`rm` of a link removes the link).
 */
export async function removeSession(dir: string, name: string): Promise<void> {
  if (!(await checkSessionDir(dir))) return;
  const record = recordPath(dir, name);
  const info = await lstatOrUndefined(record);
  if (info !== undefined && (info.isFile() || info.isSymbolicLink()) && ours(info)) await rm(record, { force: true });
  if (process.platform === 'win32') return;
  const socket = socketPath(dir, name);
  const sock = await lstatOrUndefined(socket);
  if (sock !== undefined && (sock.isSocket() || sock.isSymbolicLink()) && ours(sock)) await rm(socket, { force: true });
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
