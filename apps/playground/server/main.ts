// The playground's entry (dist/server/main.js): options, start, the URL printed and opened, clean exit on signals.
import { canOpen, openUrl } from './open.js';
import { parseOptions, USAGE, type Options } from './options.js';
import { startPlayground } from './start.js';

let options: Options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const playground = await startPlayground(options);
process.stdout.write(`playground: ${playground.url}\n`);
if (options.open && canOpen()) openUrl(playground.url);
let exiting = false;
const exit = () => {
  if (exiting) process.exit(130);
  exiting = true;
  const force = setTimeout(() => process.exit(0), 5_000);
  force.unref();
  void playground.stop().finally(() => process.exit(0));
};
process.on('SIGINT', exit);
process.on('SIGTERM', exit);
