// What the test command needs from the system, which the npm registry cannot ship, installed with apt-get when missing.
//
// That is tmux (the CLI's terminal tests) and Debian's Chromium (the playground's browser tests).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Each need: how to tell it is there, and the Debian package that brings it. */
const NEEDS = [
  { what: 'tmux', for: "the CLI's interactive tests", present: () => onPath('tmux'), debian: 'tmux' },
  {
    what: 'Chromium',
    for: "the playground's browser tests",
    present: () =>
      (process.env.CHROMIUM_PATH !== undefined && existsSync(process.env.CHROMIUM_PATH)) ||
      existsSync('/usr/bin/chromium'),
    debian: 'chromium',
  },
];

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** `apt-get` as root, or through `sudo -n` when that works without a password; undefined when neither. */
function aptGet() {
  if (!onPath('apt-get')) return undefined;
  if (typeof process.getuid === 'function' && process.getuid() === 0) return ['apt-get'];
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0)
    return ['sudo', '-n', 'apt-get'];
  return undefined;
}

/** Installs what is missing; returns the lines to print for what could not be installed (the tests then fail, saying why). */
export function ensureSystemDeps() {
  const missing = NEEDS.filter((need) => !need.present());
  if (missing.length === 0) return [];
  const apt = aptGet();
  const packages = missing.map((need) => need.debian);
  if (apt !== undefined) {
    console.log(`\n▶ installing ${packages.join(', ')} (apt-get) for ${missing.map((need) => need.for).join(' and ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const [command, ...args] = apt;
    // apt's own chatter (debconf's notes, say) is shown only when a step fails: a first run prints no
    // warning that is not ours.
    const step = (stepArgs) => {
      const r = spawnSync(command, [...args, ...stepArgs], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env,
        encoding: 'utf8',
      });
      if (r.status !== 0) process.stderr.write(r.stderr ?? '');
      return r.status === 0;
    };
    if (step(['update', '-qq'])) step(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
  }
  return NEEDS.filter((need) => !need.present()).map(
    (need) =>
      `${need.what} is missing and could not be installed (${apt === undefined ? 'no apt-get as root or with sudo -n' : 'apt-get failed'}): ${need.for} will fail. Install the Debian package "${need.debian}".`,
  );
}
