// The shop's Prometheus metrics (decision 072): one registry per shop instance (tests start several in one
// process), counted where each event happens and read at /metrics. Labels stay bounded: route patterns
// (never raw paths), refusal codes and payment outcomes from their closed lists, job names from the job
// list, and pack ids only for the first MAX_PACK_LABELS packs this process has sold (the rest are `other`).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ConnectionUse } from '#db/client';
import { DRAW_REFUSAL_CODES, type DrawOutcome } from '#modules/draw';
import { PAYMENT_METHODS, PAYMENT_OUTCOMES, type PaymentOutcome } from '#modules/payments';

/** Packs that get a label of their own; a shop sells a few hundred over a process's life. */
export const MAX_PACK_LABELS = 500;
/** How long a scrape waits for the outbox's count before it leaves it out. */
const SCRAPE_QUERY_TIMEOUT_MS = 2000;

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];
const LAG_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900];
const ACQUIRE_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The outbox's backlog as the messaging module counts it (capped). */
export interface OutboxBacklogReading {
  queued: number;
  sending: number;
  /** Seconds the oldest due message has waited, or null when none is due. */
  oldestDueSeconds: number | null;
}

/** What a scrape reads from the running shop, bound once the services exist. */
export interface ScrapeSources {
  connections?: () => ConnectionUse;
  pageCache?: { readonly stats: { readonly hits: number; readonly misses: number } };
  outboxBacklog?: () => Promise<OutboxBacklogReading>;
  draining?: () => boolean;
}

/** One finished job run, as the job runner reports it. */
export interface JobRunReading {
  job: string;
  ok: boolean;
  seconds: number;
  /** Seconds between when the run was due and when it started, when known. */
  lagSeconds?: number;
}

export interface ShopMetrics {
  /** `lane`: answered by the draw lane (server/api/v1/draw-lane.ts) rather than the middleware chain. */
  httpRequest(request: { method: string; route: string; status: number; seconds: number; lane?: boolean }): void;
  draw(outcome: DrawOutcome): void;
  payment(event: { method: string; outcome: PaymentOutcome }): void;
  jobRun(run: JobRunReading): void;
  /** A pooled connection was handed out after this long (db/observe.ts). */
  connectionAcquired(seconds: number): void;
  /** The read replica's lag as the replica router measures it; null when there is none or it is unknown. */
  setReplicaLag(seconds: number | null): void;
  replicaLagSeconds(): number | null;
  /** Binds what the scrape reads from the running shop. */
  readAtScrape(sources: ScrapeSources): void;
  /** The Prometheus text of every metric, and its content type. */
  scrape(): Promise<{ body: string; contentType: string }>;
}

/**
 * @example const metrics = createShopMetrics({ processMetrics: Boolean(config.METRICS_TOKEN) }); metrics.draw(outcome)
 */
export function createShopMetrics(options: { processMetrics: boolean }): ShopMetrics {
  const registry = new Registry();
  const registers = [registry];
  const sources: ScrapeSources = {};
  let replicaLag: number | null = null;
  // Process metrics (CPU, memory, event-loop delay, GC) only where someone may read them: they start a
  // delay monitor and a GC observer.
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'shop_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, with their time to the response head.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const draws = counter('shop_draws_total', 'Completed draws (not replays) by pack.', ['pack'], registers);
  const lots = counter('shop_draw_lots_total', 'Lots sold by completed draws, by pack.', ['pack'], registers);
  const laneAnswers = counter(
    'shop_draw_lane_answers_total',
    'Draw requests answered by the draw lane (decision 079), by status; the rest of the draws took the middleware chain.',
    ['status'],
    registers,
  );
  const replays = counter('shop_draw_replays_total', 'Draws answered again for a repeated key.', [], registers);
  const refusals = counter('shop_draw_refusals_total', 'Draws refused, by refusal code.', ['code'], registers);
  const payments = counter(
    'shop_payments_total',
    'Payment orders by provider and what became of them.',
    ['provider', 'outcome'],
    registers,
  );
  const jobRuns = counter('shop_job_runs_total', 'Job runs by job and outcome.', ['job', 'outcome'], registers);
  const jobDuration = new Histogram({
    name: 'shop_job_duration_seconds',
    help: 'Job run durations by job.',
    labelNames: ['job'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const jobLag = new Histogram({
    name: 'shop_job_lag_seconds',
    help: 'Seconds between when a job run was due and when it started, by job.',
    labelNames: ['job'] as const,
    buckets: LAG_BUCKETS,
    registers,
  });
  const jobLastSuccess = new Gauge({
    name: 'shop_job_last_success_timestamp_seconds',
    help: 'When each job last finished without an error (Unix seconds), on this instance.',
    labelNames: ['job'] as const,
    registers,
  });
  const acquire = new Histogram({
    name: 'shop_db_pool_acquire_seconds',
    help: 'Time a statement or transaction waited for a pooled database connection.',
    buckets: ACQUIRE_BUCKETS,
    registers,
  });
  registerScrapeReadings(registers, sources, () => replicaLag);

  const packLabels = new Set<string>();
  const packLabel = (pack: string) => {
    if (packLabels.has(pack)) return pack;
    if (packLabels.size >= MAX_PACK_LABELS) return 'other';
    packLabels.add(pack);
    return pack;
  };
  const refusalCodes = new Set<string>(DRAW_REFUSAL_CODES);
  const methods = new Set<string>(PAYMENT_METHODS);
  const outcomes = new Set<string>(PAYMENT_OUTCOMES);

  return {
    httpRequest({ method, route, status, seconds, lane }) {
      http.observe({ method: METHODS.has(method) ? method : 'OTHER', route, status: String(status) }, seconds);
      if (lane) laneAnswers.inc({ status: String(status) });
    },
    draw(outcome) {
      if (!outcome.ok) return void refusals.inc({ code: refusalCodes.has(outcome.code) ? outcome.code : 'other' });
      if (outcome.result.replay) return void replays.inc();
      const pack = packLabel(outcome.result.gachaId);
      draws.inc({ pack });
      lots.inc({ pack }, outcome.result.count);
    },
    payment({ method, outcome }) {
      payments.inc({
        provider: methods.has(method) ? method : 'other',
        outcome: outcomes.has(outcome) ? outcome : 'other',
      });
    },
    jobRun({ job, ok, seconds, lagSeconds }) {
      jobRuns.inc({ job, outcome: ok ? 'ok' : 'failed' });
      jobDuration.observe({ job }, seconds);
      if (lagSeconds !== undefined) jobLag.observe({ job }, Math.max(0, lagSeconds));
      if (ok) jobLastSuccess.set({ job }, Date.now() / 1000);
    },
    connectionAcquired(seconds) {
      acquire.observe(seconds);
    },
    setReplicaLag(seconds) {
      replicaLag = seconds === null || !Number.isFinite(seconds) ? null : Math.max(0, seconds);
    },
    replicaLagSeconds: () => replicaLag,
    readAtScrape(bound) {
      Object.assign(sources, bound);
    },
    async scrape() {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}

/** The gauges and counters read from the running shop at each scrape. */
function registerScrapeReadings(registers: Registry[], sources: ScrapeSources, replicaLag: () => number | null) {
  new Gauge({
    name: 'shop_db_pool_connections',
    help: 'Database connections of this instance by state (the embedded database has one).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.reset();
      const use = sources.connections?.();
      if (!use) return;
      this.set({ state: 'in_use' }, use.total - use.idle);
      this.set({ state: 'idle' }, use.idle);
    },
  });
  new Gauge({
    name: 'shop_db_pool_max_connections',
    help: 'The most database connections this instance opens.',
    registers,
    collect() {
      this.reset();
      const use = sources.connections?.();
      if (use) this.set(use.max);
    },
  });
  new Gauge({
    name: 'shop_db_pool_waiting',
    help: 'Callers waiting for a database connection now.',
    registers,
    collect() {
      const use = sources.connections?.();
      this.set(use ? use.waiting : 0);
    },
  });
  new Gauge({
    name: 'shop_db_replica_lag_seconds',
    help: 'How far the read replica is behind the primary; absent while there is no replica or it is unknown.',
    labelNames: ['replica'] as const,
    registers,
    collect() {
      this.reset();
      const lag = replicaLag();
      if (lag !== null) this.set({ replica: 'default' }, lag);
    },
  });
  new Counter({
    name: 'shop_page_cache_requests_total',
    help: "Visitors' public pages served from the page cache (hit) or rendered for it (miss), decision 048.",
    labelNames: ['result'] as const,
    registers,
    collect() {
      this.reset();
      const stats = sources.pageCache?.stats;
      if (!stats) return;
      this.inc({ result: 'hit' }, stats.hits);
      this.inc({ result: 'miss' }, stats.misses);
    },
  });
  new Gauge({
    name: 'shop_draining',
    help: '1 from SIGTERM until the instance stops (readiness answers 503), else 0.',
    registers,
    collect() {
      this.set(sources.draining?.() ? 1 : 0);
    },
  });
  registerOutboxGauges(registers, sources);
}

function counter(name: string, help: string, labelNames: string[], registers: Registry[]) {
  return new Counter({ name, help, labelNames, registers });
}

/** The outbox's backlog, counted by a bounded query at each scrape; left out when it does not answer. */
function registerOutboxGauges(registers: Registry[], sources: ScrapeSources) {
  let reading: Promise<OutboxBacklogReading | null> | undefined;
  // One query per scrape for both gauges: the first collect starts it, the second shares it.
  const read = () =>
    (reading ??= (async () => {
      if (!sources.outboxBacklog) return null;
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          sources.outboxBacklog(),
          new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), SCRAPE_QUERY_TIMEOUT_MS))),
        ]);
      } catch {
        return null;
      } finally {
        clearTimeout(timer);
        setImmediate(() => (reading = undefined));
      }
    })());
  new Gauge({
    name: 'shop_outbox_messages',
    help: 'Mails and SMS waiting in the outbox by status (counted up to a cap), decision 013.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      this.reset();
      const backlog = await read();
      if (!backlog) return;
      this.set({ status: 'queued' }, backlog.queued);
      this.set({ status: 'sending' }, backlog.sending);
    },
  });
  new Gauge({
    name: 'shop_outbox_oldest_due_seconds',
    help: 'How long the oldest message that is due has waited to be sent (0 when none is due).',
    registers,
    async collect() {
      this.reset();
      const backlog = await read();
      if (backlog) this.set(backlog.oldestDueSeconds ?? 0);
    },
  });
}
