// Prints what one `npm test` run measured, per tier (the projects of vitest.config.ts), from the record the
// tiers reporter wrote (tests/support/tiers-reporter.ts → test-results/tiers.json): files, tests, failures,
// skips and the tier's wall-clock span (first file start to last file end; the unit, process and db tiers
// run side by side, so their spans overlap).
import fs from 'node:fs';

const { tiers, seconds } = JSON.parse(fs.readFileSync('test-results/tiers.json', 'utf8'));
const sum = (key) => tiers.reduce((total, t) => total + t[key], 0);
console.log('tier         files  tests  failed  skipped  span');
for (const t of tiers)
  console.log(
    `${t.tier.padEnd(12)} ${String(t.files).padStart(5)} ${String(t.tests).padStart(6)} ${String(t.failed).padStart(7)} ${String(t.skipped).padStart(8)}  ${t.seconds} s`,
  );
const failed = sum('failed');
const skipped = sum('skipped');
console.log(
  `${sum('tests') - failed - skipped} passed, ${failed} failed, ${skipped} skipped; tests ran for ${seconds} s`,
);
