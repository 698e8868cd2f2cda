// The job runner's registration rules, without a database (the runner on real databases is in runner.db.test.ts).
import { describe, it, expect } from 'vitest';
import type { DatabaseHandle } from '#db/client';
import { createJobRunner } from './runner';
import { capturingLogger } from './test-support';

describe('job runner registration', () => {
  const fakeDatabase = { engine: 'postgres', db: {} } as unknown as DatabaseHandle;
  const make = () =>
    createJobRunner({
      database: fakeDatabase,
      logger: capturingLogger().logger,
      config: { DATABASE_URL: 'postgres://x@127.0.0.1:1/x' },
    });

  it('refuses a name twice and names pg-boss cannot store', () => {
    const runner = make();
    runner.register({ name: 'wallet.expire-coins', handler: async () => undefined });
    expect(() => runner.register({ name: 'wallet.expire-coins', handler: async () => undefined })).toThrow(
      /registered twice/,
    );
    expect(() => runner.register({ name: 'bad name!', handler: async () => undefined })).toThrow(/letters, digits/);
  });

  it('runNow on a runner that was never started says so', async () => {
    const runner = make();
    runner.register({ name: 'test.idle', handler: async () => undefined });
    await expect(runner.runNow('test.idle')).rejects.toThrow(/not running/);
    await runner.stop(); // stopping a runner that never started is fine
  });
});

describe('job runs reported', () => {
  it('tells onRun of each finished run, ok or failed, with its duration', async () => {
    const runs: { job: string; ok: boolean; seconds: number; lagSeconds?: number }[] = [];
    const runner = createJobRunner({
      database: { engine: 'postgres', db: {} } as unknown as DatabaseHandle,
      logger: capturingLogger().logger,
      config: { DATABASE_URL: 'postgres://x@127.0.0.1:1/x' },
      onRun: (run) => runs.push(run),
    });
    runner.register({ name: 'test.local-ok', scope: 'instance', handler: async () => ({ processed: 2 }) });
    runner.register({
      name: 'test.local-broken',
      scope: 'instance',
      handler: async () => {
        throw new Error('disk full');
      },
    });
    await runner.runNow('test.local-ok');
    await expect(runner.runNow('test.local-broken')).rejects.toThrow('disk full');
    expect(runs.map(({ job, ok }) => ({ job, ok }))).toEqual([
      { job: 'test.local-ok', ok: true },
      { job: 'test.local-broken', ok: false },
    ]);
    for (const run of runs) expect(run.seconds).toBeGreaterThanOrEqual(0);
    // A run asked for by hand was never due: no lag is made up for it.
    for (const run of runs) expect(run.lagSeconds).toBeUndefined();
  });
});
