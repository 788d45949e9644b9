// How an error becomes an exit code, with a line that says what to do about it.
import {
  AbortError,
  CapabilityError,
  ConnectionError,
  McpError,
  RequestTimeoutError,
  NotFoundError,
  ServerError,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  TaskInputError,
  TaskNotFoundError,
  TaskReplacedError,
  TaskTimeoutError,
  TaskUnsupportedError,
  AmbiguousTaskError,
  AmbiguousNameError,
  SkillApprovalError,
  SkillEntryError,
  SkillVerificationError,
  TransportErrorCode,
  ValidationError,
} from '@mcpc/client';
import { ExitCode } from './exit-codes.js';
import { CliError, UsageError } from './errors.js';

/** The error and its `cause` chain (8 deep at most): the errors a failure is read from. */
function causes(error: unknown): (Error & { status?: unknown })[] {
  const out: Error[] = [];
  for (let e: unknown = error; e instanceof Error && out.length < 8; e = e.cause) out.push(e);
  return out;
}

/** Whether the error, or anything in its `cause` chain, says the server wants authorization. */
export function needsAuth(error: unknown): boolean {
  return causes(error).some((e) => (e as { code?: unknown }).code === TransportErrorCode.Unauthorized);
}

/** A target as it is typed again in a hint: a command line goes back into --stdio "…". */
export function targetWord(target: string | undefined): string {
  if (target === undefined) return '<target>';
  return /^(https?:\/\/|stdio:\/\/|@)/i.test(target) || !/\s/.test(target)
    ? target
    : `--stdio ${JSON.stringify(target)}`;
}

/** The exit code for an error, and a hint saying what to do about it (when there is one to give). */
export function classify(error: unknown, target?: string): { code: ExitCode; hint?: string } {
  if (error instanceof UsageError)
    return {
      code: ExitCode.Usage,
      hint:
        error.command !== undefined
          ? `run \`mcpc help ${error.command}\` for its usage`
          : 'run `mcpc --help` for the commands',
    };
  if (error instanceof CliError)
    return error.hint === undefined ? { code: error.exitCode } : { code: error.exitCode, hint: error.hint };
  if (needsAuth(error))
    return {
      code: ExitCode.AuthRequired,
      hint:
        target !== undefined && /^https?:/i.test(target)
          ? `run \`mcpc login ${target}\` first (or pass a token with -H 'Authorization: Bearer …')`
          : 'run `mcpc login <url>` for this server first',
    };
  if (error instanceof AbortError) return { code: ExitCode.Interrupted };
  if (error instanceof RequestTimeoutError || error instanceof TaskTimeoutError)
    return { code: ExitCode.Timeout, hint: 'raise --timeout (milliseconds) if the server is just slow' };
  if (error instanceof ConnectionError)
    return { code: ExitCode.Connect, hint: `run \`mcpc doctor ${targetWord(target)}\` to see what was tried` };
  if (error instanceof ValidationError) return { code: ExitCode.Validation };
  const skill = classifySkill(error, target);
  if (skill !== undefined) return skill;
  // A name the server does not offer is a mistake on the command line; the listing commands say what it has.
  if (error instanceof NotFoundError && error.kind !== 'server')
    return {
      code: ExitCode.Usage,
      hint: `run \`mcpc ${targetWord(target)} ${error.kind === 'resource' ? 'resources' : `${error.kind}s`}\` to list them`,
    };
  // A task the server failed, cancelled, forgot or cannot run: the server's answer, not ours.
  if (
    error instanceof TaskFailedError ||
    error instanceof TaskCancelledError ||
    error instanceof TaskExpiredError ||
    error instanceof TaskNotFoundError ||
    error instanceof TaskReplacedError ||
    error instanceof TaskInputError ||
    error instanceof TaskUnsupportedError ||
    error instanceof AmbiguousTaskError
  )
    return { code: ExitCode.Server };
  if (error instanceof CapabilityError) return { code: ExitCode.Server };
  if (error instanceof ServerError) return { code: ExitCode.Server };
  if (error instanceof McpError && error.code === TransportErrorCode.NetworkError)
    return { code: ExitCode.Connect, hint: `run \`mcpc doctor ${targetWord(target)}\`` };
  if (error instanceof TypeError) return { code: ExitCode.Usage };
  return { code: ExitCode.Error };
}

/** Skills (SEP-2640) refused: an entry broken or past the limits, bytes that do not verify, a load not approved. */
function classifySkill(error: unknown, target: string | undefined): { code: ExitCode; hint?: string } | undefined {
  const skills = `mcpc ${targetWord(target)} skills`;
  if (error instanceof SkillVerificationError)
    return {
      code: ExitCode.Validation,
      hint:
        `the skill may have changed since it was listed: run \`${skills}\` for the current listing and try again; ` +
        'if it fails again, the server serves bytes that do not match its own digests',
    };
  if (error instanceof SkillEntryError)
    return error.reason === 'dynamic'
      ? { code: ExitCode.Usage, hint: 'mcpc loads only skills with a manifest (files with digests it can verify)' }
      : {
          code: ExitCode.Validation,
          hint: `run \`${skills}\` to see which entries the server lists, and why any is refused`,
        };
  if (error instanceof SkillApprovalError) return { code: ExitCode.Usage, hint: 'pass --yes (-y) to approve it' };
  if (error instanceof AmbiguousNameError && error.kind === 'skill')
    return { code: ExitCode.Usage, hint: `run \`${skills}\` and name one by its label or URI` };
  return undefined;
}

/** How many of the server's last stderr lines a failure shows. */
const STDERR_LINES = 20;

/**
 * What the CLI says of an error: the library's message, in the CLI's words where those would not help a
 * person (a 401 says what to run, not which option to pass), and the server's stderr tail as lines of
 * their own (still escaped) rather than one JSON-escaped quote.
 */
export function describeFailure(error: unknown, target?: string): { message: string; lines: string[] } {
  if (!(error instanceof Error)) return { message: String(error), lines: [] };
  // The library's words say which method to call; a person is told what failed, and the hint what to run.
  if (error instanceof SkillVerificationError) {
    const file = error.uri === error.skill ? '' : `${error.uri} of skill `;
    return {
      message:
        `skill verification failed: ${file}${error.skill} on server "${error.server}" ` +
        `(${error.reason}: ${error.detail}); its content was not used and nothing was written`,
      lines: [],
    };
  }
  if (error instanceof SkillEntryError && error.reason === 'dynamic')
    return {
      message:
        `skill ${error.uri} on server "${error.server}" is dynamic: ` +
        'it has no manifest, so no digests to verify its files by (--allow-dynamic loads it anyway, unverified)',
      lines: [],
    };
  if (needsAuth(error)) {
    // The deepest 401/403 says the status (the outer errors wrap it).
    const status = causes(error)
      .reverse()
      .find((e) => (e as { code?: unknown }).code === TransportErrorCode.Unauthorized)?.status;
    const who = target === undefined ? 'the server' : `the server ${target}`;
    return {
      message: `${who} needs authorization${typeof status === 'number' ? ` (HTTP ${status})` : ''}, and no login or token was accepted`,
      lines: [],
    };
  }
  const tail = causes(error)
    .reverse()
    .map((e) => (e as { stderrTail?: unknown }).stderrTail)
    .find((found): found is string => typeof found === 'string' && found.trim() !== '');
  if (tail === undefined) return { message: error.message, lines: [] };
  const message = error.message.replace(/; its stderr ended with: '.*?'(?=;|$)/s, '');
  const lines = tail.trimEnd().split(/\r?\n/).slice(-STDERR_LINES);
  return { message, lines: ['the server wrote on stderr (last lines):', ...lines.map((l) => `  | ${l}`)] };
}
