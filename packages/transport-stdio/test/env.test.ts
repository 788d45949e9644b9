// The server's environment: overrides, cwd, and the POSIX and Windows allow-lists.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultEnvironment } from '@mcpc/transport-stdio';
import { mergeEnvironment } from '../src/environment.js';
import { cleanup, node, recordingSink, request, waitFor } from './helpers.js';

afterEach(() => {
  delete process.env.MCPC_TEST_SECRET;
  return cleanup();
});

async function childEnvironment(options: Parameters<typeof node>[2] = {}) {
  const sink = recordingSink();
  const t = node('env.mjs', [], options);
  await t.start(sink);
  await t.send(request(1, 'env'));
  await waitFor(() => sink.messages.length > 0, 5_000, 'the environment report');
  return (sink.messages[0] as { result: { env: Record<string, string>; cwd: string } }).result;
}

describe('the server environment', () => {
  it.skipIf(process.platform === 'win32')(
    'inherits PATH and HOME but not a secret of the parent, and gets what env passes',
    async () => {
      process.env.MCPC_TEST_SECRET = 'hunter2';
      const { env } = await childEnvironment({ env: { MCPC_GIVEN: 'given-value', PATH: `${process.env.PATH}` } });
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.HOME).toBe(process.env.HOME);
      expect(env).not.toHaveProperty('MCPC_TEST_SECRET');
      expect(env.MCPC_GIVEN).toBe('given-value');
      // Nothing beyond the allow-list and what was passed (node itself may add nothing either).
      const allowed = new Set([
        'HOME',
        'LOGNAME',
        'PATH',
        'SHELL',
        'TERM',
        'USER',
        'LANG',
        'LC_ALL',
        'TMPDIR',
        'MCPC_GIVEN',
      ]);
      expect(Object.keys(env).filter((name) => !allowed.has(name))).toEqual([]);
    },
  );

  it('lets env override an inherited variable', async () => {
    const { env } = await childEnvironment({ env: { HOME: '/somewhere/else' } });
    expect(env.HOME).toBe('/somewhere/else');
  });

  it('runs in cwd when given', async () => {
    const { realpathSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { cwd } = await childEnvironment({ cwd: tmpdir() });
    expect(realpathSync(cwd)).toBe(realpathSync(tmpdir()));
  });
});

describe('defaultEnvironment()', () => {
  it('copies the POSIX allow-list, skipping exported shell functions and unset variables', () => {
    const env = defaultEnvironment({
      platform: 'linux',
      env: {
        HOME: '/home/me',
        PATH: '/bin',
        SHELL: '() { :; }; echo pwned',
        TERM: 'xterm',
        LANG: 'C.UTF-8',
        AWS_SECRET_ACCESS_KEY: 'x',
        USER: undefined,
      },
    });
    expect(env).toEqual({ HOME: '/home/me', PATH: '/bin', TERM: 'xterm', LANG: 'C.UTF-8' });
  });

  it('copies the Windows allow-list, reading names case-insensitively', () => {
    const env = defaultEnvironment({
      platform: 'win32',
      env: {
        Path: 'C:\\Windows',
        SystemRoot: 'C:\\Windows',
        ComSpec: 'C:\\Windows\\system32\\cmd.exe',
        PATHEXT: '.EXE;.CMD',
        HOME: '/x',
        GITHUB_TOKEN: 't',
      },
    });
    expect(env).toEqual({
      PATH: 'C:\\Windows',
      SYSTEMROOT: 'C:\\Windows',
      COMSPEC: 'C:\\Windows\\system32\\cmd.exe',
      PATHEXT: '.EXE;.CMD',
    });
  });

  it('defaults to this process and platform', () => {
    process.env.MCPC_TEST_SECRET = 'hunter2';
    const env = defaultEnvironment();
    expect(env).not.toHaveProperty('MCPC_TEST_SECRET');
    expect(env.PATH ?? env.Path).toBe(process.env.PATH);
  });
});

describe('mergeEnvironment()', () => {
  it('replaces a Windows variable whatever the case of its name', () => {
    expect(mergeEnvironment({ PATH: 'a', TEMP: 't' }, { Path: 'b' }, 'win32')).toEqual({ TEMP: 't', Path: 'b' });
    expect(mergeEnvironment({ PATH: 'a' }, { Path: 'b' }, 'linux')).toEqual({ PATH: 'a', Path: 'b' });
  });
});
