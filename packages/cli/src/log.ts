// The libraries' log lines on the CLI's terms: warnings shown, steps with -v, the protocol with -vv.
//
// Deprecation notices, meant for a program's author, show with -vv too.
import type { Logger } from '@mcpc/jsonrpc';
import type { CliContext } from './context.js';
import { safe } from './output.js';

/** How the libraries' deprecation notices begin (`@mcpc/jsonrpc`'s registry). */
const DEPRECATION_NOTICE = /^\[mcpc\] deprecated: /;

/** A logger for `@mcpc/client` and `@mcpc/oauth`, every line through the output layer. */
export function cliLogger(ctx: Pick<CliContext, 'out'>): Logger {
  const { out } = ctx;
  return {
    debug: (m) => out.debug(safe(m, 4_000)),
    info: (m) => out.info(safe(m, 4_000)),
    // A deprecation notice names a library option the person at the terminal cannot change.
    warn: (m) => (DEPRECATION_NOTICE.test(m) ? out.debug(safe(m, 4_000)) : out.warn(safe(m, 4_000))),
    error: (m) => out.error(safe(m, 4_000)),
  };
}
