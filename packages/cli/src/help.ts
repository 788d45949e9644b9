// `mcpc --help`, `mcpc help <command>` and the shell's `help`: text built from the command table alone.
import { ExitCode } from './exit-codes.js';
import { COMMANDS, byName } from './registry.js';
import { SHELL_COMMANDS } from './resolve.js';

const TARGETS = `Targets:
  https://host/mcp          a URL (Streamable HTTP, plain HTTP or SSE, detected; --transport to force)
  --stdio "cmd args"        a command line to spawn (or: mcpc <command> … -- cmd args)
  name                      a server configured on this machine (Claude Desktop, Claude Code, Cursor,
                            VS Code, Windsurf, Codex, mcpc's own), or in --config FILE
  @name                     a session started with \`mcpc session <target> @name\``;

const GLOBALS = `Options (every command):
  --json                    machine-readable output (one JSON document; lines of JSON for streams)
  -v, -vv                   server stderr and connection steps; -vv also the protocol (frames, HTTP)
  --timeout MS              per-request timeout (default 60000)
  -H 'Name: value'          an HTTP header on every request (repeatable)
  --transport T             auto | streamable-http | http | sse | stdio
  --protocol P              auto | modern (2026-07-28) | legacy (initialize)
  --config FILE             read servers from this mcpServers file only
  --trust-project           trust this directory's .mcp.json & co. for this run (see mcpc trust)
  --profile P               the login profile to use (default: "default")
  --no-color                no colour (also NO_COLOR=1; never when stdout is not a terminal)
  -h, --help                help (mcpc help <command> for one command)
  --version                 the version`;

const TRACING = `Tracing (OpenTelemetry):
  OTEL_EXPORTER_OTLP_ENDPOINT=URL   each run's spans go to URL/v1/traces over OTLP/HTTP (and the other OTEL_*)
  call … --trace                    the call's span tree with timings, on stderr`;

const EXITS = `Exit codes:
  ${ExitCode.Ok} ok   ${ExitCode.Error} error   ${ExitCode.Usage} usage   ${ExitCode.Connect} cannot connect   ${ExitCode.AuthRequired} authorization required (mcpc login)
  ${ExitCode.Server} server error   ${ExitCode.ToolError} tool reported an error   ${ExitCode.Validation} validation error   ${ExitCode.Timeout} timeout   ${ExitCode.Interrupted} interrupted`;

/** The whole help. */
export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const list = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `mcpc — the MCP client for the terminal

Usage:
  mcpc                                  configured servers and open sessions
  mcpc <target> [command] [args…]       a command on one server (default: info)
  mcpc <command> [args…]                grep, doctor, login, logout, session, shell, codegen

Commands:
${list}

${TARGETS}

${GLOBALS}

${TRACING}

${EXITS}

Examples:
  mcpc --stdio "npx -y @modelcontextprotocol/server-everything" tools
  mcpc https://example.com/mcp call search query="mcp clients" limit=5
  mcpc everything call echo message=hi --json | jq -r '.content[0].text'
`;
}

/** One command's help; undefined when there is no such command. */
export function commandHelp(name: string): string | undefined {
  const info = byName(name);
  if (info === undefined) return undefined;
  const flags =
    info.flags.length === 0 ? '' : `\nOptions: ${info.flags.map((f) => `--${f}`).join(', ')} (and the global ones)`;
  const details = info.details === undefined ? '' : `\n\n${info.details.join('\n')}`;
  return `${info.summary}

Usage: ${info.usage}${flags}${details}

Example:
  ${info.example}
`;
}

/** The commands the shell knows, for its `help`. */
export function shellHelp(): string {
  const rows = SHELL_COMMANDS.filter((c) => c !== 'help' && c !== 'exit').map((name) => {
    const info = byName(name);
    return `  ${name.padEnd(10)} ${info?.summary ?? ''}`;
  });
  return [
    'Commands (as after `mcpc <target>`; flags work too, e.g. `tools --schema`):',
    ...rows,
    '  help [cmd]  this list, or one command',
    '  exit        leaves (also quit, Ctrl-D)',
    'Tab completes commands, tool, prompt and resource names, and argument names after `call <tool>`.',
    'Ctrl-C clears the line, or cancels the running call.',
  ].join('\n');
}
