// The playground's command line: its flags (and pnpm's `--` in front of them), and the usage text.
import { parseArgs } from 'node:util';

export const USAGE = `usage: node apps/playground/dist/server/main.js [--port N] [--no-open] [--no-demo] [--host 127.0.0.1] [--verbose]
  --port N     port to listen on (default 0: a free one)
  --no-open    print the URL, do not open a browser
  --no-demo    do not start the embedded demo server
  --host H     127.0.0.1 only (the playground never listens elsewhere)
  --verbose    the servers' stderr and the client's warnings on this terminal
env PLAYGROUND_TOKEN fixes the token (tests); otherwise a new one each launch.`;

export interface Options {
  port: number;
  open: boolean;
  demo: boolean;
  verbose: boolean;
  help: boolean;
}

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    // `pnpm playground -- --port N` hands the script a leading `--`: pnpm's separator, not ours.
    args: argv[0] === '--' ? argv.slice(1) : argv,
    options: {
      port: { type: 'string', default: '0' },
      'no-open': { type: 'boolean', default: false },
      'no-demo': { type: 'boolean', default: false },
      host: { type: 'string', default: '127.0.0.1' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port is 0..65535, not "${values.port}"`);
  if (values.host !== '127.0.0.1') throw new Error('--host is 127.0.0.1 only: the playground listens on loopback');
  return { port, open: !values['no-open'], demo: !values['no-demo'], verbose: values.verbose, help: values.help };
}
