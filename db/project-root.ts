// The project's folder, found from a module's own address: the same from the TypeScript sources
// (db/, server/) and from the compiled server (build/server-runtime/, docs/decisions/047).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The nearest folder at or above the module that holds `db/migrations`, i.e. the project root.
 * @example const root = projectRootOf(import.meta.url) // '/srv/shop' from /srv/shop/server/main.ts or /srv/shop/build/server-runtime/main-X.js
 */
export function projectRootOf(moduleUrl: string): string {
  const start = path.dirname(fileURLToPath(moduleUrl));
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'db', 'migrations'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No project folder (with db/migrations) above ${start}`);
  }
}
