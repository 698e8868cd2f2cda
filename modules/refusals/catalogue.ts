// The one catalogue of domain refusals at the edge: every module's refusal words (its refusal-words.ts),
// gathered so that every code a module can return has the HTTP status and the Japanese message the API
// and the pages both show (docs/api.md's status rules; docs/decisions/064).
import {
  MEDIA_STORE_REFUSAL_WORDS,
  type MediaStoreRefusalCode,
  type Refusal,
  type RefusalEntry,
  type RefusalStatus,
  type RefusalWords,
} from '#modules/kernel';
import {
  CLOSURE_REFUSAL_WORDS,
  MAINTENANCE_REFUSAL_WORDS,
  SALES_STOPPED_REFUSAL_WORDS,
  type ClosureRefusalCode,
  type SalesStoppedRefusalCode,
  type MaintenanceRefusalCode,
  type MaintenanceSettingRefusalCode,
} from '#modules/shop';
import { ACCOUNT_DELETION_REFUSAL_WORDS, LINE_LINK_REFUSAL_WORDS, STAFF_ACCESS_REFUSAL_WORDS } from '#modules/identity';
import type { AccountDeletionRefusalCode, LineLinkRefusalCode, StaffAccessRefusalCode } from '#modules/identity/server';
import { IDEMPOTENCY_REFUSAL_WORDS, type IdempotencyRefusalCode } from '#modules/idempotency';
import {
  BANNER_REFUSAL_WORDS,
  CONTENT_REFUSAL_WORDS,
  type BannerRefusalCode,
  type ContentRefusalCode,
} from '#modules/content';
import { WALLET_REFUSAL_WORDS, type WalletRefusalCode } from '#modules/wallet';
import { MAIL_REFUSAL_WORDS, type MailRefusalCode } from '#modules/mailbox';
import {
  GACHA_LOOKUP_REFUSAL_WORDS,
  GENRE_REFUSAL_WORDS,
  PACK_ADMIN_REFUSAL_WORDS,
  STOCK_REFUSAL_WORDS,
  type GachaLookupRefusalCode,
  type GenreRefusalCode,
  type PackAdminRefusalCode,
  type StockRefusalCode,
} from '#modules/gacha';
import { LIMITS_REFUSAL_WORDS, type LimitsRefusalCode } from '#modules/limits';
import {
  WAITING_ROOM_DRAW_REFUSAL_WORDS,
  WAITING_ROOM_REFUSAL_WORDS,
  type WaitingRoomRefusalCode,
} from '#modules/waitingroom';
import {
  CONVERSION_UNDO_REFUSAL_WORDS,
  DRAW_LOG_REFUSAL_WORDS,
  DRAW_LOOKUP_REFUSAL_WORDS,
  DRAW_REFUSAL_WORDS,
  PRIZE_CHOICE_REFUSAL_WORDS,
  type ConversionUndoRefusalCode,
  type DrawLogRefusalCode,
  type DrawRefusalCode,
  type DrawLookupRefusalCode,
  type PrizeChoiceRefusalCode,
} from '#modules/draw';
import { PAYMENT_REFUSAL_WORDS, type PurchaseRefusalCode } from '#modules/payments';
import { PROMO_REFUSAL_WORDS, type PromoAdminRefusalCode, type PromoRefusalCode } from '#modules/promo';
import {
  ADMIN_REFUSAL_WORDS,
  MAIL_SEND_REFUSAL_WORDS,
  MEMBER_CONSOLE_REFUSAL_WORDS,
  type AdminRefusalCode,
  type MailSendRefusalCode,
  type MemberConsoleRefusalCode,
} from '#modules/admin';
import {
  ADDRESS_REFUSAL_WORDS,
  SHIPPING_REFUSAL_WORDS,
  type AddressRefusalCode,
  type ShippingRefusalCode,
} from '#modules/shipping';
import {
  APPEAL_REFUSAL_WORDS,
  INQUIRY_IMAGE_REFUSAL_WORDS,
  INQUIRY_REFUSAL_WORDS,
  type AppealRefusalCode,
  type InquiryImageRefusalCode,
  type InquiryRefusalCode,
} from '#modules/support';
import { RISK_REFUSAL_WORDS, type RiskRefusalCode } from '#modules/risk';
import { LOGIN_BONUS_REFUSAL_WORDS, type LoginBonusRefusalCode } from '#modules/bonus';
import { INVITATION_REFUSAL_WORDS, type InvitationRefusalCode } from '#modules/invitation';
import { FRIEND_REFUSAL_WORDS, type FriendRefusalCode } from '#modules/friends';
import {
  FARM_ADMIN_REFUSAL_WORDS,
  FARM_REFUSAL_WORDS,
  type FarmAdminRefusalCode,
  type FarmRefusalCode,
} from '#modules/farm';

/**
 * Joins sections; a code two modules share must mean the same answer in both (checked at load, so
 * a contradiction stops the start instead of depending on the order of the sections).
 */
function joinSections<S extends readonly RefusalWords<string>[]>(
  ...sections: S
): Readonly<Record<{ [I in keyof S]: keyof S[I] }[number], RefusalEntry>> {
  const all: Record<string, RefusalEntry> = {};
  for (const section of sections) {
    for (const [code, entry] of Object.entries(section)) {
      const existing = all[code];
      if (existing && (existing.status !== entry.status || String(existing.message) !== String(entry.message))) {
        throw new Error(`modules/refusals: ${code} has two different entries`);
      }
      all[code] = entry;
    }
  }
  return all as Record<{ [I in keyof S]: keyof S[I] }[number], RefusalEntry>;
}

/**
 * Every code any module can return (each module exports its codes as *_REFUSAL_CODES; the test
 * modules/refusals/catalogue.test.ts fails when one has no entry here).
 */
export type RefusalCode =
  | DrawRefusalCode
  | DrawLookupRefusalCode
  | DrawLogRefusalCode
  | PrizeChoiceRefusalCode
  | ConversionUndoRefusalCode
  | GachaLookupRefusalCode
  | PackAdminRefusalCode
  | GenreRefusalCode
  | StockRefusalCode
  | IdempotencyRefusalCode
  | WalletRefusalCode
  | LineLinkRefusalCode
  | StaffAccessRefusalCode
  | AccountDeletionRefusalCode
  | PurchaseRefusalCode
  | AdminRefusalCode
  | MemberConsoleRefusalCode
  | MailSendRefusalCode
  | AddressRefusalCode
  | ShippingRefusalCode
  | MaintenanceRefusalCode
  | MaintenanceSettingRefusalCode
  | SalesStoppedRefusalCode
  | ClosureRefusalCode
  | InquiryRefusalCode
  | InquiryImageRefusalCode
  | AppealRefusalCode
  | BannerRefusalCode
  | ContentRefusalCode
  | RiskRefusalCode
  | PromoRefusalCode
  | PromoAdminRefusalCode
  | MailRefusalCode
  | LoginBonusRefusalCode
  | InvitationRefusalCode
  | LimitsRefusalCode
  | WaitingRoomRefusalCode
  | FarmRefusalCode
  | FriendRefusalCode
  | FarmAdminRefusalCode
  | MediaStoreRefusalCode;

/** Every code's entry: a code of RefusalCode that no gathered section words is a type error here. */
export const REFUSAL_CATALOGUE: Readonly<Record<RefusalCode, RefusalEntry>> = joinSections(
  DRAW_REFUSAL_WORDS,
  WAITING_ROOM_REFUSAL_WORDS,
  WAITING_ROOM_DRAW_REFUSAL_WORDS,
  DRAW_LOOKUP_REFUSAL_WORDS,
  DRAW_LOG_REFUSAL_WORDS,
  PRIZE_CHOICE_REFUSAL_WORDS,
  CONVERSION_UNDO_REFUSAL_WORDS,
  GACHA_LOOKUP_REFUSAL_WORDS,
  PACK_ADMIN_REFUSAL_WORDS,
  GENRE_REFUSAL_WORDS,
  STOCK_REFUSAL_WORDS,
  IDEMPOTENCY_REFUSAL_WORDS,
  WALLET_REFUSAL_WORDS,
  LINE_LINK_REFUSAL_WORDS,
  STAFF_ACCESS_REFUSAL_WORDS,
  ACCOUNT_DELETION_REFUSAL_WORDS,
  PAYMENT_REFUSAL_WORDS,
  ADMIN_REFUSAL_WORDS,
  MEMBER_CONSOLE_REFUSAL_WORDS,
  MAIL_SEND_REFUSAL_WORDS,
  ADDRESS_REFUSAL_WORDS,
  SHIPPING_REFUSAL_WORDS,
  MAINTENANCE_REFUSAL_WORDS,
  SALES_STOPPED_REFUSAL_WORDS,
  CLOSURE_REFUSAL_WORDS,
  INQUIRY_REFUSAL_WORDS,
  INQUIRY_IMAGE_REFUSAL_WORDS,
  APPEAL_REFUSAL_WORDS,
  BANNER_REFUSAL_WORDS,
  CONTENT_REFUSAL_WORDS,
  RISK_REFUSAL_WORDS,
  PROMO_REFUSAL_WORDS,
  LOGIN_BONUS_REFUSAL_WORDS,
  MAIL_REFUSAL_WORDS,
  INVITATION_REFUSAL_WORDS,
  LIMITS_REFUSAL_WORDS,
  FARM_REFUSAL_WORDS,
  FRIEND_REFUSAL_WORDS,
  FARM_ADMIN_REFUSAL_WORDS,
  MEDIA_STORE_REFUSAL_WORDS,
);

export interface DescribedRefusal {
  status: RefusalStatus;
  code: RefusalCode;
  message: string;
  details: Record<string, unknown>;
  headers: Readonly<Record<string, string>>;
}

/**
 * The status, Japanese message and headers of a refusal, for the API and the pages alike.
 * @example const { status, message } = describeRefusal(outcome) // 422, 'コインが不足しています（必要 1,000コイン／所持 200コイン）。'
 */
export function describeRefusal(refusal: Refusal<RefusalCode>): DescribedRefusal {
  const entry = REFUSAL_CATALOGUE[refusal.code];
  if (!entry) throw new Error(`modules/refusals: no entry for refusal ${String(refusal.code)}`);
  const message = typeof entry.message === 'function' ? entry.message(refusal.details) : entry.message;
  const headers = typeof entry.headers === 'function' ? entry.headers(refusal.details) : (entry.headers ?? {});
  return { status: entry.status, code: refusal.code, message, details: refusal.details, headers };
}
