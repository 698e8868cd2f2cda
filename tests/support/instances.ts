// Several shop server instances (child processes of the production build) on one PostgreSQL
// database: start, wait for health, SIGKILL one and restart it, stop all. Used by the storm test
// (tests/storm) and the draw benchmark (bench/draw). Needs a build (`npm run build`).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from './ports';
import { scaledTimeout } from './settings';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const STORM_AUTH_SECRET = 'storm-secret-storm-secret-storm-secret-0123456789';

export interface ShopInstance {
  index: number;
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** stdout and stderr of every start of this instance (appended). */
  logFile: string;
  child: ChildProcess | null;
  /** How many times it was started. */
  starts: number;
  /** Every exit so far, expected (kill, stop) or not: a crash shows up here with its code or signal. */
  exits: { code: number | null; signal: NodeJS.Signals | null; at: string; expected: boolean }[];
}

export interface ShopCluster {
  instances: ShopInstance[];
  urls: string[];
  authSecret: string;
  /** Sends SIGKILL (or another signal) and waits until the process has gone. */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped or killed instance again on the same port and waits for its health. */
  restart(index: number): Promise<void>;
  /** The last lines of an instance's log (for failure messages). */
  logTail(index: number, lines?: number): string;
  /** Lines matching a pattern in every instance's log (e.g. unhandled errors). */
  grepLogs(pattern: RegExp): string[];
  /** Exits nobody asked for (crashes, or a signal from outside), e.g. `instance 0: code 1 at …`. */
  unexpectedExits(): string[];
  /** SIGTERM every instance (SIGKILL after a grace period) and wait for all of them. */
  stop(): Promise<void>;
}

export interface StartInstancesOptions {
  count: number;
  /** Unset: the embedded database, each instance's own in its DATA_DIR (then `migrate: false`). */
  databaseUrl?: string;
  /** Each instance gets `<dataDir>/instance-<n>` as its DATA_DIR and writes its log there. */
  dataDir: string;
  authSecret?: string;
  logLevel?: string;
  /** Extra settings for every instance. */
  env?: Record<string, string>;
  /** Extra node flags for every instance, e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] to profile the draw path. */
  nodeArgs?: string[];
  /** Milliseconds to wait for an instance's health (default 90 s: two cores, cold tsx cache). */
  startTimeoutMs?: number;
  /**
   * The owner's URL when the instances serve as the shop's role (npm run db:roles): the migrations run as
   * the owner, and each instance gets it as DATABASE_MIGRATION_URL, as a shop with separate roles does.
   */
  migrationUrl?: string;
  /**
   * How to run an instance: `source` (tsx on server/start.ts, as the storm and the draw benchmark do) or
   * `runtime`, the compiled build/server-runtime/start.js exactly as `npm start` runs it. Default `source`.
   */
  entry?: 'source' | 'runtime';
  /** Apply the migrations once before starting, so the instances start at once (together they would take turns on the migration lock). Default true. */
  migrate?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Processes still running when this process exits are killed, so no test leaves servers behind. */
const living = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of living) child.kill('SIGKILL');
  });
}

async function waitForHealth(instance: ShopInstance, timeoutMs: number, databaseUrl?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const child = instance.child!;
  let lastSeen = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `shop instance ${instance.index} exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${tail(instance.logFile, 30)}`,
      );
    }
    try {
      const response = await fetch(`${instance.url}/api/health`, { signal: AbortSignal.timeout(2000) });
      const body = await response.text();
      if (response.status === 200) return;
      lastSeen = `${response.status} ${body.slice(0, 200)}`;
    } catch (error) {
      // not listening yet, or too busy to answer within 2 s
      lastSeen = String((error as Error).cause ?? (error as Error).message);
    }
    await sleep(150);
  }
  throw new Error(
    `shop instance ${instance.index} was not healthy within ${timeoutMs} ms (last health check: ${lastSeen}):\n${tail(instance.logFile, 30)}\n${await databaseSessions(databaseUrl)}`,
  );
}

/**
 * What every session on the database is doing (for a start that hangs: a lock, a full pool). Each
 * instance names its sessions (PGAPPNAME), so an orphan of a killed instance shows whose it was.
 */
async function databaseSessions(databaseUrl: string | undefined): Promise<string> {
  if (!databaseUrl) return '';
  const { Client } = await import('pg');
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<Record<string, unknown>>(
      `select pid, application_name, state, wait_event_type, wait_event,
              round(extract(epoch from now() - xact_start)::numeric, 1) as xact_seconds,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 120) as query
         from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
        order by xact_start nulls last`,
    );
    return `database sessions (${rows.length}):\n${rows.map((row) => JSON.stringify(row)).join('\n')}`;
  } catch (error) {
    return `database sessions: could not read (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function tail(file: string, lines: number): string {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .slice(-lines - 1)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts `count` instances of the built shop on one database, each on its own port, and waits
 * until every one answers /api/health.
 * @example const cluster = await startInstances({ count: 2, databaseUrl, dataDir }); …; await cluster.stop()
 */
export async function startInstances(options: StartInstancesOptions): Promise<ShopCluster> {
  const serverEntry = path.join(projectRoot, 'build', 'server', 'index.js');
  if (!fs.existsSync(serverEntry)) throw new Error(`No build at ${serverEntry}: run \`npm run build\` first.`);
  installExitHook();
  if (options.migrate !== false) {
    const { openDatabase } = await import('#db/client');
    const handle = await openDatabase({
      databaseUrl: options.databaseUrl,
      migrationUrl: options.migrationUrl,
      dataDir: options.dataDir,
      poolSize: 1,
    });
    try {
      await handle.migrate();
    } finally {
      await handle.close();
    }
  }
  const authSecret = options.authSecret ?? STORM_AUTH_SECRET;
  const timeoutMs = options.startTimeoutMs ?? scaledTimeout(90_000);
  const instances: ShopInstance[] = [];
  for (let index = 0; index < options.count; index++) {
    const port = await freePort();
    const dataDir = path.join(options.dataDir, `instance-${index}`);
    fs.mkdirSync(dataDir, { recursive: true });
    instances.push({
      index,
      port,
      url: `http://127.0.0.1:${port}`,
      logFile: path.join(dataDir, 'server.log'),
      child: null,
      starts: 0,
      exits: [],
    });
  }

  const environment = (instance: ShopInstance): NodeJS.ProcessEnv => ({
    // A clean environment: nothing of the test runner's (NODE_ENV=test, VITEST…) leaks into the shop.
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TZ: process.env.TZ,
    LANG: process.env.LANG,
    ...(options.entry === 'runtime' ? { MALLOC_ARENA_MAX: '2' } : {}),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(instance.port),
    PUBLIC_ORIGIN: `http://localhost:${instance.port}`,
    DATA_DIR: path.join(options.dataDir, `instance-${instance.index}`),
    // Without a URL (PGlite) the instance keeps its database in its DATA_DIR.
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.migrationUrl ? { DATABASE_MIGRATION_URL: options.migrationUrl } : {}),
    // node-postgres names its sessions after it: pg_stat_activity tells whose a session is (and which start).
    PGAPPNAME: `shop-instance-${instance.index}-start-${instance.starts + 1}`,
    AUTH_SECRET: authSecret,
    LOG_LEVEL: options.logLevel ?? 'warn',
    DEMO_DATA: 'false',
    JOBS_ENABLED: 'false',
    IMAGE_WARM_UP: 'false',
    // No load balancer checks these instances: SIGTERM stops them without the drain delay (decision 072);
    // a test of the drain sets its own.
    DRAIN_DELAY_SECONDS: '0',
    ...options.env,
  });

  const expectedExits = new Set<ChildProcess>();
  const launch = (instance: ShopInstance) => {
    const log = fs.openSync(instance.logFile, 'a');
    fs.writeSync(log, `\n--- start ${instance.starts + 1} at ${new Date().toISOString()} ---\n`);
    const start =
      options.entry === 'runtime'
        ? ['--max-semi-space-size=8', 'build/server-runtime/start.js']
        : ['--import', 'tsx', 'server/start.ts'];
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...start], {
      cwd: projectRoot,
      env: environment(instance),
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    instance.child = child;
    instance.starts += 1;
    living.add(child);
    child.once('exit', (code, signal) => {
      living.delete(child);
      const expected = expectedExits.delete(child);
      instance.exits.push({ code, signal, at: new Date().toISOString(), expected });
      if (!expected) {
        try {
          fs.appendFileSync(instance.logFile, `--- exited unexpectedly: code ${code} signal ${signal} ---\n`);
        } catch {
          // the data folder is gone already
        }
      }
    });
    return waitForHealth(instance, timeoutMs, options.databaseUrl);
  };

  const killProcess = async (instance: ShopInstance, signal: NodeJS.Signals, graceMs: number) => {
    const child = instance.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    expectedExits.add(child);
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  const cluster: ShopCluster = {
    instances,
    urls: instances.map((i) => i.url),
    authSecret,
    kill: (index, signal = 'SIGKILL') => killProcess(instances[index]!, signal, 5000),
    async restart(index) {
      const instance = instances[index]!;
      await killProcess(instance, 'SIGKILL', 1000);
      await launch(instance);
    },
    logTail: (index, lines = 40) => tail(instances[index]!.logFile, lines),
    grepLogs: (pattern) =>
      instances.flatMap((i) =>
        tail(i.logFile, 100_000)
          .split('\n')
          .filter((line) => pattern.test(line))
          .map((line) => `[instance ${i.index}] ${line}`),
      ),
    unexpectedExits: () =>
      instances.flatMap((i) =>
        i.exits
          .filter((e) => !e.expected)
          .map((e) => `instance ${i.index}: code ${e.code} signal ${e.signal} at ${e.at}`),
      ),
    async stop() {
      await Promise.all(instances.map((i) => killProcess(i, 'SIGTERM', 8000)));
    },
  };
  try {
    await Promise.all(instances.map(launch));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
