#!/usr/bin/env node
// Runs the workspace's turbo with its telemetry off, so no first-run banner reaches a user's terminal.
//
// turbo reads the opt-out only from the environment or a per-user file we should not write.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const turbo = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'turbo.cmd' : 'turbo');
const r = spawnSync(turbo, process.argv.slice(2), {
  cwd: process.cwd(),
  stdio: 'inherit',
  shell: process.platform === 'win32',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
});
if (r.error) throw r.error;
process.exit(r.status ?? 1);
