// A Vitest reporter that records each tier (a project of vitest.config.ts) of a run: its files, tests,
// failures, skips and wall-clock span (first file start to last file end), in test-results/tiers.json.
// The tier is the project Vitest ran the file in, so nothing here repeats the config's globs.
// `.ci/report.mjs` prints the table CI shows (decision 068).
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface TierFigures {
  tier: string;
  files: number;
  tests: number;
  failed: number;
  skipped: number;
  /** Wall-clock seconds from the tier's first file start to its last file end. */
  seconds: number;
}

/** What one file contributed: its tier, its tests' states and when it ran (ms since the epoch). */
export interface FileRecord {
  tier: string;
  states: readonly string[];
  start: number;
  end: number;
}

/** The per-tier table and the run's span, from each file's record. */
export function tiersOf(files: readonly FileRecord[]): { tiers: TierFigures[]; seconds: number } {
  const tiers = new Map<string, TierFigures & { start: number; end: number }>();
  for (const file of files) {
    const t = tiers.get(file.tier) ?? {
      tier: file.tier,
      files: 0,
      tests: 0,
      failed: 0,
      skipped: 0,
      seconds: 0,
      start: Infinity,
      end: 0,
    };
    t.files += 1;
    t.tests += file.states.length;
    t.failed += file.states.filter((s) => s === 'failed').length;
    t.skipped += file.states.filter((s) => s === 'skipped').length;
    t.start = Math.min(t.start, file.start);
    t.end = Math.max(t.end, file.end);
    tiers.set(file.tier, t);
  }
  const all = [...tiers.values()];
  const span = (start: number, end: number) => (end > start ? Math.round((end - start) / 1000) : 0);
  return {
    tiers: all.map(({ start, end, ...t }) => ({ ...t, seconds: span(start, end) })),
    seconds: span(Math.min(...all.map((t) => t.start)), Math.max(0, ...all.map((t) => t.end))),
  };
}

export default class TiersReporter implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly ended = new Map<string, number>();

  onTestModuleStart(module: TestModule) {
    this.started.set(module.id, Date.now());
  }

  onTestModuleEnd(module: TestModule) {
    this.ended.set(module.id, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const files = modules.map((module) => ({
      tier: module.project.name || 'default',
      states: [...module.children.allTests()].map((test) => test.result().state),
      start: this.started.get(module.id) ?? Date.now(),
      end: this.ended.get(module.id) ?? Date.now(),
    }));
    fs.mkdirSync('test-results', { recursive: true });
    fs.writeFileSync(path.join('test-results', 'tiers.json'), JSON.stringify(tiersOf(files), null, 2));
  }
}
