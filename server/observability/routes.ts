// The routes operators' machines call (decision 072): liveness and readiness for the load balancer, and
// /metrics for the Prometheus scrapers. /api/health stays as it is for people and the older checks.
import type { Context, Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { ShopServices } from '../services';
import { apiError, BUSY_RETRY_AFTER_SECONDS } from '../api-error';
import { contentOf } from '../page-content';
import { metricsAccess } from './metrics-access';

/** How long readiness waits for the database's answer before it says the database is away. */
export const READY_DATABASE_TIMEOUT_MS = 2000;

/** Why an instance is not ready, in the words of the answer. */
const NOT_READY_WORDS = {
  starting: 'このサーバーは起動中です。',
  draining: 'このサーバーは停止の準備中です。',
  database: 'このサーバーはデータベースに接続できません。',
} as const;

type Env = { Variables: { requestId: string } };

/** @example mountOperationsRoutes(app, services) // before the /api/* catch-all and the pages */
export function mountOperationsRoutes(app: Hono<Env>, services: ShopServices): void {
  app.get('/api/health', async (c) => {
    const databaseUp = await services.database.ping();
    // Maintenance is not "down": status stays 'ok' and 200, so the load balancer keeps the instance (decision 025).
    const maintenance = databaseUp ? await services.maintenance.current().catch(() => null) : null;
    return c.json(
      {
        status: databaseUp ? 'ok' : 'degraded',
        buildId: services.buildId,
        database: { engine: services.database.engine, up: databaseUp },
        maintenance: maintenance
          ? { on: maintenance.on, endsAt: maintenance.endsAt ? maintenance.endsAt.toISOString() : null }
          : null,
        // The content source (decision 039): stale means Prismic is unreachable and pages come from the
        // last good copy. Not "down": the shop keeps serving.
        content: contentOf(services).health(),
        // The read replica's lag and whether the catalogue reads it now (decision 075); null without one.
        replica: services.reads?.replica() ?? null,
      },
      databaseUp ? 200 : 503,
      databaseUp
        ? { 'Cache-Control': 'no-store' }
        : { 'Cache-Control': 'no-store', 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
    );
  });

  // Liveness: the process runs its event loop. Nothing else is asked, so a slow database never gets a
  // live instance restarted.
  app.get('/api/health/live', (c) => c.json({ status: 'live' }, 200, { 'Cache-Control': 'no-store' }));

  const pingOnce = sharedPing(services);
  app.get('/api/health/ready', async (c) => {
    const phase = services.serving?.phase ?? 'serving';
    if (phase === 'starting') return notReady(c, 'starting');
    if (phase !== 'serving') return notReady(c, 'draining');
    if (!(await pingOnce())) return notReady(c, 'database');
    return c.json({ status: 'ready' }, 200, { 'Cache-Control': 'no-store' });
  });

  const access = metricsAccess(services.config);
  app.get('/metrics', async (c, next) => {
    const metrics = services.metrics;
    if (!metrics || !access.enabled || !access.allows(c.req.raw.headers, connectionAddress(c))) return next();
    const { body, contentType } = await metrics.scrape();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });
}

/** 503 in the shop's error shape, with the reason and when to ask again. */
function notReady(c: Context<Env>, reason: keyof typeof NOT_READY_WORDS) {
  c.header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
  c.header('Cache-Control', 'no-store');
  return apiError(c, 503, 'NOT_READY', NOT_READY_WORDS[reason], { reason });
}

/**
 * One database ping for every readiness check that arrives while it runs (several balancers check
 * each instance), given up after READY_DATABASE_TIMEOUT_MS.
 */
function sharedPing(services: ShopServices): () => Promise<boolean> {
  let running: Promise<boolean> | undefined;
  return () =>
    (running ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          services.database.ping(),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READY_DATABASE_TIMEOUT_MS))),
        ]);
      } finally {
        clearTimeout(timer);
        running = undefined;
      }
    })());
}

function connectionAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
