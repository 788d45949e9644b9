// Where the playground's files are: the app directory, found from this module (run from server/ or dist/server/).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest directory at or above `from` holding a package.json: the app's, whether bundled or not. */
export function packageDirOf(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json at or above ${from}`);
  }
}

/** apps/playground: the sources run from `server/`, the build from `dist/server/`. */
export const APP_DIR = packageDirOf(dirname(fileURLToPath(import.meta.url)));
