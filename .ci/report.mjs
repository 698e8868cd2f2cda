// Prints what one `npm test` run measured, per tier (the projects of vitest.config.ts), from Vitest's JSON
// report: files, tests, failures, and the tier's wall-clock span (first file start to last file end; tiers
// of group 0 run side by side, so a span includes time shared with the others). Also writes the figures
// to test-results/tiers.json for the run's record.
import fs from 'node:fs';
import path from 'node:path';

const report = JSON.parse(fs.readFileSync('test-results/vitest.json', 'utf8'));
const root = process.cwd() + path.sep;

/** The tier a test file runs in, by the same names vitest.config.ts includes. */
function tierOf(file) {
  const name = file.startsWith(root) ? file.slice(root.length) : file;
  if (name.startsWith('tests/storm/')) return 'storm';
  if (name.startsWith('tests/http/') || name.startsWith('e2e/')) return 'integration';
  if (name.endsWith('.db.test.ts')) return 'db';
  if (name.endsWith('.process.test.ts')) return 'process';
  return 'unit';
}

const tiers = new Map();
for (const file of report.testResults) {
  const tier = tierOf(file.name);
  const t = tiers.get(tier) ?? { files: 0, tests: 0, failed: 0, skipped: 0, start: Infinity, end: 0 };
  t.files += 1;
  for (const a of file.assertionResults) {
    t.tests += 1;
    if (a.status === 'failed') t.failed += 1;
    if (a.status === 'pending' || a.status === 'skipped' || a.status === 'todo') t.skipped += 1;
  }
  t.start = Math.min(t.start, file.startTime);
  t.end = Math.max(t.end, file.endTime);
  tiers.set(tier, t);
}

const rows = [...tiers].map(([tier, t]) => ({
  tier,
  files: t.files,
  tests: t.tests,
  failed: t.failed,
  skipped: t.skipped,
  seconds: Math.round((t.end - t.start) / 1000),
}));
const first = Math.min(...[...tiers.values()].map((t) => t.start));
const last = Math.max(...[...tiers.values()].map((t) => t.end));
console.log('tier         files  tests  failed  skipped  span');
for (const r of rows)
  console.log(
    `${r.tier.padEnd(12)} ${String(r.files).padStart(5)} ${String(r.tests).padStart(6)} ${String(r.failed).padStart(7)} ${String(r.skipped).padStart(8)}  ${r.seconds} s`,
  );
console.log(
  `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped; tests ran for ${Math.round((last - first) / 1000)} s`,
);
fs.writeFileSync(
  'test-results/tiers.json',
  JSON.stringify({ tiers: rows, seconds: Math.round((last - first) / 1000) }, null, 2),
);
