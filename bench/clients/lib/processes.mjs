// The benchmark's child processes: a Streamable HTTP server per trial, and a node script run for its @@RESULT line.
import { spawn } from 'node:child_process';

/** The only variables every server and trial process starts with (the stdio servers inherit them). */
export const ENV_NAMES = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];
const BASE_ENV = Object.fromEntries(
  ENV_NAMES.filter((n) => process.env[n] !== undefined).map((n) => [n, process.env[n]]),
);

/** A Streamable HTTP benchmark server of its own for one trial. */
export function startHttpServer(serverPath, tools, json) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        serverPath,
        '--transport',
        'http',
        ...(json ? ['--json'] : []),
        '--tools',
        String(tools),
        '--max-lifetime',
        '300000',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'], env: BASE_ENV },
    );
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error('HTTP server did not start in 20 s')), 20_000);
    const fail = (e) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${e.message}\n${err.slice(-2000)}`));
    };
    child.stderr.on('data', (c) => (err = (err + c).slice(-4000)));
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        const exited = new Promise((r) => child.once('exit', r));
        resolve({
          url: m[1],
          stderr: () => err,
          async stop() {
            child.stdin.end();
            const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
            await exited;
            clearTimeout(kill);
          },
        });
      }
    });
    child.once('exit', (code) => fail(new Error(`HTTP server exited (${code}) before listening`)));
  });
}

/** Runs one node script in a fresh process and returns what it printed after @@RESULT. */
export function runNode(nodeBin, args, { budgetMs, cwd }) {
  return new Promise((resolve) => {
    const child = spawn(nodeBin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: BASE_ENV });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err = (err + c).slice(-8000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), budgetMs + 15_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('@@RESULT '));
      let result;
      try {
        result = line ? JSON.parse(line.slice(9)) : { error: `no result (exit ${signal ?? code})` };
      } catch (e) {
        result = { error: `unreadable result: ${e.message}` };
      }
      if (result.error && err) result.stderr = err.slice(-2000);
      resolve(result);
    });
  });
}
