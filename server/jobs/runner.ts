// The shop's job runner: pg-boss on the shop's own database (schema `pgboss`), with one pino line per run.
//
// Engines: on PostgreSQL pg-boss opens its own small pool (max 2) on DATABASE_URL; on embedded PGlite it
// shares the one PGlite instance through pg-boss's `fromPglite` adapter (PGlite is single-connection, so
// pg-boss's queries queue behind the shop's own). pg-boss creates and migrates its schema on start(); with
// separate roles (DATABASE_MIGRATION_URL) the owner does that first, on a connection of its own, and the shop
// role's pg-boss only checks the version: the shop role creates nothing (docs/decisions/051).
//
// Several instances: every server instance with JOBS_ENABLED runs a runner on the same database. A
// cluster job (the default) runs once per tick across all of them (pg-boss docs, "Scheduling", and
// timekeeper.js in 12.38): schedules live in `pgboss.schedule`; each pass (every 30 s) one instance wins a
// claim on pg-boss's version row and sends the due occurrences, each under a per-schedule singleton key
// and 60-second slot, so two instances can never create the same occurrence twice; the job created is
// fetched by exactly one worker (FOR UPDATE SKIP LOCKED). The queues use pg-boss's `singleton` policy,
// so at most one run of a job is active at a time across the cluster; a run asked for meanwhile waits.
// Instances on different releases share the schedules: a cron changed in one release is written by
// whichever instance starts last.
// An `instance` job (local work, such as cleaning this instance's own disk) runs on every instance on
// an in-process timer instead, since a cluster job would clean only whichever instance won the tick.
import { performance } from 'node:perf_hooks';
import { PgBoss, fromPglite, type PGliteLike, type ConstructorOptions } from 'pg-boss';
import type { Database, DatabaseHandle } from '#db/client';
import type { Logger } from '../logger';
import { isDatabaseUnavailable } from '#db/unavailable';
import type { ShopConfig } from '../config';

/** What a handler gets: the shop's database, a logger bound to the job, and the run's start time. */
export interface JobContext {
  db: Database;
  logger: Logger;
  now: Date;
}

export interface JobDefinition {
  /** Queue name, `<module>.<what>`, e.g. `images.cache-cleanup` (letters, digits, `_ . - /`). */
  name: string;
  /** Five-field cron expression in Asia/Tokyo, e.g. `'*\/5 * * * *'` or `'0 4 * * *'`; none: runs only on runNow. */
  cron?: string;
  /** Does the work; resolves with how many items it handled (logged), throws to fail (and retry) the run. */
  handler: (ctx: JobContext) => Promise<{ processed: number } | void>;
  /** Retries after a failed run (pg-boss default 2). */
  retryLimit?: number;
  /** Seconds a run may take before pg-boss fails it (default 900). */
  expireInSeconds?: number;
  /**
   * `cluster` (default): once per tick across all instances, through pg-boss. `instance`: on every
   * instance, on an in-process timer, for work on this instance's own files.
   */
  scope?: 'cluster' | 'instance';
}

/** What runNow answers, and what a cluster run stores as its pg-boss output. */
export interface JobRunSummary {
  job: string;
  processed: number;
  durationMs: number;
}

export interface JobRunner {
  /** Adds a job; call before start(). Names are unique. */
  register(job: JobDefinition): void;
  /** Starts pg-boss (creates/migrates its schema), the queues, workers and schedules. */
  start(): Promise<void>;
  /** Stops scheduling and waits (up to a timeout) for running jobs; leaves the shop's database open. */
  stop(): Promise<void>;
  /**
   * Runs a job now and resolves when that run has finished (rejects when it failed). A cluster job is
   * queued in pg-boss (any instance's worker may take it; it is never retried); an instance job runs
   * here, in this process.
   */
  runNow(name: string): Promise<JobRunSummary>;
  /** The registered job names, in registration order. */
  names(): string[];
}

export interface JobRunnerOptions {
  database: DatabaseHandle;
  logger: Logger;
  config: Pick<ShopConfig, 'DATABASE_URL'> & Partial<Pick<ShopConfig, 'DATABASE_MIGRATION_URL'>>;
  /** Tuning, for tests: how often idle workers poll (default 2 s) and schedules are checked (default 30 s). */
  pollingIntervalSeconds?: number;
  cronMonitorIntervalSeconds?: number;
  /** How long stop() waits for running jobs (default 10 s). */
  stopTimeoutMs?: number;
  /** Told of every finished run: the metrics' job runs, durations and lag (decision 072). */
  onRun?: (run: JobRunReport) => void;
}

/** One finished run as onRun hears it. */
export interface JobRunReport {
  job: string;
  ok: boolean;
  seconds: number;
  /** Seconds from when the run was due (its schedule's time, or when it was queued) to its start. */
  lagSeconds?: number;
}

/** The time zone every cron expression is read in. */
export const JOB_TIME_ZONE = 'Asia/Tokyo';
/** pg-boss's own schema. */
export const JOB_SCHEMA = 'pgboss';

/** Longest setTimeout Node accepts (about 24.8 days); a later occurrence is re-aimed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * @example
 * const runner = createJobRunner({ database, logger, config });
 * registerShopJobs(runner, services);
 * await runner.start(); ... await runner.stop();
 */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { database, logger: rootLogger, config } = options;
  const logger = rootLogger.child({ component: 'jobs' });
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const definitions = new Map<string, JobDefinition>();
  const workerIds = new Map<string, string>();
  const timers = new Map<string, NodeJS.Timeout>();
  const localRuns = new Map<string, Promise<JobRunSummary>>();
  let boss: PgBoss | undefined;
  let state: 'new' | 'starting' | 'started' | 'stopped' = 'new';
  let starting: Promise<void> | undefined;

  const bossOptions: ConstructorOptions = {
    schema: JOB_SCHEMA,
    instanceName: 'oripa-shop',
    ...(options.cronMonitorIntervalSeconds ? { cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds } : {}),
  };

  const execute = (job: JobDefinition, run: JobRun) => executeJob(database, logger, job, run, options.onRun);

  /** One local run at a time per instance job; a tick that finds one running is skipped. */
  function runLocally(job: JobDefinition, trigger: string, dueAt?: Date): Promise<JobRunSummary> {
    const running = localRuns.get(job.name);
    if (running) return running;
    const run = execute(job, { trigger, dueAt }).finally(() => localRuns.delete(job.name));
    localRuns.set(job.name, run);
    return run;
  }

  /** Aims a timer at the next occurrence strictly after `after` (the one just run, so it never runs twice). */
  function armInstanceTimer(job: JobDefinition, after = new Date()) {
    if (state !== 'started' || !boss || !job.cron) return;
    const from = new Date(Math.max(Date.now(), after.getTime()));
    const [next] = boss.previewSchedule(job.cron, { tz: JOB_TIME_ZONE, from, count: 1 });
    if (!next) return;
    const delay = next.getTime() - Date.now();
    const timer = setTimeout(
      () => {
        timers.delete(job.name);
        if (state !== 'started') return;
        if (delay > MAX_TIMER_MS) return armInstanceTimer(job); // too far for one timer: aim again
        // Errors are in the log line already; a failed instance run waits for its next tick.
        runLocally(job, 'schedule', next).catch(() => undefined);
        armInstanceTimer(job, next);
      },
      Math.max(0, Math.min(delay, MAX_TIMER_MS)),
    );
    timer.unref();
    timers.set(job.name, timer);
  }

  async function startBoss(): Promise<void> {
    const started = performance.now();
    let pgBoss: PgBoss;
    try {
      if (ownerInstalls(database, config)) await installAsOwner(config, bossOptions, logger);
      pgBoss = createBoss(database, config, bossOptions);
    } catch (error) {
      state = 'stopped';
      throw error;
    }
    // Without an 'error' listener an EventEmitter error would end the process.
    pgBoss.on('error', databaseAwareErrorLog(logger));
    pgBoss.on('warning', (warning) => logger.warn({ warning }, `job runner warning: ${warning.message}`));
    boss = pgBoss;
    try {
      await pgBoss.start();
      for (const job of definitions.values()) {
        if (job.scope === 'instance') {
          if (job.cron) pgBoss.previewSchedule(job.cron, { tz: JOB_TIME_ZONE, count: 1 }); // throws on a bad expression
        } else {
          workerIds.set(job.name, await setUpClusterJob(pgBoss, job, pollingIntervalSeconds, execute));
        }
      }
    } catch (error) {
      state = 'stopped';
      await pgBoss.stop({ graceful: false }).catch(() => undefined);
      throw error;
    }
    state = 'started';
    for (const job of definitions.values()) if (job.scope === 'instance') armInstanceTimer(job);
    logger.info(
      { engine: database.engine, jobs: [...definitions.keys()], durationMs: Math.round(performance.now() - started) },
      'job runner started',
    );
  }

  return {
    register(job) {
      if (state !== 'new') throw new Error(`register ${job.name} before the job runner starts`);
      if (definitions.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
      if (!/^[\w.\-/]+$/.test(job.name))
        throw new Error(`job name ${JSON.stringify(job.name)}: use letters, digits and _ . - /`);
      definitions.set(job.name, job);
    },

    start() {
      if (state !== 'new') return Promise.reject(new Error('the job runner starts only once'));
      state = 'starting';
      starting = startBoss();
      return starting;
    },

    async stop() {
      if (starting) await starting.catch(() => undefined); // a stop during start waits for it, then undoes it
      if (state === 'new' || state === 'stopped') {
        state = 'stopped';
        return;
      }
      state = 'stopped';
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      const timeout = options.stopTimeoutMs ?? 10_000;
      // close: pg-boss ends the pool it opened on PostgreSQL; it never closes a PGlite it was handed.
      await boss?.stop({ graceful: true, close: true, timeout });
      await Promise.allSettled(localRuns.values());
      logger.info('job runner stopped');
    },

    async runNow(name) {
      const job = definitions.get(name);
      if (!job) throw new Error(`no job named ${name} (registered: ${[...definitions.keys()].join(', ') || 'none'})`);
      if (job.scope === 'instance') return runLocally(job, 'manual');
      if (state !== 'started' || !boss) throw new Error(`the job runner is not running, so ${name} cannot be queued`);
      const id = await boss.send(name, { trigger: 'manual' }, { retryLimit: 0 });
      if (!id) throw new Error(`job ${name} could not be queued`);
      const workerId = workerIds.get(name);
      if (workerId) boss.notifyWorker(workerId); // fetch now rather than at the next poll
      return waitForJob(boss, job, id);
    },

    names: () => [...definitions.keys()],
  };
}

function createBoss(
  database: DatabaseHandle,
  config: JobRunnerOptions['config'],
  bossOptions: ConstructorOptions,
): PgBoss {
  if (database.engine === 'pglite') {
    // drizzle keeps the PGlite client it was given as $client: the same instance, never a second one.
    const lite = (database.db as unknown as { $client: PGliteLike }).$client;
    // One embedded instance: no instance registry (it would add a heartbeat on the single connection).
    return new PgBoss({ ...bossOptions, backend: 'pglite', db: fromPglite(lite), registerInstance: false });
  }
  if (!config.DATABASE_URL) throw new Error('The job runner on PostgreSQL needs DATABASE_URL');
  return new PgBoss({
    ...bossOptions,
    connectionString: config.DATABASE_URL,
    max: 2,
    application_name: 'oripa-shop-jobs',
    // The owner installed and migrated the schema (installAsOwner): only check its version.
    ...(ownerInstalls(database, config) ? { migrate: false } : {}),
  });
}

/** Whether pg-boss's schema is the owner's to create (separate roles on PostgreSQL). */
function ownerInstalls(database: DatabaseHandle, config: JobRunnerOptions['config']): boolean {
  return (
    database.engine === 'postgres' &&
    !!config.DATABASE_MIGRATION_URL &&
    config.DATABASE_MIGRATION_URL !== config.DATABASE_URL
  );
}

/**
 * Creates or migrates pg-boss's schema as the owner role, then lets go: a pg-boss of one connection
 * that neither supervises, schedules nor registers, stopped at once. Several instances starting
 * together take turns on pg-boss's own advisory lock.
 */
async function installAsOwner(
  config: JobRunnerOptions['config'],
  bossOptions: ConstructorOptions,
  logger: Logger,
): Promise<void> {
  const installer = new PgBoss({
    ...bossOptions,
    connectionString: config.DATABASE_MIGRATION_URL!,
    max: 1,
    application_name: 'oripa-shop-jobs-install',
    supervise: false,
    schedule: false,
    registerInstance: false,
  });
  installer.on('error', (error) => logger.error({ err: error }, 'job schema install error'));
  try {
    await installer.start();
  } finally {
    await installer.stop({ graceful: false, close: true }).catch(() => undefined);
  }
}

/** What starts a run: why, its pg-boss id (cluster jobs), and when it was due (for its lag). */
interface JobRun {
  trigger: string;
  jobId?: string;
  dueAt?: Date;
}

/** Runs a handler with its context, logs the run as one line (job, processed, duration) and reports it. */
async function executeJob(
  database: DatabaseHandle,
  logger: Logger,
  job: JobDefinition,
  run: JobRun,
  onRun: JobRunnerOptions['onRun'],
): Promise<JobRunSummary> {
  const jobLogger = logger.child({ job: job.name, ...(run.jobId ? { jobId: run.jobId } : {}) });
  const now = new Date();
  const started = performance.now();
  const report = (ok: boolean) =>
    onRun?.({
      job: job.name,
      ok,
      seconds: (performance.now() - started) / 1000,
      ...(run.dueAt ? { lagSeconds: (now.getTime() - run.dueAt.getTime()) / 1000 } : {}),
    });
  try {
    const result = await job.handler({ db: database.db, logger: jobLogger, now });
    const summary = {
      job: job.name,
      processed: result?.processed ?? 0,
      durationMs: Math.round(performance.now() - started),
    };
    report(true);
    jobLogger.info(
      { trigger: run.trigger, processed: summary.processed, durationMs: summary.durationMs },
      `job ${job.name} finished`,
    );
    return summary;
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    report(false);
    jobLogger.error({ trigger: run.trigger, err: error, durationMs }, `job ${job.name} failed`);
    throw error;
  }
}

/** Creates the job's queue, its worker and its schedule; returns the worker's id. */
async function setUpClusterJob(
  pgBoss: PgBoss,
  job: JobDefinition,
  pollingIntervalSeconds: number,
  execute: (job: JobDefinition, run: JobRun) => Promise<JobRunSummary>,
): Promise<string> {
  const queueOptions = {
    ...(job.retryLimit !== undefined ? { retryLimit: job.retryLimit } : {}),
    ...(job.expireInSeconds !== undefined ? { expireInSeconds: job.expireInSeconds } : {}),
  };
  await pgBoss.createQueue(job.name, { policy: 'singleton', ...queueOptions }); // no-op when it exists
  if (Object.keys(queueOptions).length > 0) await pgBoss.updateQueue(job.name, queueOptions);
  const workerOptions = { pollingIntervalSeconds, batchSize: 1, includeMetadata: true } as const;
  const workerId = await pgBoss.work(job.name, workerOptions, async ([first]) => {
    if (!first) return undefined;
    const trigger = (first.data as { trigger?: string } | null)?.trigger ?? 'schedule';
    // Due when it could first start (its schedule's slot, or when it was queued); a retry is due again.
    return execute(job, { trigger, jobId: first.id, dueAt: first.startAfter });
  });
  if (job.cron) await pgBoss.schedule(job.name, job.cron, null, { tz: JOB_TIME_ZONE });
  else await pgBoss.unschedule(job.name); // the cron was removed from the code: stop creating runs
  return workerId;
}

async function waitForJob(pgBoss: PgBoss, job: JobDefinition, id: string): Promise<JobRunSummary> {
  const deadline = Date.now() + ((job.expireInSeconds ?? 900) + 60) * 1000;
  while (Date.now() < deadline) {
    const [found] = await pgBoss.findJobs<object>(job.name, { id });
    if (!found) throw new Error(`job ${job.name} (${id}) disappeared before it finished`);
    if (found.state === 'completed') return found.output as JobRunSummary;
    if (found.state === 'failed' || found.state === 'cancelled') {
      const message = (found.output as { message?: string } | null)?.message ?? found.state;
      throw new Error(`job ${job.name} ${found.state}: ${message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${job.name} (${id}) did not finish in time`);
}

/**
 * pg-boss's error events as log lines. Every worker polls every few seconds: while the database is away
 * (decision 054), one line every 30 s says so, and the workers carry on polling until it is back.
 */
function databaseAwareErrorLog(logger: Logger): (error: Error) => void {
  /** Until when the job runner's "database unavailable" line stays quiet. */
  let quietUntil = 0;
  return (error) => {
    if (!isDatabaseUnavailable(error)) return void logger.error({ err: error }, 'job runner error');
    const now = Date.now();
    if (now < quietUntil) return;
    quietUntil = now + 30_000;
    logger.warn({ reason: error.message }, 'job runner: database unavailable, the workers keep retrying');
  };
}
