#!/usr/bin/env node
// The `mcpc` executable: runs main, or (given the internal session marker) a session's background process.
import { run } from './main.js';

// A reader that stopped reading (`mcpc tools | head`) ends the output, not in a stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

if (process.argv[2] === '__session-daemon') {
  const [{ runDaemon }, { dispatch }] = await Promise.all([import('./session/daemon.js'), import('./dispatch.js')]);
  // A session runs each caller's command line through the same dispatcher as `mcpc` itself.
  await runDaemon(process.argv[3] ?? '', (argv, session) => dispatch({ mode: 'session', argv, session }));
} else {
  process.exitCode = await run(process.argv.slice(2));
}
