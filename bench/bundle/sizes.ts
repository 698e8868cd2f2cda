// What a page sends to the browser, read from the build's route manifest (build/client/assets/manifest-*.js):
// the page's own scripts (its route module and the chunks no layout above it already loads) and the
// whole page (entry, root, layouts, route), raw and as served (the precompressed .br and .gz beside each).
import fs from 'node:fs';
import path from 'node:path';

interface ManifestRoute {
  id: string;
  parentId?: string;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, ManifestRoute>;
}

export interface ScriptSizes {
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface PageScripts {
  routeId: string;
  /** The route's own scripts: beyond what the entry, root and its layouts already load. */
  own: ScriptSizes & { names: string[] };
  /** Everything a first visit to the page loads. */
  page: ScriptSizes;
}

/** The route manifest of a build. @example readManifest('build/client') */
export function readManifest(clientDir: string): Manifest {
  const assets = path.join(clientDir, 'assets');
  const file = fs.readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error(`no route manifest in ${assets}: run npm run build`);
  const text = fs.readFileSync(path.join(assets, file), 'utf8');
  return JSON.parse(text.replace(/^window\.__reactRouterManifest=/, '').replace(/;\s*$/, '')) as Manifest;
}

function sizesOf(clientDir: string, urls: Iterable<string>): ScriptSizes {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  let files = 0;
  for (const url of urls) {
    const file = path.join(clientDir, url);
    raw += fs.statSync(file).size;
    // Small files are not precompressed (served as they are).
    gzip += fs.existsSync(`${file}.gz`) ? fs.statSync(`${file}.gz`).size : fs.statSync(file).size;
    brotli += fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : fs.statSync(file).size;
    files += 1;
  }
  return { files, raw, gzip, brotli };
}

/** The scripts of one route, its own and the whole page's. @example pageScripts('build/client', 'routes/app/farm') */
export function pageScripts(clientDir: string, routeId: string): PageScripts {
  const manifest = readManifest(clientDir);
  const route = manifest.routes[routeId];
  if (!route) throw new Error(`no route ${routeId} in the manifest`);
  const above = new Set<string>([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
  for (let parent = route.parentId; parent; parent = manifest.routes[parent]?.parentId) {
    const layout = manifest.routes[parent]!;
    above.add(layout.module);
    for (const url of layout.imports ?? []) above.add(url);
  }
  const mine = [route.module, ...(route.imports ?? [])].filter((url) => !above.has(url));
  const all = new Set([...above, route.module, ...(route.imports ?? [])]);
  return {
    routeId,
    own: { ...sizesOf(clientDir, mine), names: mine.map((url) => path.basename(url)) },
    page: sizesOf(clientDir, all),
  };
}
