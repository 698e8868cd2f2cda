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
