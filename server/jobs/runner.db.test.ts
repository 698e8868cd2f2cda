// The job runner on a real database: the test database (PostgreSQL when it answers) and, always, PGlite,
// since `npm start` runs pg-boss on PGlite while CI's test database is PostgreSQL. Registration rules
// on their own are in runner.test.ts.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '#db/client';
import { createTestDatabase, type TestDatabase } from '#tests/database';
import { createJobRunner, JOB_TIME_ZONE, type JobContext, type JobRunner } from './runner';
import { capturingLogger, type LogLine } from './test-support';
import { scaledTimeout } from '#tests/settings';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The rows of a db.execute result (the same shape on both drivers). */
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const projectRoot = path.resolve(here, '../..');

interface Engine {
  label: string;
  open(): Promise<{ database: DatabaseHandle; databaseUrl?: string; dataDir: string; drop(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    label: 'the test database',
    async open() {
      const testDb: TestDatabase = await createTestDatabase('jobs');
      const database = await openDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
      return { database, databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, drop: () => testDb.drop() };
    },
  },
];
if (process.env.TEST_DATABASE !== 'pglite') {
  engines.push({
    label: 'PGlite',
    async open() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oripa-jobs-pglite-'));
      const database = await openDatabase({ dataDir });
      return { database, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
    },
  });
}

describe.each(engines)('job runner on $label', (engine) => {
  let opened: Awaited<ReturnType<Engine['open']>>;
  let runner: JobRunner;
  let lines: LogLine[];
  const seen: JobContext[] = [];
  const localRuns: Date[] = [];

  beforeAll(async () => {
    opened = await engine.open();
    const capture = capturingLogger();
    lines = capture.lines;
    runner = createJobRunner({
      database: opened.database,
      logger: capture.logger,
      config: { DATABASE_URL: opened.databaseUrl },
      pollingIntervalSeconds: 0.5,
    });
    runner.register({
      name: 'test.counted',
      async handler(ctx) {
        seen.push(ctx);
        const result = await ctx.db.execute(sql`select 3::int as n`);
        return { processed: Number(rowsOf(result)[0]?.n) };
      },
    });
    runner.register({
      name: 'test.scheduled',
      cron: '*/5 * * * *',
      handler: async () => undefined,
      retryLimit: 1,
      expireInSeconds: 60,
    });
    runner.register({
      name: 'test.broken',
      handler: async () => {
        throw new Error('the handler broke');
      },
    });
    runner.register({
      name: 'test.local',
      cron: '0 4 * * *',
      scope: 'instance',
      handler: async ({ now }) => void localRuns.push(now),
    });
    runner.register({
      name: 'test.every-second',
      cron: '* * * * * *',
      scope: 'instance',
      handler: async () => ({ processed: 1 }),
    });
    await runner.start();
  });

  afterAll(async () => {
    await runner?.stop();
    await opened?.database.close();
    await opened?.drop();
  });

  it('runNow runs the job exactly once, with ctx, and logs one line with name, count and duration', async () => {
    const before = Date.now();
    const summary = await runner.runNow('test.counted');
    expect(summary).toMatchObject({ job: 'test.counted', processed: 3 });
    expect(summary.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen).toHaveLength(1);
    const [ctx] = seen;
    expect(ctx.db).toBe(opened.database.db);
    expect(ctx.now).toBeInstanceOf(Date);
    expect(ctx.now.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(ctx.now.getTime()).toBeLessThanOrEqual(Date.now());
    expect(typeof ctx.logger.info).toBe('function');

    // Three more polls: nothing runs it a second time.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(seen).toHaveLength(1);
    const jobs = await opened.database.db.execute(
      sql`select state::text as state from pgboss.job where name = 'test.counted'`,
    );
    expect(rowsOf(jobs)).toEqual([{ state: 'completed' }]);

    const runLines = lines.filter((line) => line.job === 'test.counted' && line.processed !== undefined);
    expect(runLines).toHaveLength(1);
    expect(runLines[0]).toMatchObject({ level: 30, processed: 3, trigger: 'manual', component: 'jobs' });
    expect(typeof runLines[0].durationMs).toBe('number');
  });

  it('creates the schedule of a cron job in pg-boss, in Tokyo time', async () => {
    const schedules = await opened.database.db.execute(
      sql`select name, cron, timezone from pgboss.schedule where name = 'test.scheduled'`,
    );
    expect(rowsOf(schedules)).toEqual([{ name: 'test.scheduled', cron: '*/5 * * * *', timezone: JOB_TIME_ZONE }]);
    const queues = await opened.database.db.execute(
      sql`select policy, retry_limit::int as "retryLimit", expire_seconds::int as "expireSeconds" from pgboss.queue where name = 'test.scheduled'`,
    );
    expect(rowsOf(queues)).toEqual([{ policy: 'singleton', retryLimit: 1, expireSeconds: 60 }]);
    // Jobs without a cron and instance jobs have no pg-boss schedule.
    const others = await opened.database.db.execute(
      sql`select name from pgboss.schedule where name <> 'test.scheduled'`,
    );
    expect(rowsOf(others)).toEqual([]);
  });

  it('logs a failing run and rejects runNow, and the process goes on', async () => {
    await expect(runner.runNow('test.broken')).rejects.toThrow(/the handler broke/);
    const failed = lines.filter((line) => line.job === 'test.broken' && line.level === 50);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ msg: 'job test.broken failed', err: { message: 'the handler broke' } });
    // The runner still works after a failure.
    await expect(runner.runNow('test.counted')).resolves.toMatchObject({ processed: 3 });
  });

  it('runs an instance job here, on runNow, and refuses unknown names and late registrations', async () => {
    await expect(runner.runNow('test.local')).resolves.toMatchObject({ job: 'test.local', processed: 0 });
    expect(localRuns).toHaveLength(1);
    await expect(runner.runNow('test.nothing')).rejects.toThrow(/no job named test.nothing/);
    expect(() => runner.register({ name: 'test.late', handler: async () => undefined })).toThrow(
      /before the job runner starts/,
    );
    expect(runner.names()).toEqual([
      'test.counted',
      'test.scheduled',
      'test.broken',
      'test.local',
      'test.every-second',
    ]);
  });

  it('fires an instance job on its cron, in this process', async () => {
    const ticks = () => lines.filter((line) => line.job === 'test.every-second' && line.trigger === 'schedule');
    const deadline = Date.now() + scaledTimeout(5000);
    while (ticks().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ticks().length).toBeGreaterThanOrEqual(2);
    expect(ticks()[0]).toMatchObject({ processed: 1, level: 30 });
  });

  it(
    'stop() leaves no open handles: a process that starts, runs and stops the runner exits by itself',
    async () => {
      const child = await engine.open();
      await child.database.close(); // the child opens it itself
      try {
        const output = await new Promise<string>((resolve, reject) => {
          execFile(
            process.execPath,
            ['--import', 'tsx', path.join(here, 'exit-check.fixture.ts')],
            {
              cwd: projectRoot,
              timeout: scaledTimeout(45_000),
              env: { ...process.env, DATABASE_URL: child.databaseUrl ?? '', DATA_DIR: child.dataDir },
            },
            (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
          );
        });
        expect(JSON.parse(output.trim().split('\n').at(-1) ?? '{}')).toEqual({ stopped: true, processed: 1 });
      } finally {
        await child.drop();
      }
    },
    scaledTimeout(60_000),
  );
});
