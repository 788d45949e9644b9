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
  const { runDaemon } = await import('./session/daemon.js');
  await runDaemon(process.argv[3] ?? '');
} else {
  process.exitCode = await run(process.argv.slice(2));
}
