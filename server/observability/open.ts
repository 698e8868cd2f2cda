// Opens what the shop is watched with (decision 072), before the database so the database's observer
// can report to it: the metrics when /metrics is on (a token or an allow-list), the traces when an OTLP
// endpoint is set; the packages of each are loaded then and never otherwise.
import type { DatabaseObserver } from '#db/client';
import type { ShopConfig } from '../config';
import type { OpenedServices } from '../closers';
import type { Logger } from '../logger';
import type { ShopMetrics } from './metrics';
import { metricsAccess } from './metrics-access';
import type { ShopTracing } from './tracing';

export interface Observability {
  metrics: ShopMetrics;
  tracing?: ShopTracing;
  /** What the database reports to: connection waits when counted, statements when tracing. */
  observer: DatabaseObserver;
}

/** @example const { metrics, tracing, observer } = await openObservability(config, logger, opened) */
export async function openObservability(
  config: ShopConfig,
  logger: Logger,
  opened: OpenedServices,
): Promise<Observability> {
  // Counted only where a scraper may read them: a shop with /metrics off loads no prom-client and
  // counts nothing (the embedded default's memory, decision 047).
  const counting = metricsAccess(config).enabled;
  const metrics = counting
    ? (await import('./metrics')).createShopMetrics({ processMetrics: true })
    : uncountedMetrics();
  let tracing: ShopTracing | undefined;
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint) {
    const { startTracing } = await import('./tracing');
    const started = await startTracing({ endpoint, serviceName: config.OTEL_SERVICE_NAME });
    // Closed after the database (opened before it): the last statements' spans are sent too.
    opened.add('traces', () => started.shutdown());
    logger.info({ endpoint: new URL(endpoint).origin }, 'traces go to the OTLP endpoint');
    tracing = started;
  }
  const observer: DatabaseObserver = {
    ...(counting ? { acquired: (seconds: number) => metrics.connectionAcquired(seconds) } : {}),
    ...(tracing ? { statement: tracing.statement } : {}),
  };
  return { metrics, tracing, observer };
}

/** The metrics of a shop whose /metrics is off: nothing is counted; the replica's lag is still kept for /api/health. */
export function uncountedMetrics(): ShopMetrics {
  let replicaLag: number | null = null;
  const nothing = () => undefined;
  return {
    httpRequest: nothing,
    draw: nothing,
    payment: nothing,
    jobRun: nothing,
    connectionAcquired: nothing,
    setReplicaLag(seconds) {
      replicaLag = seconds === null || !Number.isFinite(seconds) ? null : Math.max(0, seconds);
    },
    replicaLagSeconds: () => replicaLag,
    readAtScrape: nothing,
    scrape: async () => ({ body: '', contentType: 'text/plain' }),
  };
}
