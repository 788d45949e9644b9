// The package sources transpiled to plain ESM in a temp dir, for tests that run them in a child process.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const packages = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The sources of @mcpc/jsonrpc and this package as plain ESM in a temp dir, for a test that needs
 * them in a process vitest does not run. Returns the file URL of the transport's entry.
 */
export function transpileForSubprocess(): { entry: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpc-stdio-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  for (const [pkg, rewrite] of [
    ['jsonrpc', (s: string) => s],
    ['transport-stdio', (s: string) => s.replace(/from '@mcpc\/jsonrpc'/g, "from '../jsonrpc/index.js'")],
  ] as const) {
    const src = join(packages, pkg, 'src');
    mkdirSync(join(dir, pkg));
    for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
      const { outputText } = ts.transpileModule(readFileSync(join(src, file), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
        fileName: file,
      });
      writeFileSync(join(dir, pkg, file.replace(/\.ts$/, '.js')), rewrite(outputText));
    }
  }
  return { entry: pathToFileURL(join(dir, 'transport-stdio', 'index.js')).href, dir };
}
