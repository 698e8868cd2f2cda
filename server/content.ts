// The content source the settings chose (decision 039), and the facts the default legal pages state.
import path from 'node:path';
import type { ShopConfig } from './config';
import type { Logger } from './logger';
import type { Database } from '#db/client';
import {
  addDocuments,
  createBuiltinSource,
  createPrismicSource,
  defaultContentDocuments,
  type AccountPolicyFacts,
  type ContentSource,
  type LegalFacts,
} from '#modules/content';
import { APPEAL_DECISION_DAYS, APPEAL_WINDOW_DAYS, RESTRICTION_CATEGORY_WORDS } from '#modules/identity';

/** @example legalFactsOf(config).sellerName // SELLER_NAME */
export function legalFactsOf(config: ShopConfig): LegalFacts {
  return {
    siteName: config.SITE_NAME,
    sellerName: config.SELLER_NAME,
    sellerAddress: config.SELLER_ADDRESS,
    representative: config.SELLER_REPRESENTATIVE,
    contactEmail: config.SELLER_CONTACT_EMAIL ?? null,
    kobutsuCommission: config.KOBUTSU_COMMISSION,
    kobutsuPermitNumber: config.KOBUTSU_PERMIT_NUMBER,
    paidCoinExpiryDays: config.PAID_COIN_EXPIRY_DAYS,
    freeCoinExpiryDays: config.FREE_COIN_EXPIRY_DAYS,
    monthlyCapJpy: config.PURCHASE_MONTHLY_CAP_JPY,
    minorMonthlyCapJpy: config.MINOR_PURCHASE_MONTHLY_CAP_JPY,
    prizeDecisionDays: config.PRIZE_DECISION_DAYS,
  };
}

/** @example accountPolicyFactsOf(config).restrictionCategories[0].label // '本人確認のため' */
export function accountPolicyFactsOf(config: ShopConfig): AccountPolicyFacts {
  return {
    siteName: config.SITE_NAME,
    paidCoinExpiryDays: config.PAID_COIN_EXPIRY_DAYS,
    freeCoinExpiryDays: config.FREE_COIN_EXPIRY_DAYS,
    prizeDecisionDays: config.PRIZE_DECISION_DAYS,
    restrictionCategories: Object.values(RESTRICTION_CATEGORY_WORDS),
    appealWindowDays: APPEAL_WINDOW_DAYS,
    appealDecisionDays: APPEAL_DECISION_DAYS,
  };
}

/** Writes the legal pages that do not exist yet (never overwrites an operator's edit). */
export async function addDefaultContent(db: Database, config: ShopConfig): Promise<void> {
  await addDocuments(db, defaultContentDocuments({ ...legalFactsOf(config), ...accountPolicyFactsOf(config) }));
}

/**
 * The content source the settings chose: the built-in store (default) or Prismic (decision 041), whose
 * last good copy is kept under DATA_DIR/cache so a restart during an outage still has pages.
 * @example const content = createContentSource(config, db, logger); … content.close()
 */
export function createContentSource(
  config: ShopConfig,
  db: Database,
  logger: Logger,
): ContentSource & { close(): void } {
  if (config.CONTENT_SOURCE === 'prismic' && config.PRISMIC_REPOSITORY) {
    const source = createPrismicSource({
      repository: config.PRISMIC_REPOSITORY,
      accessToken: config.PRISMIC_ACCESS_TOKEN,
      cacheFile: path.join(config.dataDir, 'cache', 'prismic-content.json'),
      logger: logger.child({ component: 'content' }),
    });
    // The first copy is fetched now rather than by the first visitor; a failure is logged by the source.
    source.refresh().catch(() => undefined);
    return source;
  }
  return Object.assign(createBuiltinSource(db), { close: () => undefined });
}
