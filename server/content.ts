// The content source the settings chose (decision 039), and the facts the default legal pages state.
import type { ShopConfig } from './config';
import type { Database } from '#db/client';
import { addDocuments, defaultContentDocuments, type LegalFacts } from '#modules/content';

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

/** Writes the legal pages that do not exist yet (never overwrites an operator's edit). */
export async function addDefaultContent(db: Database, config: ShopConfig): Promise<void> {
  await addDocuments(db, defaultContentDocuments(legalFactsOf(config)));
}
