// bench/lighthouse: Lighthouse (mobile) on the home, a genre and a pack page of the production build,
// on the embedded database with the demo data. Prints one JSON report (bench/results/lighthouse.json).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { freePort } from '#tests/ports';
import { loadConfig } from '#server/config';
import { startShop } from '#server/main';

const pages = (process.env.BENCH_PATHS ?? '/,/gacha/pokemon,/gacha/pokemon/stellar-pokemon-001').split(',');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
// What a phone's Chromium sends for images: the resizer answers AVIF to it.
const IMAGE_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

type Audit = {
  id: string;
  title: string;
  score: number | null;
  numericValue?: number;
  displayValue?: string;
  details?: { items?: Array<Record<string, unknown>> };
};
type Lhr = {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, Audit>;
};

/** Fetches a page and every /_img address in it, so Lighthouse measures the shop, not first-time resizing. */
async function warm(origin: string, pagePath: string): Promise<void> {
  const html = await (await fetch(origin + pagePath)).text();
  const urls = new Set<string>();
  for (const match of html.matchAll(/\/_img\?[^"'\s,]+/g)) urls.add(match[0].replace(/&amp;/g, '&'));
  for (const url of urls) await (await fetch(origin + url, { headers: { accept: IMAGE_ACCEPT } })).arrayBuffer();
}

/** Audits of a category that lost points (weight > 0, score < 1), for fixing what Lighthouse finds. */
function failing(lhr: Lhr, category: string): string[] {
  return (lhr.categories[category]?.auditRefs ?? [])
    .filter(
      (ref) =>
        ref.weight > 0 && lhr.audits[ref.id] && lhr.audits[ref.id]!.score !== null && lhr.audits[ref.id]!.score! < 1,
    )
    .map((ref) => `${ref.id}: ${lhr.audits[ref.id]!.title}`);
}

function summarise(pagePath: string, lhr: Lhr) {
  const audit = (id: string) => lhr.audits[id];
  const scripts = (audit('resource-summary')?.details?.items ?? []).find((item) => item.resourceType === 'script');
  const compression = audit('uses-text-compression');
  const score = (id: string) =>
    lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id]!.score! * 100);
  return {
    path: pagePath,
    ...(lhr.runtimeError ? { runtimeError: lhr.runtimeError } : {}),
    scores: Object.fromEntries(categories.map((id) => [id, score(id)])),
    metrics: {
      largestContentfulPaintMs: Math.round(audit('largest-contentful-paint')?.numericValue ?? NaN),
      firstContentfulPaintMs: Math.round(audit('first-contentful-paint')?.numericValue ?? NaN),
      cumulativeLayoutShift: Math.round((audit('cumulative-layout-shift')?.numericValue ?? NaN) * 1000) / 1000,
      totalBlockingTimeMs: Math.round(audit('total-blocking-time')?.numericValue ?? NaN),
      speedIndexMs: Math.round(audit('speed-index')?.numericValue ?? NaN),
      totalTransferBytes: Math.round(audit('total-byte-weight')?.numericValue ?? NaN),
      scriptTransferBytes: Number(scripts?.transferSize ?? NaN),
      scriptRequests: Number(scripts?.requestCount ?? NaN),
    },
    textCompression: {
      passed: compression?.score === 1 || compression?.score === null,
      score: compression?.score ?? null,
      displayValue: compression?.displayValue ?? '',
      resources: (compression?.details?.items ?? []).map((item) => item.url),
    },
    failingAudits: Object.fromEntries(categories.map((id) => [id, failing(lhr, id)])),
  };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-bench-lighthouse-'));
const port = Number(process.env.PORT ?? 0) || (await freePort());
const shop = await startShop(
  loadConfig({
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: `http://localhost:${port}`,
    DATA_DIR: dataDir, // no DATABASE_URL: the embedded database (PGlite), as on a first `npm start`
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
  }),
);
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const results = [];
  let version = '';
  for (const pagePath of pages) {
    await warm(shop.url, pagePath);
    const run = await lighthouse(shop.url + pagePath, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...categories],
    });
    if (!run) throw new Error(`Lighthouse returned nothing for ${pagePath}`);
    const lhr = run.lhr as unknown as Lhr;
    version = lhr.lighthouseVersion;
    results.push(summarise(pagePath, lhr));
  }
  const report = {
    benchmark: 'lighthouse',
    date: new Date().toISOString(),
    lighthouse: version,
    formFactor: 'mobile (Lighthouse default: simulated slow 4G, 4x CPU slowdown)',
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown', node: process.version },
    database: 'pglite',
    pages: results,
    targetsMet: results.every((r) => r.scores.seo === 100 && r.textCompression.passed),
  };
  const out = JSON.stringify(report, null, 2);
  console.log(out);
  if (process.env.BENCH_SAVE !== '0') {
    fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join('bench', 'results', process.env.BENCH_OUT ?? 'lighthouse.json'), out + '\n');
  }
} finally {
  await chrome.kill();
  await shop.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
