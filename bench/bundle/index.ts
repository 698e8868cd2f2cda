// npm run bench:bundle — the JavaScript each measured page sends (no server needed: the build's manifest).
// Budgets: the farm page's own scripts under 60 kB (issue 16); the pack page's whole JavaScript, as served,
// measured against issue 17's 120 kB.
import fs from 'node:fs';
import path from 'node:path';
import { pageScripts } from './sizes';

const clientDir = path.resolve(import.meta.dirname, '../../build/client');
const KB = 1000;
const pages = [
  { routeId: 'routes/app/farm', path: '/app/farm', budget: { own: 'raw', bytes: 60 * KB } },
  { routeId: 'routes/app/friends-add', path: '/app/friends/add', budget: null },
  { routeId: 'routes/gacha/detail', path: '/gacha/{genreId}/{gachaId}', budget: { page: 'brotli', bytes: 120 * KB } },
  { routeId: 'routes/home', path: '/', budget: null },
] as const;

const report = {
  benchmark: 'bundle',
  at: new Date().toISOString(),
  note: 'bytes; own = the route module and chunks no layout above it loads; page = entry + root + layouts + route; gzip/brotli = the precompressed files the server sends',
  pages: pages.flatMap((p) => {
    let scripts;
    try {
      scripts = pageScripts(clientDir, p.routeId);
    } catch (error) {
      console.warn(String(error));
      return [];
    }
    const budget = p.budget
      ? 'own' in p.budget
        ? { of: `own.${p.budget.own}`, bytes: p.budget.bytes, within: scripts.own[p.budget.own] <= p.budget.bytes }
        : { of: `page.${p.budget.page}`, bytes: p.budget.bytes, within: scripts.page[p.budget.page] <= p.budget.bytes }
      : null;
    return [{ path: p.path, ...scripts, budget }];
  }),
};
console.log(JSON.stringify(report, null, 2));
if (process.env.BENCH_SAVE !== '0') {
  fs.mkdirSync(path.resolve(import.meta.dirname, '../results'), { recursive: true });
  fs.writeFileSync(path.resolve(import.meta.dirname, '../results/bundle.json'), `${JSON.stringify(report, null, 2)}\n`);
}
