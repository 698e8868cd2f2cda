// Starts the shop: settings, the embedded database's claim, database (migrate, demo data once), auth,
// jobs, then the HTTP server.
import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import type { ServerBuild } from 'react-router';
import { loadConfig, ConfigError, type ShopConfig } from './config';
import { createLogger, type Logger } from './logger';
import type { DatabaseHandle } from '#db/client';
import { projectRootOf } from '#db/project-root';
import { createRateLimiter, createShopAuth, RATE_LIMIT_KEY_PREFIX } from '#modules/identity/server';
import { createContentSource } from './content';
import { attachInvitationOnSignUp } from './invitation';
import { createServerApp } from './app';
import { createDrawLane } from './api/v1/draw-lane';
import { outboxMessenger } from './messenger';
import {
  answerClientError,
  answerRequestError,
  refuseConnect,
  refuseExpectation,
  refuseOtherVersions,
} from './error-answers';
import type { ShopServices } from './services';
import { createJobRunner, registerShopJobs, type JobRunner } from './jobs';
import { createLiveUpdates } from './live';
import { createPageCache } from './page-cache';
import { openReadRouting } from './read-routing';
import { warmImageCache } from './images/warm';
import { limitImageMemory } from './images';
import { createMemoryTrimmer } from './memory-trim';
import { createPaymentServices, lineLinking } from './payments';
import { socialSignInStandins } from './social-standins';
import { openBeacon, startBeaconSettler, type BeaconService } from './beacon';
import { openShopDatabase } from './open-database';
import { ensureDefaultCoinPacks } from '#modules/payments';
import { createMaintenanceCache } from '#modules/shop';
import { createMessagingServices, startOutboxNudge } from './messaging';
import {
  claimEmbeddedDatabase,
  embeddedDatabaseBusyMessage,
  EmbeddedDatabaseBusy,
  type OperatorClaim,
} from './operator-file';
import { sendWelcomeMail } from './mailbox';
import { OpenedServices, type Closer } from './closers';
import { openObservability, type Observability } from './observability/open';
import { closeServerGently, createServingState } from './drain';
import { outboxBacklog } from '#modules/messaging';
import { openMediaStore, reportBucketAtStart } from './media';

const projectRoot = projectRootOf(import.meta.url);

/** Everything main builds, for tests that start a server in-process. */
export interface RunningShop {
  services: ShopServices;
  server: http.Server;
  url: string;
  /** The background job runner; undefined when JOBS_ENABLED=false. */
  jobs?: JobRunner;
  /** SIGTERM's stop (decision 072): readiness 503 at once, serving on for `delayMs`, then as stop(). */
  drain(delayMs: number): Promise<void>;
  /** Stops accepting, ends the live streams, finishes what is in flight (within DRAIN_TIMEOUT_SECONDS), closes. */
  stop(): Promise<void>;
}

/**
 * Boots the shop with the given settings; used by `npm start`, `npm run dev` and the HTTP tests.
 * @example const shop = await startShop(loadConfig({ ...process.env, PORT: '0' }))
 */
export async function startShop(config: ShopConfig, options: { development?: boolean } = {}): Promise<RunningShop> {
  // The embedded database admits one process: claimed first, so a command line that holds it stops
  // the start here, and a command line started later goes through this server (docs/decisions/020).
  const claim = config.DATABASE_URL
    ? undefined
    : claimEmbeddedDatabase(config.dataDir, 'server', (held) => embeddedDatabaseBusyMessage(config.dataDir, held));
  try {
    const shop = await bootShop(config, options, claim);
    const releasing = (stop: () => Promise<void>) => async () => {
      try {
        await stop();
      } finally {
        claim?.release();
      }
    };
    return {
      ...shop,
      drain: (delayMs) => releasing(() => shop.drain(delayMs))(),
      stop: releasing(() => shop.stop()),
    };
  } catch (error) {
    claim?.release();
    throw error;
  }
}

/**
 * Opens every service in order, each added to one clean-up list as it opens; if anything fails on the
 * way (a migration, a provider's set-up, the port in use) everything opened so far closes, the database
 * last, and the error goes on.
 */
async function bootShop(
  config: ShopConfig,
  options: { development?: boolean },
  claim: OperatorClaim | undefined,
): Promise<RunningShop> {
  const logger = createLogger(config.LOG_LEVEL);
  const opened = new OpenedServices();
  try {
    return await openShop(config, options, claim, logger, opened);
  } catch (error) {
    await opened.closeAll(logger);
    throw error;
  }
}

async function openShop(
  config: ShopConfig,
  options: { development?: boolean },
  claim: OperatorClaim | undefined,
  logger: ReturnType<typeof createLogger>,
  opened: OpenedServices,
): Promise<RunningShop> {
  limitImageMemory();
  const observability = await openObservability(config, logger, opened);
  // The beacon mode's chain, relay and receipt key (decision 081): the drand stand-in on a sandbox shop.
  const beacon = await openBeacon(config, logger);
  opened.add('beacon', () => beacon.close());
  const database = await openShopDatabase(config, logger, opened, observability.observer, beacon);
  const identity = await openIdentity(config, database, logger, opened);
  config = identity.config;
  const loaded = await loadBuild(options);
  const { services, stopLive } = await openServices(config, database, identity, loaded.buildId, logger, opened, {
    observability,
    beacon,
  });
  const serving = services.serving!;
  const { jobs, stopJobs, stopNudge } = await startJobs(services, opened);
  const { app, server } = await listen(services, loaded, claim, opened, { stopJobs, stopNudge });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  // From now on `npm run shop` finds the server in DATA_DIR/operator.json and runs through it.
  claim?.publishPort(port);
  logger.info({ url, engine: database.engine, buildId: loaded.buildId }, `shop listening on ${url}`);
  // The home page's images, encoded in the background so the first visitor gets them from the cache.
  const warmUp = new AbortController();
  const warming =
    options.development || !config.IMAGE_WARM_UP
      ? Promise.resolve()
      : warmImageCache({
          paths: ['/'],
          origin: url,
          fetch: app.fetch,
          fetchImage: (request) => {
            const inner = new URL(request.url);
            inner.pathname = '/';
            return app.images.fetch(new Request(inner, { headers: request.headers, signal: request.signal }));
          },
          logger,
          signal: warmUp.signal,
        }).then(() => undefined);
  opened.add('image warm-up', async () => {
    warmUp.abort();
    await warming;
  });
  // Start-up's garbage (migrations, demo data, the first renders) goes back at once; the warm-up's
  // encodes end with their own trim (the image route's onTransform).
  services.memory?.soon();
  serving.ready();
  const stop = async () => {
    // A request still arriving on an open connection is refused from here on (503, Retry-After); the
    // live streams end politely (their browsers reconnect, through the balancer, elsewhere), or the
    // server would wait for them forever; then everything else, last opened first (the image warm-up,
    // the HTTP server with the jobs, …, the database).
    serving.close();
    await stopLive();
    await opened.closeAll(logger);
  };
  return {
    services,
    server,
    url,
    jobs,
    async drain(delayMs) {
      serving.drain();
      logger.info({ delayMs }, 'draining: readiness answers 503, still serving until the delay ends');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await stop();
    },
    stop,
  };
}

/**
 * Sign-in: LINE, the social stand-ins (which may change the settings: the shop goes on with the returned
 * `config`), the outbox messenger, the shared rate limiter and better-auth.
 */
async function openIdentity(config: ShopConfig, database: DatabaseHandle, logger: Logger, opened: OpenedServices) {
  const line = await lineLinking(config, logger);
  opened.add('LINE', () => line.close());
  // Google, Facebook, GitHub and X on a sandbox shop without their keys: the local stand-ins.
  const social = await socialSignInStandins(config, logger);
  opened.add('social sign-in stand-ins', () => social.close());
  config = social.config;
  // Identity's mails and codes go to the outbox; the messaging jobs send them (SMTP, Twilio) or hold them.
  const messenger = outboxMessenger(database.db, config);
  // Sign-in limits shared by every instance: Redis when REDIS_URL is set, the database otherwise.
  const limiter = createRateLimiter({
    db: database.db,
    redisUrl: config.REDIS_URL,
    logger,
    keyPrefix: RATE_LIMIT_KEY_PREFIX,
  });
  opened.add('rate limiter', () => limiter.close());
  const attachInvitation = attachInvitationOnSignUp(database.db, logger);
  const auth = createShopAuth({
    db: database.db,
    config,
    logger,
    line: line.options,
    messenger,
    limiter,
    // Every sign-up path attaches the invitation of the /r cookie (decision 038; never throws), then
    // writes the welcome mail (decision 034).
    onMemberCreated: async (created) => {
      await attachInvitation(created);
      await sendWelcomeMail(database.db, config, created.memberId);
    },
  });

  return { config, social, messenger, limiter, auth };
}

/** The React Router build: Vite's in development, the built one otherwise (with its client folder and id). */
async function loadBuild(options: { development?: boolean }) {
  let build: ServerBuild | (() => Promise<ServerBuild>);
  let clientDir: string | undefined;
  let buildId = 'development';
  let viteMiddleware: http.RequestListener | undefined;
  if (options.development) {
    const vite = await import('vite');
    const viteServer = await vite.createServer({ server: { middlewareMode: true }, appType: 'custom' });
    viteMiddleware = viteServer.middlewares as unknown as http.RequestListener;
    build = () => viteServer.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
  } else {
    const serverEntry = path.join(projectRoot, 'build', 'server', 'index.js');
    if (!fs.existsSync(serverEntry))
      throw new ConfigError('No build found: run `npm run build` first (npm start does it).');
    build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
    clientDir = path.join(projectRoot, 'build', 'client');
    buildId = readBuildId(clientDir);
  }

  return { build, clientDir, buildId, viteMiddleware };
}

/** The services every request and job shares: page cache, live updates, payments, messaging, content. */
async function openServices(
  config: ShopConfig,
  database: DatabaseHandle,
  identity: Awaited<ReturnType<typeof openIdentity>>,
  buildId: string,
  logger: Logger,
  opened: OpenedServices,
  watched: { observability: Observability; beacon: BeaconService },
) {
  const { social, messenger, limiter, auth } = identity;
  const { metrics, tracing } = watched.observability;
  // Visitors' public pages, shared for PAGE_CACHE_SECONDS; dropped everywhere on an operator's change
  // and when a pack sells out (decision 048).
  const pages = await createPageCache({
    ttlMs: config.PAGE_CACHE_SECONDS * 1000,
    maxEntries: 500,
    database,
    logger,
  });
  opened.add('page cache', () => pages.stop());
  const live = await createLiveUpdates(database, logger, {
    highlightCoins: config.PRIZE_HIGHLIGHT_COINS,
    onSoldOut: () => pages.clear(),
  });
  // Its streams must end before the HTTP server can drain: stop() calls it first.
  const stopLive = opened.add('live updates', () => live.stop());
  await ensureDefaultCoinPacks(database.db);
  const payments = await createPaymentServices({ config, db: database.db, logger, onOutcome: metrics.payment });
  opened.add('payments', () => payments.close());
  // The sign-in form's redirect goes to a stand-in's page: form-action must allow its origin.
  payments.pageSources.formAction.unshift(...new Set(Object.values(social.hosts)));
  const messaging = await createMessagingServices(config, logger);
  opened.add('messaging', () => messaging.close());
  const content = createContentSource(config, database.db, logger);
  opened.add('content source', () => content.close());
  // The catalogue's reads may go to a replica while it is close (decision 075).
  const reads = await openReadRouting(config, database.db, logger, (seconds) => metrics.setReplicaLag(seconds));
  opened.add('read routing', () => reads.stop());
  // Uploaded images: the bucket, or DATA_DIR (decision 071). A bucket that does not answer now is said
  // in the log and does not stop the start: pages need it only for uploads and new images.
  const media = await openMediaStore(config, logger);
  opened.add('media store', () => media.close());
  reportBucketAtStart(media, config.MEDIA_S3_BUCKET, logger);
  const services: ShopServices = {
    config,
    database,
    db: database.db,
    reads,
    auth,
    logger,
    buildId,
    maintenance: createMaintenanceCache(database.db, { maxAgeMs: config.MAINTENANCE_CACHE_SECONDS * 1000 }),
    live,
    payments,
    messenger,
    limiter,
    messaging,
    content,
    pages,
    media,
    beacon: watched.beacon,
    memory: createMemoryTrimmer({ logger, intervalSeconds: config.MEMORY_TRIM_SECONDS }),
    metrics,
    tracing,
    serving: createServingState(),
  };
  opened.add('memory trimmer', () => services.memory?.stop());
  // What a scrape reads at its time: the connections, the page cache's counts, the outbox (decision 072).
  metrics.readAtScrape({
    connections: () => database.connections(),
    pageCache: pages,
    outboxBacklog: () => outboxBacklog(database.db),
    draining: () => services.serving?.phase === 'draining' || services.serving?.phase === 'closing',
  });
  return { services, stopLive };
}

/** The job runner and the outbox nudge, when JOBS_ENABLED. */
async function startJobs(services: ShopServices, opened: OpenedServices) {
  const { config, database, logger } = services;
  // Jobs start after the migrations (pg-boss migrates its own schema, `pgboss`) and stop before the database closes.
  const jobs: JobRunner | undefined = config.JOBS_ENABLED
    ? createJobRunner({
        database,
        logger,
        config,
        onRun: (run) => services.metrics?.jobRun(run),
        // A stop lets running jobs finish within the drain's bound (decision 072).
        stopTimeoutMs: config.DRAIN_TIMEOUT_SECONDS * 1000,
      })
    : undefined;
  let stopJobs: Closer | undefined;
  let stopNudge: Closer | undefined;
  if (jobs) {
    registerShopJobs(jobs, services);
    stopJobs = opened.add('jobs', () => jobs.stop());
    await jobs.start();
    // Beacon draws are closed and settled at each round, not each minute (decision 081).
    if (services.beacon) opened.add('beacon settler', startBeaconSettler(services, services.beacon));
    // A committed message is sent at once rather than at the next minute's run.
    stopNudge = opened.add(
      'outbox nudge',
      await startOutboxNudge(database, () => jobs.runNow('messaging.deliver'), logger),
    );
  }

  return { jobs, stopJobs, stopNudge };
}

/** The Hono app behind Node's HTTP server, listening; its closer waits for the jobs while it drains. */
async function listen(
  services: ShopServices,
  loaded: Awaited<ReturnType<typeof loadBuild>>,
  claim: OperatorClaim | undefined,
  opened: OpenedServices,
  stops: { stopJobs?: Closer; stopNudge?: Closer },
) {
  const { config, logger } = services;
  const { build, clientDir, viteMiddleware } = loaded;
  const app = createServerApp({
    services,
    build,
    clientDir,
    publicDir: path.join(projectRoot, 'public'),
    operatorToken: claim?.record.token,
  });
  // A request Node parsed but no URL can be made of (no Host, `OPTIONS *`) is answered in JSON too.
  const listener = getRequestListener(app.fetch, { errorHandler: answerRequestError(logger) });
  // requireHostHeader off: Node's own 400 for a request without Host has an empty body; the adapter
  // refuses it anyway (no URL without a host), and answerRequestError gives it the JSON error.
  const lane = await createDrawLane(services); // an app's draw without the middleware chain (decision 079)
  const server = http.createServer({ requireHostHeader: false }, (req, res) => {
    if (refuseOtherVersions(req, res)) return;
    if (lane.takes(req)) return void lane.serve(req, res);
    if (!viteMiddleware) return void listener(req, res);
    const viteThenShop = viteMiddleware as unknown as (rq: typeof req, rs: typeof res, next: () => void) => void;
    viteThenShop(req, res, () => void listener(req, res));
  });
  // A URL or headers over Node's 16 KiB limit never reach Hono: answered in the shop's JSON shape here.
  server.on('clientError', answerClientError(logger));
  // Every other refusal Node would make with an empty body or none: CONNECT, an unknown Expect.
  server.on('connect', refuseConnect(logger));
  server.on('checkExpectation', refuseExpectation());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, resolve);
  });
  opened.add('HTTP server', async () => {
    // No nudge may wake the jobs while they stop.
    await stops.stopNudge?.();
    services.serving?.close();
    // New connections are refused from here on; requests in flight and running jobs get
    // DRAIN_TIMEOUT_SECONDS to finish (decision 072), then the rest closes.
    const [finished] = await Promise.all([
      closeServerGently(server, config.DRAIN_TIMEOUT_SECONDS * 1000),
      stops.stopJobs?.(),
    ]);
    if (!finished) logger.warn({ timeoutSeconds: config.DRAIN_TIMEOUT_SECONDS }, 'requests still in flight were cut');
  });
  return { app, server };
}

function readBuildId(clientDir: string): string {
  try {
    const latest = JSON.parse(fs.readFileSync(path.join(clientDir, 'builds', 'latest.json'), 'utf8')) as { id: string };
    return latest.id;
  } catch {
    return 'unknown';
  }
}

/** The command-line start (server/start.ts): settings from the environment, signals, exit codes. */
export async function runFromCommandLine(development: boolean) {
  try {
    const config = loadConfig(development ? { NODE_ENV: 'development', ...process.env } : process.env);
    const shop = await startShop(config, { development });
    // SIGTERM (a deploy, the process manager) drains for the load balancer first; SIGINT (Ctrl-C) does not
    // wait. A second signal while stopping ends the process at once.
    let stopping = false;
    const shutdown = async (signal: string, delayMs: number) => {
      if (stopping) {
        shop.services.logger.warn({ signal }, 'a second signal while stopping: exiting now');
        process.exit(1);
      }
      stopping = true;
      shop.services.logger.info({ signal }, 'shutting down');
      try {
        await shop.drain(delayMs);
        process.exit(0);
      } catch (error) {
        shop.services.logger.error({ err: error }, 'the shop did not stop cleanly');
        process.exit(1);
      }
    };
    process.on('SIGINT', () => void shutdown('SIGINT', 0));
    process.on('SIGTERM', () => void shutdown('SIGTERM', config.DRAIN_DELAY_SECONDS * 1000));
  } catch (error) {
    if (error instanceof EmbeddedDatabaseBusy) {
      console.error(`\n${error.message}\n`);
      process.exit(1);
    }
    if (error instanceof ConfigError) {
      console.error(`\n${error.message}\n\nEvery setting is described in docs/settings.md.\n`);
      process.exit(1);
    }
    console.error('The shop could not start:', error);
    process.exit(1);
  }
}
