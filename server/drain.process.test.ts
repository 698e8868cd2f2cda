// Draining on SIGTERM (decision 072), as a rolling deploy meets it: a built shop runs as a child process
// with a request held in flight (its query waits on a lock this test holds) and a live stream open. On
// SIGTERM readiness answers 503 at once while the shop still serves; after the drain delay new
// connections are refused by the kernel and the live stream has ended cleanly; the request in flight
// still completes 200 once the lock goes, and the process exits 0. Needs PostgreSQL (the lock) and a build.
import net from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '#tests/database';
import { startInstances, type ShopCluster } from '#tests/instances';
import { scaledTimeout, testSettings } from '#tests/settings';

/** Long enough that this test sees readiness turn 503 before the shop stops accepting, on a busy machine. */
const DRAIN_DELAY_SECONDS = Math.min(120, Math.ceil(6 * testSettings.timeoutScale));

let database: TestDatabase;
let cluster: ShopCluster | undefined;

beforeAll(async () => {
  database = await createTestDatabase('drain');
  if (!database.databaseUrl) return;
  cluster = await startInstances({
    count: 1,
    databaseUrl: database.databaseUrl,
    dataDir: database.dataDir,
    entry: 'runtime',
    env: {
      DRAIN_DELAY_SECONDS: String(DRAIN_DELAY_SECONDS),
      // The request in flight waits for this test's lock: the bound must not cut it.
      DRAIN_TIMEOUT_SECONDS: String(Math.ceil(scaledTimeout(120_000) / 1000)),
    },
  });
});
afterAll(async () => {
  await cluster?.stop();
  await database?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a new TCP connection is accepted ('connected') or refused by the kernel ('ECONNREFUSED'). */
const connect = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve('connected')));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + scaledTimeout(30_000);
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('draining on SIGTERM', () => {
  it('turns not ready at once, keeps serving for the delay, then refuses connections, finishes what is in flight and exits 0', async (context) => {
    if (!cluster || !database.databaseUrl)
      return context.skip('needs PostgreSQL: the request in flight waits on a lock');
    const instance = cluster.instances[0]!;
    const child = instance.child!;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const base = instance.url;
    expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);

    // A live stream, open before the signal.
    const stream = await fetch(`${base}/api/v1/winners/events`);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: ready');

    // A request held in flight: its catalogue query waits on this lock.
    const locker = new pg.Client({ connectionString: database.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table gachas in access exclusive mode');
      let settled = false;
      const inFlight = fetch(`${base}/api/v1/gachas`).then(async (response) => {
        settled = true;
        return { status: response.status, body: await response.text() };
      });
      await until('the request to wait on the lock', async () => {
        // Inside a transaction the activity view is read once: a fresh look each time.
        await locker.query('select pg_stat_clear_snapshot()');
        const { rows } = await locker.query(
          `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%gachas%' and pid <> pg_backend_pid()`,
        );
        return rows.length > 0 ? true : undefined;
      });

      child.kill('SIGTERM');
      const notReady = await until('readiness to answer 503', async () => {
        const response = await fetch(`${base}/api/health/ready`);
        return response.status === 503 ? response : (await response.arrayBuffer(), undefined);
      });
      expect(Number(notReady.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await notReady.json()).toMatchObject({ error: { code: 'NOT_READY', details: { reason: 'draining' } } });
      // Still serving during the delay, each answer closing its connection.
      const live = await fetch(`${base}/api/health/live`);
      expect(live.status).toBe(200);
      expect(live.headers.get('connection')).toBe('close');
      expect(await connect(instance.port)).toBe('connected');

      // After the delay: new connections refused by the kernel, the live stream ended cleanly.
      expect(
        await until('new connections to be refused', async () => {
          const answer = await connect(instance.port);
          return answer === 'connected' ? undefined : answer;
        }),
      ).toBe('ECONNREFUSED');
      for (let read = await reader.read(); !read.done; read = await reader.read());
      expect(settled).toBe(false);

      await locker.query('commit');
      const finished = await inFlight;
      expect(finished.status).toBe(200);
      expect(JSON.parse(finished.body)).toHaveProperty('items');
    } finally {
      await locker.end().catch(() => undefined);
    }
    expect(await exited).toBe(0);
  });
});
