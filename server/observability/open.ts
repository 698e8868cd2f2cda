// Opens what the shop is watched with (decision 072), before the database so the database's observer
// can report to it: the metrics always (counting is cheap; /metrics decides who may read them), the
// traces only when an OTLP endpoint is set, their packages loaded then and never otherwise.
import type { DatabaseObserver } from '#db/client';
import type { ShopConfig } from '../config';
import type { OpenedServices } from '../closers';
import type { Logger } from '../logger';
import { createShopMetrics, type ShopMetrics } from './metrics';
import { metricsAccess } from './metrics-access';
import type { ShopTracing } from './tracing';

export interface Observability {
  metrics: ShopMetrics;
  tracing?: ShopTracing;
  /** What the database reports to: connection waits always, statements only when tracing. */
  observer: DatabaseObserver;
}

/** @example const { metrics, tracing, observer } = await openObservability(config, logger, opened) */
export async function openObservability(
  config: ShopConfig,
  logger: Logger,
  opened: OpenedServices,
): Promise<Observability> {
  // The process's own metrics (CPU, memory, event-loop delay, GC) start monitors: only where a scraper may read them.
  const metrics = createShopMetrics({ processMetrics: metricsAccess(config).enabled });
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
    acquired: (seconds) => metrics.connectionAcquired(seconds),
    ...(tracing ? { statement: tracing.statement } : {}),
  };
  return { metrics, tracing, observer };
}
