// bench/lighthouse: Lighthouse (mobile) on the home, a genre and a pack page of the production build,
// on the embedded database with the demo data. Prints one JSON report (bench/results/lighthouse.json).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

process.env.NODE_ENV = 'production';
// React Router's production build, as `npm start` runs it (server/production-modules.mjs): registered
// before anything imports React Router, so the shop's modules are imported below, dynamically.
await import('#server/production');
const { freePort } = await import('#tests/ports');
const { loadConfig } = await import('#server/config');
const { startShop } = await import('#server/main');
const { createSessionMembers } = await import('#tests/members');
import { describeMachine } from '../machine';

const pages = (process.env.BENCH_PATHS ?? '/,/gacha/pokemon,/gacha/pokemon/stellar-pokemon-001,result').split(',');
/** The pack whose 10連 result page is measured (`result` in BENCH_PATHS): a member draws it first. */
const RESULT_PACK = { genre: 'pokemon', id: 'stellar-pokemon-001' };
const AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-0000';
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
async function warm(origin: string, pagePath: string, cookie?: string): Promise<void> {
  const html = await (await fetch(origin + pagePath, { headers: cookie ? { cookie } : {} })).text();
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
    AUTH_SECRET,
  }),
);

/** A member who has just drawn 10連: the result page's path and the cookie that opens it. */
async function drawnResult(): Promise<{ path: string; cookie: string }> {
  const [member] = await createSessionMembers(shop.services.db, { count: 1, secret: AUTH_SECRET, paid: 100_000 });
  const response = await fetch(`${shop.url}/api/v1/gachas/${RESULT_PACK.id}/draws`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${member!.bearer}`,
      'idempotency-key': randomUUID(),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ count: 10 }),
  });
  const body = (await response.json()) as { id?: string };
  if (!response.ok || !body.id) throw new Error(`the result page's draw failed: ${response.status}`);
  const name = (await shop.services.auth.$context).authCookies.sessionToken.name;
  return {
    path: `/gacha/${RESULT_PACK.genre}/${RESULT_PACK.id}/result/${body.id}`,
    cookie: `${name}=${member!.bearer}`,
  };
}
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
  for (const name of pages) {
    const result = name === 'result' ? await drawnResult() : null;
    const pagePath = result?.path ?? name;
    await warm(shop.url, pagePath, result?.cookie);
    const run = await lighthouse(shop.url + pagePath, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...categories],
      // The result page is a member's: Chromium sends the member's session cookie.
      ...(result ? { extraHeaders: { Cookie: result.cookie } } : {}),
    });
    if (!run) throw new Error(`Lighthouse returned nothing for ${pagePath}`);
    const lhr = run.lhr as unknown as Lhr;
    // BENCH_LHR_DIR=dir: each page's whole Lighthouse report, to read its main-thread and script audits.
    if (process.env.BENCH_LHR_DIR) {
      fs.mkdirSync(process.env.BENCH_LHR_DIR, { recursive: true });
      const file = `${name === 'result' ? 'result' : name.replace(/\//g, '_') || '_'}.json`;
      fs.writeFileSync(path.join(process.env.BENCH_LHR_DIR, file), JSON.stringify(run.lhr));
    }
    version = lhr.lighthouseVersion;
    results.push(summarise(pagePath, lhr));
  }
  const report = {
    benchmark: 'lighthouse',
    date: new Date().toISOString(),
    lighthouse: version,
    formFactor: 'mobile (Lighthouse default: simulated slow 4G, 4x CPU slowdown)',
    machine: describeMachine(),
    database: 'pglite',
    pages: results,
    // Issue 17's goals: performance ≥ 95, LCP ≤ 2.0 s, CLS ≤ 0.05, accessibility 100 (and SEO 100, compressed text).
    targets: { performance: 95, largestContentfulPaintMs: 2000, cumulativeLayoutShift: 0.05, accessibility: 100 },
    targetsMet: results.every(
      (r) =>
        (r.scores.performance ?? 0) >= 95 &&
        r.metrics.largestContentfulPaintMs <= 2000 &&
        r.metrics.cumulativeLayoutShift <= 0.05 &&
        r.scores.accessibility === 100 &&
        // The result page is a member's and noindex: SEO does not apply to it.
        (r.path.includes('/result/') || r.scores.seo === 100) &&
        r.textCompression.passed,
    ),
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
