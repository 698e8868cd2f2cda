// The shop's background jobs: the one list main registers with the job runner (see runner.ts).
import path from 'node:path';
import type { ShopServices } from '../services';
import { imageCacheCleanupJob } from './image-cache-cleanup';
import { mediaCleanupJob } from './media-cleanup';
import { mediaStoreOf } from '../media';
import { paymentEventsJob, expireOrdersJob, reconcilePaidOrdersJob } from './payments';
import {
  expireCoinsJob,
  autoConvertPrizesJob,
  saleWindowsJob,
  forgetIdempotencyKeysJob,
  refreshRemainingJob,
  recordWinsJob,
} from './shop-rules';
import { deliverMessagesJob, clearMessageBodiesJob } from './messaging';
import { compensateLateShipmentsJob, keptPrizeRemindersJob } from './shipping';
import { riskSignalsJob } from './risk';
import { settleInvitationsJob } from './invitation';
import { ROLLUP_SETTLE_SECONDS, foldDashboardRollupsJob, unusedPaidSnapshotJob } from './dashboard';
import { monthlyRanksJob, foldRankingsJob } from './progression';
import { rankRulesOf } from '../progression';
import { storageConversionNotifier } from '#modules/shipping';
import { bothConversionHooks, mailEmailNoticesJob, prizeConversionMail, prizeDeadlineMailsJob } from './prize-mails';
import { shippingRulesOf } from '../shipping';
import { publishScheduledContentJob } from './content';
import { finishDeletionsJob } from './privacy';
import { closureNoticesJob } from '../closure';
import type { JobDefinition, JobRunner } from './runner';

export {
  createJobRunner,
  type JobRunner,
  type JobDefinition,
  type JobContext,
  type JobRunSummary,
  type JobRunReport,
} from './runner';

/** What the job factories may use; widen it when a job needs more of the services. */
export type JobServices = Pick<ShopServices, 'config'> &
  Partial<Pick<ShopServices, 'payments' | 'messaging' | 'media'>>;

/**
 * Every job of the shop. ADD A JOB HERE, one line each: a factory from its module that returns a
 * JobDefinition ({ name: '<module>.<what>', cron?, handler }), e.g.
 *   expireCoinsJob(services),       // wallet.expire-coins
 *   autoConvertPrizesJob(services), // prizes.auto-convert
 */
export function shopJobs(services: JobServices): JobDefinition[] {
  const { config } = services;
  const shipping = shippingRulesOf(config);
  const media = mediaStoreOf(services);
  return [
    imageCacheCleanupJob({
      cacheDir: path.join(config.dataDir, 'cache', 'images'),
      maxBytes: config.IMAGE_CACHE_MAX_MB * 1024 * 1024,
    }),
    expireCoinsJob(),
    autoConvertPrizesJob(
      config.FREE_COIN_EXPIRY_DAYS,
      bothConversionHooks(storageConversionNotifier(shipping.site), prizeConversionMail()),
    ), // prizes.auto-convert
    prizeDeadlineMailsJob(), // prizes.deadline-mails
    mailEmailNoticesJob(shipping.site), // mailbox.email-notices (opted-in members' emails about new mails)
    saleWindowsJob(),
    forgetIdempotencyKeysJob(),
    refreshRemainingJob(),
    recordWinsJob(config.PRIZE_HIGHLIGHT_COINS), // draw.record-wins (the winners feed's catch-up, decision 036)
    ...(services.payments
      ? [
          paymentEventsJob(services.payments),
          expireOrdersJob(services.payments),
          reconcilePaidOrdersJob(services.payments),
        ]
      : []),
    deliverMessagesJob(services.messaging?.transports ?? {}), // messaging.deliver (no transports: held)
    clearMessageBodiesJob(config.OUTBOX_RETENTION_DAYS), // messaging.clear-old-bodies
    compensateLateShipmentsJob(shipping), // shipping.compensate-late
    keptPrizeRemindersJob(shipping), // prizes.storage-reminders
    riskSignalsJob(config), // risk.signals
    foldDashboardRollupsJob(ROLLUP_SETTLE_SECONDS), // reports.fold-rollups (the dashboard's rollups, decision 028)
    unusedPaidSnapshotJob(), // payments.unused-paid-snapshot
    monthlyRanksJob(rankRulesOf(config)), // progression.monthly-ranks (decision 037)
    foldRankingsJob(), // ranking.fold (the ranking boards' scores, decision 037)
    settleInvitationsJob(config), // invitation.settle (decision 038)
    publishScheduledContentJob(), // content.publish-scheduled (booked publications, decision 040)
    finishDeletionsJob(media), // privacy.finish-deletions (退会's outbox notice and images, decision 053)
    mediaCleanupJob({ store: media, graceHours: config.MEDIA_CLEANUP_GRACE_HOURS }), // media.cleanup (decision 071)
    closureNoticesJob(shipping.site), // shop.closure-notices (decision 085: every member with a balance, once)
    // ← new jobs go here
  ];
}

/** Registers every job of the shop; main calls it before runner.start(). */
export function registerShopJobs(runner: JobRunner, services: JobServices): void {
  for (const job of shopJobs(services)) runner.register(job);
}
