// The process-wide services (config, database, auth, logger), built once in main and shared by
// the Hono routes and the React Router loaders through the request context.
import type { BeaconService } from './beacon';
import type { ShopConfig } from './config';
import type { DatabaseHandle, Database } from '#db/client';
import type { Logger } from './logger';
import type { IdentityMessenger, RateLimiter, ShopAuth } from '#modules/identity/server';
import type { LiveUpdates } from './live';
import type { PaymentServices } from './payments';
import type { MessagingServices } from './messaging';
import type { MaintenanceCache } from '#modules/shop';
import type { ContentSource } from '#modules/content';
import type { MediaStore } from '#modules/kernel';

import type { PageCache } from './page-cache';
import type { MemoryTrimmer } from './memory-trim';
import type { ReadRouting } from './read-routing';
import type { ShopMetrics } from './observability/metrics';
import type { ShopTracing } from './observability/tracing';
import type { ServingState } from './drain';

export interface ShopServices {
  config: ShopConfig;
  database: DatabaseHandle;
  db: Database;
  /** Where the reads that may lag go (a replica when one is configured and close: decision 075); absent means the primary. */
  reads?: ReadRouting;
  auth: ShopAuth;
  logger: Logger;
  buildId: string;
  /** The maintenance switch as this instance knows it (MAINTENANCE_CACHE_SECONDS old at most; decision 025). */
  maintenance: MaintenanceCache;
  /** Live remaining counts (SSE over LISTEN/NOTIFY); absent in tests that do not need them. */
  live?: LiveUpdates;
  /** Identity's mails and text messages (the one createShopAuth was given); absent in tests that send none. */
  messenger?: IdentityMessenger;
  /** The shared rate limiter (Redis or the database) behind the sign-in guard; absent in tests that do not need it. */
  limiter?: RateLimiter;
  /** The coin shop's providers and rules; absent in tests that do not sell coins. */
  payments?: PaymentServices;
  /** Pages, banners and notices: the built-in store or Prismic (decision 039); absent means the built-in store over `db`. */
  content?: ContentSource;
  /** Visitors' public pages, rendered once per PAGE_CACHE_SECONDS (decision 048); absent means every page is rendered. */
  pages?: PageCache;
  /** Outbound mail and SMS: the transports from the settings; absent in tests that send none. */
  messaging?: MessagingServices;
  /**
   * Uploaded images: the bucket MEDIA_S3_BUCKET names, or DATA_DIR (decision 071); absent means DATA_DIR
   * (read it through `mediaStoreOf`).
   */
  media?: MediaStore;
  /** The beacon mode's chain, relay, receipt signatures (decision 081); absent in tests without beacon packs. */
  beacon?: BeaconService;
  /** Gives freed native memory back after image encodes and every MEMORY_TRIM_SECONDS (decision 047). */
  memory?: MemoryTrimmer;
  /** The Prometheus metrics of this instance (decision 072); absent in tests that count nothing. */
  metrics?: ShopMetrics;
  /** The traces, only when OTEL_EXPORTER_OTLP_ENDPOINT is set (decision 072). */
  tracing?: ShopTracing;
  /** Starting, serving, draining or closing: what readiness answers (decision 072); absent means serving. */
  serving?: ServingState;
}
