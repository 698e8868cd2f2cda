// npm run bench:bundle — the JavaScript each page sends (no server needed: the build's manifest), for every
// route, against the committed budgets of bench/budgets/pages.json (the same file the client-bundle test checks).
import fs from 'node:fs';
import path from 'node:path';
import { pageScripts, readManifest } from './sizes';
import budgetFile from '../budgets/pages.json' with { type: 'json' };

const budgets = budgetFile as unknown as {
  default: number;
  routes: Record<string, number>;
  own: Record<string, number>;
};
const clientDir = path.resolve(import.meta.dirname, '../../build/client');
const routeIds = Object.keys(readManifest(clientDir).routes).filter(
  (id) => id !== 'root' && !id.startsWith('layouts/'),
);

const pages = routeIds
  .map((routeId) => {
    const scripts = pageScripts(clientDir, routeId);
    const budget = budgets.routes[routeId] ?? budgets.default;
    const ownBudget = budgets.own[routeId];
    return {
      ...scripts,
      budget: { of: 'page.brotli', bytes: budget, within: scripts.page.brotli <= budget },
      ...(ownBudget ? { ownBudget: { of: 'own.raw', bytes: ownBudget, within: scripts.own.raw <= ownBudget } } : {}),
    };
  })
  .sort((a, b) => b.page.brotli - a.page.brotli);

const report = {
  benchmark: 'bundle',
  at: new Date().toISOString(),
  note: 'bytes; own = the route module and chunks no layout above it loads; page = entry + root + layouts + route; gzip/brotli = the precompressed files the server sends',
  allWithinBudget: pages.every((p) => p.budget.within && (!('ownBudget' in p) || p.ownBudget!.within)),
  packPage: pages.find((p) => p.routeId === 'routes/gacha/detail')?.page,
  pages,
};
console.log(JSON.stringify(report, null, 2));
if (process.env.BENCH_SAVE !== '0') {
  fs.mkdirSync(path.resolve(import.meta.dirname, '../results'), { recursive: true });
  fs.writeFileSync(path.resolve(import.meta.dirname, '../results/bundle.json'), `${JSON.stringify(report, null, 2)}\n`);
}
