// The coin shop's rules: which packs a member may buy, the monthly caps, orders, crediting coins
// exactly once when the provider confirms, reversing them on a refund or chargeback, and the
// 資金決済法 report. Providers are reached only through the PaymentProvider interface, and never
// inside a database transaction (docs/architecture.md).
import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { TZDate } from '@date-fns/tz';
import { addMinutes, format, startOfMonth } from 'date-fns';
import { z } from 'zod';
import type { Database } from '#db/client';
import { grantCoins } from '#modules/wallet';
import { currentRank, rankBonusCoins } from '#modules/progression';
import { isUuid, refuse, RefusalError, windowPhase } from '#modules/kernel';
import { maintenanceRefusal } from '#modules/shop';
import { notifyMember } from '#modules/mailbox';
import { limitsInForce, purchaseSelfLimitRefusal } from '#modules/limits';
import { coinPacks, paymentEvents, paymentOrders, purchaseProfiles, type OrderStatus } from './schema';
import {
  PAYMENT_METHODS,
  PAYMENT_METHOD_INFO,
  isPaymentMethod,
  purchaseEventLabel,
  type PaymentMethod,
} from './methods';
import { WebhookRejected, type PaymentProvider, type ProviderPayment, type WebhookRequest } from './providers/types';

export { orderStatuses, type OrderStatus } from './schema';
export {
  ORDER_LIST_PAGE_SIZE,
  coinPackFormSchema,
  listOrdersForDesk,
  orderForOperator,
  ordersExportBatch,
  orderListFilterSchema,
  type OrderEventView,
  type OrderListFilter,
} from './operator-orders';
export * from './methods';
export {
  baseDateOnOrAfter,
  foldSalesRollups,
  refreshUnusedPaidSnapshot,
  salesDailyFigures,
  unusedPaidSnapshotFor,
  type SalesDayFigures,
  type UnusedPaidSnapshot,
} from './rollups';
export { ProviderError, WebhookRejected, type PaymentProvider, type ProviderPayment } from './providers/types';
export {
  PAYMENT_PROVIDERS,
  ProviderSettingsError,
  type PaymentProviderDescriptor,
  type PaymentSettings,
  type ProviderLog,
  type ProviderPageSources,
  type ProviderSetup,
} from './providers';

const TOKYO = 'Asia/Tokyo';

/** The providers this shop instance can use, by method (configured ones only). */
export interface PaymentGateway {
  providers: Partial<Record<PaymentMethod, PaymentProvider>>;
}

/** The shop's money rules, from configuration. */
export interface ShopPaymentRules {
  monthlyCapJpy: number;
  minorMonthlyCapJpy: number;
  checkoutExpiryMinutes: number;
  paidCoinDays: number;
  freeCoinDays: number;
}

/** The settings' defaults (server/config.ts), for tests and tools that run without settings; never a silent fallback. */
export const DEFAULT_PAYMENT_RULES: ShopPaymentRules = {
  monthlyCapJpy: 500_000,
  minorMonthlyCapJpy: 10_000,
  checkoutExpiryMinutes: 60,
  paidCoinDays: 180,
  freeCoinDays: 90,
};

/** Why the shop refuses a purchase or an operator's refund; each is worded once, in server/refusals.ts. */
export const PAYMENT_REFUSAL_CODES = [
  'AGE_DECLARATION_REQUIRED',
  'MONTHLY_CAP_EXCEEDED',
  'MINOR_CAP_EXCEEDED',
  'FIRST_PURCHASE_ONLY',
  'PACK_UNAVAILABLE',
  // Outside the pack's sale window (docs/decisions/031): details say whether it has not started or has ended.
  'PACK_OUTSIDE_WINDOW',
  'METHOD_UNAVAILABLE',
  'PURCHASE_HOLD',
  'ORDER_KEY_CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'CHECKOUT_IN_PROGRESS',
  'QUOTE_CHANGED',
  'PROVIDER_UNAVAILABLE',
  'ORDER_NOT_FOUND',
  'ORDER_NOT_REFUNDABLE',
  'PROVIDER_NOT_CONFIGURED',
  // An operator's decision on an order held for review: it is no longer in review, or this decision
  // does not fit why it was held (coins are never credited for an amount that did not match).
  'ORDER_NOT_IN_REVIEW',
  'REVIEW_DECISION_NOT_ALLOWED',
  // Maintenance mode: a new checkout is refused (the shop module's switch, read in the checkout's transaction).
  'MAINTENANCE',
  // The member's own limits (docs/decisions/035): a self-exclusion, or the monthly purchase limit they set.
  'SELF_EXCLUDED',
  'PURCHASE_LIMIT_REACHED',
] as const;
export type PurchaseRefusalCode = (typeof PAYMENT_REFUSAL_CODES)[number];

/**
 * A purchase the shop refuses: a kernel RefusalError (thrown, because it must roll back the checkout's
 * transaction), with the facts its message names in `details`; the edge words it (server/refusals.ts).
 * @example throw new PurchaseRefused('PACK_UNAVAILABLE', { packId })
 */
export class PurchaseRefused extends RefusalError<PurchaseRefusalCode> {
  constructor(code: PurchaseRefusalCode, details: Record<string, unknown> = {}) {
    super(refuse(code, details));
    this.name = 'PurchaseRefused';
  }
}

/** @example yen(12000) === '¥12,000' */
export const yen = (amount: number) => `¥${amount.toLocaleString('ja-JP')}`;

/** The start of the calendar month in Japan time that contains `now`. */
export const monthStartJst = (now: Date) => new Date(startOfMonth(new TZDate(now, TOKYO)).getTime());

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

// ---------------------------------------------------------------------------------------------
// Packs, the member's standing, quotes

export interface CoinPackView {
  id: string;
  name: string;
  priceJpy: number;
  paidCoins: number;
  bonusCoins: number;
  rankBonusCoins: number;
  totalCoins: number;
  firstPurchaseOnly: boolean;
  badge: string | null;
  /** False when the member may not buy it now (a first-purchase pack after a purchase). */
  available: boolean;
  /** Why it is not available, in the words a member reads (null when available). */
  unavailableReason: string | null;
}

/** The true reason a 初回限定 pack cannot be bought after a purchase: it is for the first purchase only. */
export const FIRST_PURCHASE_ONLY_REASON = '初回購入のみ対象です';

export interface PurchaseStanding {
  declared: boolean;
  declaredMinor: boolean;
  hold: string | null;
  rank: { rank: number; name: string; bonusPercent: number };
  capJpy: number;
  /** Bought (or being paid) this month, JST. */
  usedJpy: number;
  remainingJpy: number;
  hasPurchased: boolean;
  /** The member's own monthly limit (docs/decisions/035), counted on the same usedJpy; null without one. */
  selfLimitJpy: number | null;
  /** The end of a self-exclusion in force (ISO 8601), or null. */
  excludedUntil: string | null;
}

/** The member's age declaration, cap, what is used of it this month, rank bonus and hold. */
export async function getPurchaseStanding(
  db: Database,
  memberId: string,
  rules: ShopPaymentRules,
  now = new Date(),
): Promise<PurchaseStanding> {
  const [profile] = await db.select().from(purchaseProfiles).where(eq(purchaseProfiles.memberId, memberId));
  const rank = await currentRank(db, memberId, now);
  const usedJpy = await monthlyCommittedJpy(db, memberId, now);
  const self = await limitsInForce(db, memberId, now);
  const [purchased] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.memberId, memberId), isNotNull(paymentOrders.creditedAt)));
  const declared = Boolean(profile?.ageDeclared);
  const declaredMinor = declared && Boolean(profile?.declaredMinor);
  const capJpy = declaredMinor ? rules.minorMonthlyCapJpy : rules.monthlyCapJpy;
  return {
    declared,
    declaredMinor,
    hold: profile?.holdReason ?? null,
    rank: { rank: rank.rank, name: rank.name, bonusPercent: rank.bonusPercent },
    capJpy,
    usedJpy,
    remainingJpy: Math.max(0, capJpy - usedJpy),
    hasPurchased: (purchased?.n ?? 0) > 0,
    selfLimitJpy: self.purchaseLimitJpy,
    excludedUntil: self.excludedUntil?.toISOString() ?? null,
  };
}

/**
 * JPY counted this Japan-time month against the caps and the member's own purchase limit (docs/decisions/035).
 * @example const usedJpy = await monthlyPurchasedJpy(db, memberId) // 3000
 */
export const monthlyPurchasedJpy = (db: Database, memberId: string, now = new Date()) =>
  monthlyCommittedJpy(db, memberId, now);

/**
 * JPY counted against a month's cap (the month of `monthOf`, Japan time; default now's): paid orders,
 * orders under review, and checkouts still open now.
 */
async function monthlyCommittedJpy(db: Database, memberId: string, now: Date, monthOf: Date = now): Promise<number> {
  const start = monthStartJst(monthOf);
  const next = monthStartJst(new Date(start.getTime() + 40 * 86_400_000));
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${paymentOrders.amountJpy}), 0)` })
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.memberId, memberId),
        gte(paymentOrders.createdAt, start),
        lt(paymentOrders.createdAt, next),
        or(
          inArray(paymentOrders.status, ['paid', 'review']),
          and(eq(paymentOrders.status, 'pending'), gt(paymentOrders.expiresAt, now)),
        ),
      ),
    );
  return Number(row?.total ?? 0);
}

/** A pack on sale at `now`: active, and inside its sale window if it has one (docs/decisions/031). */
const packOnSale = (now: Date) =>
  and(
    eq(coinPacks.active, true),
    or(isNull(coinPacks.startsAt), lte(coinPacks.startsAt, now)),
    or(isNull(coinPacks.endsAt), gt(coinPacks.endsAt, now)),
  );

/** The packs on sale at `now` with the member's rank bonus applied, cheapest first. */
export async function listCoinPacks(
  db: Database,
  standing: Pick<PurchaseStanding, 'rank' | 'hasPurchased'>,
  now = new Date(),
): Promise<CoinPackView[]> {
  const packs = await db
    .select()
    .from(coinPacks)
    .where(packOnSale(now))
    .orderBy(asc(coinPacks.sortOrder), asc(coinPacks.priceJpy));
  return packs.map((p) => {
    const rankBonus = rankBonusCoins(standing.rank.bonusPercent, p.paidCoins);
    return {
      id: p.id,
      name: p.name,
      priceJpy: p.priceJpy,
      paidCoins: p.paidCoins,
      bonusCoins: p.bonusCoins,
      rankBonusCoins: rankBonus,
      totalCoins: p.paidCoins + p.bonusCoins + rankBonus,
      firstPurchaseOnly: p.firstPurchaseOnly,
      badge: p.badge,
      available: !(p.firstPurchaseOnly && standing.hasPurchased),
      unavailableReason: p.firstPurchaseOnly && standing.hasPurchased ? FIRST_PURCHASE_ONLY_REASON : null,
    };
  });
}

/**
 * Records the member's answer to 「18歳以上ですか」. Once given it stays (a member cannot lift their
 * own minors' cap by answering again); operators change it (`npm run shop -- members:age`).
 */
export async function declareAge(
  db: Database,
  memberId: string,
  minor: boolean,
  options: { byOperator?: boolean } = {},
): Promise<{ declaredMinor: boolean }> {
  if (options.byOperator) {
    await db
      .insert(purchaseProfiles)
      .values({ memberId, declaredMinor: minor })
      .onConflictDoUpdate({
        target: purchaseProfiles.memberId,
        set: { declaredMinor: minor, ageDeclared: true, declaredAt: new Date() },
      });
    return { declaredMinor: minor };
  }
  // A row that only carries an operator's hold takes the member's first answer.
  await db
    .insert(purchaseProfiles)
    .values({ memberId, declaredMinor: minor })
    .onConflictDoUpdate({
      target: purchaseProfiles.memberId,
      set: { declaredMinor: minor, ageDeclared: true, declaredAt: new Date() },
      setWhere: sql`${purchaseProfiles.ageDeclared} = false`,
    });
  const [profile] = await db.select().from(purchaseProfiles).where(eq(purchaseProfiles.memberId, memberId));
  return { declaredMinor: profile!.declaredMinor };
}

/**
 * The member's purchase hold (decision 008), or null: other modules refuse what a held member may not
 * do either (shipping a prize) and say why. `reason` is the kind of hold, not the order behind it.
 * @example const hold = await purchaseHoldOf(db, memberId) // { reason: 'chargeback', since: Date } or null
 */
export async function purchaseHoldOf(
  db: Database,
  memberId: string,
): Promise<{ reason: PurchaseHoldKind; since: Date | null } | null> {
  const [profile] = await db
    .select({ hold: purchaseProfiles.holdReason, at: purchaseProfiles.holdAt })
    .from(purchaseProfiles)
    .where(eq(purchaseProfiles.memberId, memberId));
  if (!profile?.hold) return null;
  return { reason: holdKindOf(profile.hold), since: profile.at };
}

/** The kinds of hold a member may be told about: a chargeback's, an operator's, or another. */
export type PurchaseHoldKind = 'chargeback' | 'operator' | 'other';

/** The hold an operator places (decision 026); their reason is in the audit entry, never shown to the member. */
export const OPERATOR_HOLD = 'operator';

/** @example holdKindOf('chargeback:…') // 'chargeback' */
export const holdKindOf = (hold: string): PurchaseHoldKind =>
  hold.startsWith('chargeback:') ? 'chargeback' : hold === OPERATOR_HOLD ? 'operator' : 'other';

/**
 * The holds of several members at once (the operators' member search), by member id; members without a hold are absent.
 * @example (await purchaseHoldsOf(db, ids)).get(id) // 'chargeback'
 */
export async function purchaseHoldsOf(db: Database, memberIds: string[]): Promise<Map<string, PurchaseHoldKind>> {
  if (memberIds.length === 0) return new Map();
  const rows = await db
    .select({ memberId: purchaseProfiles.memberId, hold: purchaseProfiles.holdReason })
    .from(purchaseProfiles)
    .where(and(inArray(purchaseProfiles.memberId, memberIds), isNotNull(purchaseProfiles.holdReason)));
  return new Map(rows.map((r) => [r.memberId, holdKindOf(r.hold!)]));
}

/**
 * Puts a member's purchases (and shipping) on hold by an operator (decision 026), unless some hold is
 * already there (a chargeback's stays as it is). Answers whether it placed one.
 * @example await placePurchaseHold(tx, memberId) // true
 */
export async function placePurchaseHold(db: Database, memberId: string, now = new Date()): Promise<boolean> {
  const placed = await db
    .insert(purchaseProfiles)
    .values({ memberId, declaredMinor: false, ageDeclared: false, holdReason: OPERATOR_HOLD, holdAt: now })
    .onConflictDoUpdate({
      target: purchaseProfiles.memberId,
      set: { holdReason: OPERATOR_HOLD, holdAt: now },
      setWhere: sql`${purchaseProfiles.holdReason} is null`,
    })
    .returning({ memberId: purchaseProfiles.memberId });
  return placed.length > 0;
}

/** The member's age declaration and hold as stored, or null before any declaration (operators' before-and-after). */
export async function purchaseProfileOf(
  db: Database,
  memberId: string,
): Promise<{ declaredMinor: boolean | null; hold: string | null } | null> {
  const [profile] = await db.select().from(purchaseProfiles).where(eq(purchaseProfiles.memberId, memberId));
  return profile
    ? { declaredMinor: profile.ageDeclared ? profile.declaredMinor : null, hold: profile.holdReason }
    : null;
}

/** Lifts a purchase hold (operator, after the member settled an unrecovered chargeback). */
export async function clearPurchaseHold(db: Database, memberId: string): Promise<boolean> {
  const rows = await db
    .update(purchaseProfiles)
    .set({ holdReason: null, holdAt: null })
    .where(and(eq(purchaseProfiles.memberId, memberId), isNotNull(purchaseProfiles.holdReason)))
    .returning();
  return rows.length > 0;
}

export interface Quote {
  pack: CoinPackView;
  method: PaymentMethod;
  priceJpy: number;
  paidCoins: number;
  bonusCoins: number;
  rankBonusPercent: number;
  rankBonusCoins: number;
  totalCoins: number;
  paidCoinDays: number;
  freeCoinDays: number;
  standing: PurchaseStanding;
  /**
   * True when a 初回限定 pack is still open to the member and this quote is for another pack: buying
   * it ends the offer, and the member is told so before confirming.
   */
  endsFirstPurchaseOffer: boolean;
}

/** What the confirmation screen shows; throws PurchaseRefused with the reason a member reads. */
export async function quotePurchase(
  db: Database,
  gateway: PaymentGateway,
  input: { memberId: string; packId: string; method: string },
  rules: ShopPaymentRules,
  now = new Date(),
): Promise<Quote> {
  const standing = await getPurchaseStanding(db, input.memberId, rules, now);
  const packs = await listCoinPacks(db, standing, now);
  await refuseOutsideWindow(db, packs, input.packId, now);
  return buildQuote(gateway, input, standing, packs, rules);
}

/**
 * Throws PACK_OUTSIDE_WINDOW when the asked pack is active but outside its sale window at `now` (the
 * list of packs on sale left it out), so the member reads why rather than 「販売していません」.
 */
async function refuseOutsideWindow(db: Database, onSale: CoinPackView[], packId: string, now: Date): Promise<void> {
  if (onSale.some((p) => p.id === packId)) return;
  const [pack] = await db
    .select({ active: coinPacks.active, startsAt: coinPacks.startsAt, endsAt: coinPacks.endsAt })
    .from(coinPacks)
    .where(eq(coinPacks.id, packId));
  if (!pack?.active) return;
  const phase = windowPhase(pack, now);
  if (phase === 'open') return;
  throw new PurchaseRefused('PACK_OUTSIDE_WINDOW', {
    phase,
    startsAt: pack.startsAt?.toISOString() ?? null,
    endsAt: pack.endsAt?.toISOString() ?? null,
  });
}

function buildQuote(
  gateway: PaymentGateway,
  input: { packId: string; method: string },
  standing: PurchaseStanding,
  packs: CoinPackView[],
  rules: ShopPaymentRules,
): Quote {
  if (!isPaymentMethod(input.method) || !gateway.providers[input.method]) {
    throw new PurchaseRefused('METHOD_UNAVAILABLE', { method: input.method });
  }
  const pack = packs.find((p) => p.id === input.packId);
  if (!pack) throw new PurchaseRefused('PACK_UNAVAILABLE');
  if (standing.hold) {
    throw new PurchaseRefused('PURCHASE_HOLD', { reason: holdKindOf(standing.hold) });
  }
  // The member's own limits (docs/decisions/035), on the same count as the cap; in startCheckout under the
  // same purchase lock. An exclusion is said before anything the member could do something about.
  const self = purchaseSelfLimitRefusal(
    {
      purchaseLimitJpy: standing.selfLimitJpy,
      drawLimitCoins: null,
      excludedUntil: standing.excludedUntil ? new Date(standing.excludedUntil) : null,
    },
    standing.usedJpy,
    pack.priceJpy,
  );
  if (self?.code === 'SELF_EXCLUDED') throw new PurchaseRefused(self.code, self.details);
  if (!standing.declared) {
    throw new PurchaseRefused('AGE_DECLARATION_REQUIRED');
  }
  if (!pack.available) {
    throw new PurchaseRefused('FIRST_PURCHASE_ONLY');
  }
  if (pack.priceJpy > standing.remainingJpy) {
    const details = { capJpy: standing.capJpy, usedJpy: standing.usedJpy, remainingJpy: standing.remainingJpy };
    throw new PurchaseRefused(standing.declaredMinor ? 'MINOR_CAP_EXCEEDED' : 'MONTHLY_CAP_EXCEEDED', details);
  }
  if (self) throw new PurchaseRefused(self.code, self.details);
  return {
    pack,
    method: input.method,
    priceJpy: pack.priceJpy,
    paidCoins: pack.paidCoins,
    bonusCoins: pack.bonusCoins,
    rankBonusPercent: standing.rank.bonusPercent,
    rankBonusCoins: pack.rankBonusCoins,
    totalCoins: pack.totalCoins,
    paidCoinDays: rules.paidCoinDays,
    freeCoinDays: rules.freeCoinDays,
    standing,
    endsFirstPurchaseOffer: !pack.firstPurchaseOnly && packs.some((p) => p.firstPurchaseOnly && p.available),
  };
}

// ---------------------------------------------------------------------------------------------
// Orders

export interface OrderView {
  id: string;
  receiptNo: string;
  status: OrderStatus;
  method: PaymentMethod;
  methodLabel: string;
  channel: 'web' | 'app';
  coinPackId: string;
  packName: string;
  amountJpy: number;
  paidCoins: number;
  bonusCoins: number;
  rankBonusCoins: number;
  createdAt: string;
  creditedAt: string | null;
  failureReason: string | null;
  refundedJpy: number;
  /** The GA4 purchase event's label (specification section 9). */
  analyticsLabel: string;
  /** The draw this purchase was made for (see StartCheckoutInput.drawContext), or null. */
  drawContext: DrawContext | null;
}

const toOrderView = (o: typeof paymentOrders.$inferSelect): OrderView => ({
  id: o.id,
  receiptNo: o.receiptNo,
  status: o.status,
  method: o.method as PaymentMethod,
  methodLabel: isPaymentMethod(o.method) ? PAYMENT_METHOD_INFO[o.method].label : o.method,
  channel: o.channel === 'app' ? 'app' : 'web',
  coinPackId: o.coinPackId,
  packName: o.packName,
  amountJpy: o.amountJpy,
  paidCoins: o.paidCoins,
  bonusCoins: o.bonusCoins,
  rankBonusCoins: o.rankBonusCoins,
  createdAt: o.createdAt.toISOString(),
  creditedAt: o.creditedAt?.toISOString() ?? null,
  failureReason: o.failureReason,
  refundedJpy: o.refundedJpy,
  analyticsLabel: purchaseEventLabel(o.bonusCoins + o.rankBonusCoins),
  drawContext: o.drawGachaId && o.drawCount ? { gachaId: o.drawGachaId, count: o.drawCount } : null,
});

/** Japanese status words for history rows and the return page. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: '決済待ち',
  paid: '購入完了',
  failed: '決済失敗',
  canceled: 'キャンセル',
  expired: '期限切れ',
  refunded: '返金済み',
  charged_back: 'チャージバック',
  review: '確認中',
};

function newReceiptNo(now: Date) {
  const day = format(new TZDate(now, TOKYO), 'yyyyMMdd');
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  let tail = '';
  for (const b of bytes) tail += alphabet[b % alphabet.length];
  return `R${day}-${tail}`;
}

/**
 * The draw a member was short of coins for when they came to the shop: the pack's id and the count.
 * The payments module stores it as given (its shape only is checked here); the shop's pages check
 * that the pack exists and offers the count, since packs belong to the gacha module.
 */
export interface DrawContext {
  gachaId: string;
  count: number;
}

// ---------------------------------------------------------------------------------------------
// Inputs: one schema each, read by the checkout page's form and the API's createPurchase alike.

/** A coin pack's id as the shop hands it out (`coin-1000`). */
export const coinPackIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'コインパックの指定が正しくありません。')
  .meta({ description: 'コインパックのID（例: coin-1000）' });

/** A purchase request: the coin pack, the payment method and where the member pays (web or the app's web view). */
export const purchaseRequestSchema = z.object({
  packId: coinPackIdSchema,
  method: z.enum(PAYMENT_METHODS),
  channel: z.enum(['web', 'app']).default('app'),
});
export type PurchaseRequest = z.output<typeof purchaseRequestSchema>;

/** The largest price or coin total a confirmation screen can show back (nine digits). */
export const MAX_SHOWN_AMOUNT = 999_999_999;

/** What a member reads when the confirmation screen's own fields come back altered or stale. */
export const CHECKOUT_FORM_INVALID_MESSAGE = 'この購入手続きは無効です。コインショップからやり直してください。';

const shownAmount = z
  .int(CHECKOUT_FORM_INVALID_MESSAGE)
  .min(1, CHECKOUT_FORM_INVALID_MESSAGE)
  .max(MAX_SHOWN_AMOUNT, CHECKOUT_FORM_INVALID_MESSAGE);

/**
 * The confirm button of a checkout: the pack (as a purchase request names it), the order key made
 * when the screen was shown, and the price and coins it showed (see StartCheckoutInput.expected).
 */
export const checkoutConfirmationSchema = purchaseRequestSchema.pick({ packId: true }).extend({
  orderKey: z.string(CHECKOUT_FORM_INVALID_MESSAGE).refine(isUuid, CHECKOUT_FORM_INVALID_MESSAGE),
  expected: z.object({ priceJpy: shownAmount, totalCoins: shownAmount }),
});
export type CheckoutConfirmation = z.output<typeof checkoutConfirmationSchema>;

/** The shape of a carried draw: a catalogue id and a count a draw may ask for. */
export const drawContextSchema = z.object({
  gachaId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  count: z.int().min(1).max(1000),
});

/** @example isDrawContextShape({ gachaId: 'stellar-pokemon-001', count: 10 }) === true; isDrawContextShape({ gachaId: '../x', count: 10 }) === false */
export const isDrawContextShape = (value: unknown): value is DrawContext => drawContextSchema.safeParse(value).success;

export interface StartCheckoutInput {
  memberId: string;
  email?: string | null;
  packId: string;
  method: string;
  channel?: 'web' | 'app';
  /**
   * A key made when the confirmation screen was shown, sent back with the confirm button: a second
   * press (or a retried request) returns the same checkout instead of charging twice.
   */
  orderKey?: string;
  /** The shop's public origin, for return and webhook URLs. */
  origin: string;
  /**
   * What the confirmation screen showed: when the price or the coins differ now (a rank changed at
   * midnight, an operator edited the pack), the member confirms again instead of paying for other terms.
   */
  expected?: { priceJpy: number; totalCoins: number };
  /** The draw the member came to the shop for; kept on the order for the return page (ignored unless well-formed). */
  drawContext?: DrawContext | null;
}

export interface CheckoutStarted {
  orderId: string;
  redirectUrl: string;
  replay: boolean;
}

/**
 * Makes an order from the confirmed quote (caps checked under a lock on the member's profile, so two
 * checkouts at once cannot both pass the cap) and opens the provider's hosted page.
 * @example const { redirectUrl } = await startCheckout(db, gateway, { memberId, packId: 'coin-1000', method: 'sandbox', origin })
 */
export async function startCheckout(
  db: Database,
  gateway: PaymentGateway,
  input: StartCheckoutInput,
  rules: ShopPaymentRules,
  now = new Date(),
): Promise<CheckoutStarted> {
  const orderId = input.orderKey ?? randomUUID();
  const existing = await findOrder(db, orderId);
  if (existing) return replayCheckout(existing, input);

  const channel = input.channel ?? 'web';
  const createdFresh = await db.transaction(async (tx) => {
    const t: Database = tx;
    // The profile row is the member's purchase lock (it exists once the age is declared).
    await t.execute(sql`select 1 from purchase_profiles where member_id = ${input.memberId} for update`);
    const again = await findOrder(t, orderId);
    if (again) return { order: again, fresh: false };
    // Maintenance (docs/decisions/025): read in this transaction, after the member's purchase lock, so a
    // checkout whose order would be written after the switch committed is refused on every instance.
    // A replay of an order already made (above) still answers its checkout: nothing new is sold.
    const closed = await maintenanceRefusal(t);
    if (closed) throw new PurchaseRefused('MAINTENANCE', closed.details);
    const standing = await getPurchaseStanding(t, input.memberId, rules, now);
    // A first-purchase pack waits on an open checkout of another first-purchase pack.
    // Active and inside its sale window, read in this transaction like the maintenance switch above.
    const packs = await listCoinPacks(t, standing, now);
    await refuseOutsideWindow(t, packs, input.packId, now);
    const quote = buildQuote(gateway, input, standing, packs, rules);
    if (
      input.expected &&
      (input.expected.priceJpy !== quote.priceJpy || input.expected.totalCoins !== quote.totalCoins)
    ) {
      throw new PurchaseRefused('QUOTE_CHANGED', { priceJpy: quote.priceJpy, totalCoins: quote.totalCoins });
    }
    if (quote.pack.firstPurchaseOnly) {
      const [open] = await t
        .select({ n: sql<number>`count(*)::int` })
        .from(paymentOrders)
        .where(
          and(
            eq(paymentOrders.memberId, input.memberId),
            eq(paymentOrders.firstPurchaseOnly, true),
            eq(paymentOrders.status, 'pending'),
            gt(paymentOrders.expiresAt, now),
          ),
        );
      if ((open?.n ?? 0) > 0) throw new PurchaseRefused('FIRST_PURCHASE_ONLY', { pendingCheckout: true });
    }
    const [order] = await t
      .insert(paymentOrders)
      .values({
        id: orderId,
        memberId: input.memberId,
        coinPackId: quote.pack.id,
        method: quote.method,
        channel,
        status: 'pending',
        amountJpy: quote.priceJpy,
        paidCoins: quote.paidCoins,
        bonusCoins: quote.bonusCoins,
        rankBonusPercent: quote.rankBonusPercent,
        rankBonusCoins: quote.rankBonusCoins,
        firstPurchaseOnly: quote.pack.firstPurchaseOnly,
        packName: quote.pack.name,
        drawGachaId: isDrawContextShape(input.drawContext) ? input.drawContext.gachaId : null,
        drawCount: isDrawContextShape(input.drawContext) ? input.drawContext.count : null,
        receiptNo: newReceiptNo(now),
        createdAt: now,
        updatedAt: now,
        expiresAt: addMinutes(now, rules.checkoutExpiryMinutes),
      })
      .returning();
    return { order: order!, fresh: true };
  });
  // Another press got there first: its checkout, or (still opening) a request to wait a moment.
  if (!createdFresh.fresh) return replayCheckout(createdFresh.order, input);
  const created = createdFresh.order;

  const provider = gateway.providers[created.method as PaymentMethod]!;
  const info = PAYMENT_METHOD_INFO[created.method as PaymentMethod];
  const returnPath = channel === 'app' ? '/app/return' : info.returnPath;
  const returnUrl = `${input.origin}${returnPath}?order=${created.id}`;
  try {
    const start = await provider.createCheckout({
      orderId: created.id,
      amountJpy: created.amountJpy,
      memberId: input.memberId,
      email: input.email ?? null,
      description: `${created.packName}（コイン${created.paidCoins.toLocaleString('ja-JP')}枚${created.bonusCoins + created.rankBonusCoins > 0 ? ` +ボーナス${(created.bonusCoins + created.rankBonusCoins).toLocaleString('ja-JP')}枚` : ''}）`,
      returnUrl,
      cancelUrl: `${returnUrl}&canceled=1`,
      webhookUrl: `${input.origin}/api/webhooks/${created.method}`,
    });
    await db
      .update(paymentOrders)
      .set({ providerRef: start.providerRef, checkoutUrl: start.redirectUrl, updatedAt: new Date() })
      .where(eq(paymentOrders.id, created.id));
    return { orderId: created.id, redirectUrl: start.redirectUrl, replay: false };
  } catch (error) {
    // Undo our own step: the order never reached the provider, so it frees its place under the cap.
    await db
      .update(paymentOrders)
      .set({ status: 'failed', failureReason: 'provider_unavailable', updatedAt: new Date() })
      .where(
        and(eq(paymentOrders.id, created.id), eq(paymentOrders.status, 'pending'), isNull(paymentOrders.providerRef)),
      );
    throw new PurchaseRefused('PROVIDER_UNAVAILABLE', {
      method: created.method,
      cause: error instanceof Error ? error.message : String(error),
    });
  }
}

const orderKeyConflict = () => new PurchaseRefused('ORDER_KEY_CONFLICT');

/**
 * A second request with an order key that already made an order: the same checkout again when it asks
 * for the same thing (a double press, a retried request); refused when it asks for another pack, method
 * or channel, since answering the first order would make the member pay for what they did not choose.
 */
function replayCheckout(order: typeof paymentOrders.$inferSelect, input: StartCheckoutInput): CheckoutStarted {
  if (order.memberId !== input.memberId) throw orderKeyConflict();
  if (
    order.coinPackId !== input.packId ||
    order.method !== input.method ||
    order.channel !== (input.channel ?? 'web')
  ) {
    throw new PurchaseRefused('IDEMPOTENCY_KEY_REUSED', { orderId: order.id });
  }
  if (order.status === 'pending' && !order.checkoutUrl && order.failureReason === null) {
    throw new PurchaseRefused('CHECKOUT_IN_PROGRESS', { orderId: order.id });
  }
  if (order.status !== 'pending' || !order.checkoutUrl) {
    throw new PurchaseRefused('ORDER_KEY_CONFLICT', { orderId: order.id, status: order.status });
  }
  return { orderId: order.id, redirectUrl: order.checkoutUrl, replay: true };
}

async function findOrder(db: Database, orderId: string) {
  if (!isUuid(orderId)) return undefined;
  const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
  return order;
}

/** One of the member's orders, or null (another member's order is not found, not forbidden). */
export async function getOrder(db: Database, memberId: string, orderId: string): Promise<OrderView | null> {
  const order = await findOrder(db, orderId);
  return order && order.memberId === memberId ? toOrderView(order) : null;
}

/** The purchase history, newest first, paged by creation time. */
export async function listOrders(
  db: Database,
  memberId: string,
  options: { limit?: number; before?: string | null } = {},
): Promise<{ items: OrderView[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const before = options.before ? new Date(options.before) : null;
  const conditions = [
    eq(paymentOrders.memberId, memberId),
    inArray(paymentOrders.status, ['paid', 'refunded', 'charged_back', 'review', 'pending', 'failed']),
  ];
  if (before && !Number.isNaN(before.getTime())) conditions.push(lt(paymentOrders.createdAt, before));
  const rows = await db
    .select()
    .from(paymentOrders)
    .where(and(...conditions))
    .orderBy(desc(paymentOrders.createdAt))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map(toOrderView);
  return { items, nextCursor: rows.length > limit ? items[items.length - 1]!.createdAt : null };
}

// ---------------------------------------------------------------------------------------------
// Confirmation: the return page and the webhook both come here

export type SyncResult = { order: OrderView; credited: boolean };

/**
 * Asks the provider how the order's payment stands (outside any transaction) and applies the answer.
 * Safe to call any number of times, from the return page and the webhook at once: the order row is
 * locked while the answer is applied and the grants carry one key per order.
 */
export async function syncOrder(
  db: Database,
  gateway: PaymentGateway,
  orderId: string,
  options: { returnParams?: URLSearchParams; rules: ShopPaymentRules; now?: Date; eventHint?: string },
): Promise<SyncResult | null> {
  const order = await findOrder(db, orderId);
  if (!order) return null;
  if (isSettled(order)) return { order: toOrderView(order), credited: false };
  const provider = gateway.providers[order.method as PaymentMethod];
  if (!provider || !order.providerRef) return { order: toOrderView(order), credited: false };
  let payment = await provider.fetchPayment(
    { orderId: order.id, providerRef: order.providerRef, amountJpy: order.amountJpy },
    options.returnParams,
  );
  // Amazon Pay keeps a disputed charge "Captured" and has no call that lists a charge's disputes: its
  // verified dispute notification (re-read from Amazon's API when it arrived) is the only word on it.
  // Every other provider's own answer says charged_back itself, so only this one trusts the event.
  if (payment.status === 'paid' && options.eventHint === 'charged_back' && order.method === 'amazonpay') {
    payment = { status: 'charged_back', amountJpy: payment.amountJpy, providerPaymentId: payment.providerPaymentId };
  }
  if ('providerPaymentId' in payment && order.providerRef.startsWith('pending:'))
    await adoptProviderRef(db, order.id, payment.providerPaymentId);
  return applyProviderPayment(db, order.id, payment, options.rules, options.now);
}

/** Records the provider's payment id on an order that had only a placeholder ("pending:<order>"). */
async function adoptProviderRef(db: Database, orderId: string, providerRef: string) {
  await db
    .update(paymentOrders)
    .set({ providerRef, updatedAt: new Date() })
    .where(and(eq(paymentOrders.id, orderId), sql`${paymentOrders.providerRef} like 'pending:%'`));
}

/** Nothing more can happen to these (a refund or chargeback of a paid order still can). */
const isSettled = (o: typeof paymentOrders.$inferSelect) =>
  o.status === 'charged_back' || (o.status === 'refunded' && o.reversedAt !== null && o.refundedJpy >= o.amountJpy);

/**
 * Applies what the provider said, under the order's row lock. Crediting is once per order (the
 * order's credited_at, and the grants' idempotency keys underneath); events may come in any order.
 */
export async function applyProviderPayment(
  db: Database,
  orderId: string,
  payment: ProviderPayment,
  rules: ShopPaymentRules,
  now = new Date(),
): Promise<SyncResult> {
  return db.transaction(async (tx) => {
    const t: Database = tx;
    const [order] = await t.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).for('update');
    if (!order) throw new Error(`order ${orderId} vanished`);
    let credited = false;
    const update: Partial<typeof paymentOrders.$inferInsert> = {};
    switch (payment.status) {
      case 'pending':
        break;
      case 'paid': {
        // Credited already, or a refund/chargeback read meanwhile (this answer is older): nothing to do.
        // An order held for review waits for an operator, whatever the provider says later.
        if (
          order.creditedAt ||
          order.status === 'refunded' ||
          order.status === 'charged_back' ||
          order.status === 'review'
        )
          break;
        update.providerPaymentId = payment.providerPaymentId;
        if (order.status !== 'pending') {
          // Paid after the order was canceled or expired (another tab, a late wallet): the caps and
          // the first-purchase rule are checked again, since the order stopped counting meanwhile.
          const problem = await latePaymentProblem(t, order, rules, now);
          if (problem) {
            update.status = 'review';
            update.failureReason = problem;
            break;
          }
        }
        if (payment.amountJpy !== order.amountJpy) {
          // Money moved, but not the amount we asked for: nothing is credited until an operator looks.
          update.status = 'review';
          update.failureReason = `amount_mismatch:${payment.amountJpy}`;
          break;
        }
        Object.assign(update, await creditOrder(t, order, rules, now));
        credited = true;
        break;
      }
      case 'failed':
      case 'canceled':
        if (order.status === 'pending') {
          update.status = payment.status;
          if (payment.status === 'failed') update.failureReason = payment.reason;
        }
        break;
      case 'refunded':
      case 'charged_back': {
        update.providerPaymentId = payment.providerPaymentId;
        const refunded = payment.status === 'refunded' ? payment.refundedJpy : order.amountJpy;
        update.refundedJpy = Math.max(order.refundedJpy, refunded);
        if (!order.creditedAt) {
          // Refunded before we ever credited (events out of order, or an order held for review): it
          // never will be. A partial refund of a held order leaves it held.
          if (!(payment.status === 'refunded' && refunded < payment.amountJpy)) update.status = payment.status;
          break;
        }
        if (payment.status === 'refunded' && refunded < payment.amountJpy) {
          // A partial refund made at the provider: coins are not guessed at; an operator decides.
          update.status = 'review';
          update.failureReason = `partial_refund:${refunded}`;
          break;
        }
        if (!order.reversedAt) Object.assign(update, await reverseOrder(t, order, payment.status, now));
        update.status = payment.status;
        break;
      }
    }
    if (Object.keys(update).length === 0) return { order: toOrderView(order), credited };
    update.updatedAt = now;
    const [saved] = await t.update(paymentOrders).set(update).where(eq(paymentOrders.id, orderId)).returning();
    return { order: toOrderView(saved!), credited };
  });
}

/** Why a payment that arrived after its order stopped counting cannot be credited as is, or null. */
async function latePaymentProblem(
  t: Database,
  order: typeof paymentOrders.$inferSelect,
  rules: ShopPaymentRules,
  now: Date,
): Promise<string | null> {
  await t.execute(sql`select 1 from purchase_profiles where member_id = ${order.memberId} for update`);
  const [profile] = await t.select().from(purchaseProfiles).where(eq(purchaseProfiles.memberId, order.memberId));
  const cap = profile?.declaredMinor ? rules.minorMonthlyCapJpy : rules.monthlyCapJpy;
  // The month the order was made in is the month it counts against.
  const committed = await monthlyCommittedJpy(t, order.memberId, now, order.createdAt);
  if (committed + order.amountJpy > cap) return 'late_payment_over_cap';
  // The member's own limit or exclusion as it stands when the payment arrives (docs/decisions/035).
  if (purchaseSelfLimitRefusal(await limitsInForce(t, order.memberId, now), committed, order.amountJpy)) {
    return 'late_payment_over_self_limit';
  }
  if (order.firstPurchaseOnly) {
    const [other] = await t
      .select({ n: sql<number>`count(*)::int` })
      .from(paymentOrders)
      .where(and(eq(paymentOrders.memberId, order.memberId), isNotNull(paymentOrders.creditedAt)));
    if ((other?.n ?? 0) > 0) return 'late_payment_first_purchase_used';
  }
  return null;
}

async function creditOrder(t: Database, order: typeof paymentOrders.$inferSelect, rules: ShopPaymentRules, now: Date) {
  const paid = await grantCoins(t, {
    memberId: order.memberId,
    kind: 'paid',
    amount: order.paidCoins,
    reason: 'purchase',
    counterAccount: 'purchase',
    idempotencyKey: `purchase:${order.id}:paid`,
    ref: order.id,
    memo: order.receiptNo,
    now,
    lifetimeDays: { paid: rules.paidCoinDays, free: rules.freeCoinDays },
  });
  const bonus = order.bonusCoins + order.rankBonusCoins;
  const free =
    bonus > 0
      ? await grantCoins(t, {
          memberId: order.memberId,
          kind: 'free',
          amount: bonus,
          reason: 'purchase_bonus',
          counterAccount: 'promotion',
          idempotencyKey: `purchase:${order.id}:bonus`,
          ref: order.id,
          memo: order.receiptNo,
          now,
          lifetimeDays: { paid: rules.paidCoinDays, free: rules.freeCoinDays },
        })
      : null;
  // The mailbox's receipt, in the crediting transaction: once per order (a retried webhook writes nothing more).
  await notifyMember(t, {
    memberId: order.memberId,
    category: 'purchase_complete',
    dedupeKey: `purchase:${order.id}`,
    subject: 'コインの購入が完了しました',
    body: [
      `「${order.packName}」のご購入ありがとうございます（受付番号 ${order.receiptNo}）。`,
      `${order.paidCoins.toLocaleString('ja-JP')}コイン${bonus > 0 ? `と、ボーナス${bonus.toLocaleString('ja-JP')}コイン（無償コイン）` : ''}をお届けしました。`,
      `お支払い金額: ${yen(order.amountJpy)}`,
    ].join('\n'),
    sendAt: now,
  });
  return {
    status: 'paid' as const,
    creditedAt: now,
    paidGrantId: paid.grantId,
    bonusGrantId: free?.grantId ?? null,
    failureReason: null,
  };
}

/**
 * Why an order is held for review, in the operators' words.
 * @example reviewReasonText('amount_mismatch:5000') === '支払われた金額が注文と違う（¥5,000）'
 */
export function reviewReasonText(reason: string | null): string {
  if (!reason) return '理由の記録なし';
  const [code, amount] = reason.split(':');
  const money = amount && /^\d+$/.test(amount) ? yen(Number(amount)) : '';
  switch (code) {
    case 'late_payment_over_cap':
      return '期限後に届いた支払いで、月の購入上限を超える';
    case 'late_payment_over_self_limit':
      return '期限後に届いた支払いで、会員ご本人が設定した購入上限または自己除外にかかる';
    case 'late_payment_first_purchase_used':
      return '期限後に届いた支払いで、初回限定パックはすでに購入済み';
    case 'amount_mismatch':
      return `支払われた金額が注文と違う（${money}）`;
    case 'partial_refund':
      return `決済事業者で一部返金された（${money}）`;
    default:
      return reason;
  }
}

/** What an operator may decide on an order held for review, besides refunding it. */
export const REVIEW_DECISIONS = ['credit', 'keep'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/**
 * The decisions an order held for review allows, from why it was held: a payment that arrived late
 * (over the monthly cap, or a first-purchase pack already used) may be credited as it is; a partial
 * refund made at the provider on a credited order may be closed with the coins kept. An amount that
 * did not match is only ever refunded.
 * @example reviewDecisionsFor({ status: 'review', creditedAt: null, failureReason: 'late_payment_over_cap' }) // ['credit']
 */
export function reviewDecisionsFor(order: {
  status: string;
  creditedAt: Date | null;
  failureReason: string | null;
  providerPaymentId?: string | null;
}): ReviewDecision[] {
  if (order.status !== 'review') return [];
  const reason = order.failureReason ?? '';
  if (!order.creditedAt && reason.startsWith('late_payment') && order.providerPaymentId) return ['credit'];
  if (order.creditedAt && reason.startsWith('partial_refund')) return ['keep'];
  return [];
}

/**
 * An operator's decision on an order held for review, under the order's row lock: `credit` grants the
 * order's coins once (the same grants and keys as an ordinary crediting) and marks it paid; `keep`
 * closes a credited order after a partial refund with its coins as they are. Refused when the order
 * is not in review (ORDER_NOT_IN_REVIEW) or the decision does not fit why it was held.
 * @example await decideReviewedOrder(tx, orderId, 'credit', rules)
 */
export async function decideReviewedOrder(
  db: Database,
  orderId: string,
  decision: ReviewDecision,
  rules: ShopPaymentRules,
  now = new Date(),
): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }> {
  return db.transaction(async (tx) => {
    const t: Database = tx;
    const [order] = isUuid(orderId)
      ? await t.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).for('update')
      : [];
    if (!order) throw new PurchaseRefused('ORDER_NOT_FOUND', { orderId });
    if (order.status !== 'review') throw new PurchaseRefused('ORDER_NOT_IN_REVIEW', { status: order.status });
    if (!reviewDecisionsFor(order).includes(decision))
      throw new PurchaseRefused('REVIEW_DECISION_NOT_ALLOWED', { decision, reason: order.failureReason });
    const before = { status: order.status, failureReason: order.failureReason, creditedAt: order.creditedAt };
    const update =
      decision === 'credit'
        ? await creditOrder(t, order, rules, now)
        : { status: 'paid' as const, failureReason: order.failureReason };
    await t
      .update(paymentOrders)
      .set({ ...update, updatedAt: now })
      .where(eq(paymentOrders.id, orderId));
    return {
      before,
      after: { status: update.status, decision, creditedAt: decision === 'credit' ? now : order.creditedAt },
    };
  });
}

/**
 * Takes back what is left of the order's coins (decision 008). Coins already spent stay spent: the
 * shortfall is recorded on the order and, for a chargeback, the member's purchases are held until
 * an operator settles it.
 */
async function reverseOrder(
  t: Database,
  order: typeof paymentOrders.$inferSelect,
  kind: 'refunded' | 'charged_back',
  now: Date,
) {
  const revoke = async (grantId: number | null, part: string) => {
    if (!grantId) return 0;
    const result = await t.execute(
      sql`select wallet_revoke_grant(${grantId}::bigint, 'purchase_reversal', 'purchase', ${`reversal:${order.id}:${part}`}::text, ${order.id}::text, ${now.toISOString()}::timestamptz) as r`,
    );
    return Number(rowsOf<{ r: { revoked: number } }>(result)[0]!.r.revoked);
  };
  const reversedPaid = await revoke(order.paidGrantId, 'paid');
  const reversedFree = await revoke(order.bonusGrantId, 'bonus');
  const unrecovered = order.paidCoins + order.bonusCoins + order.rankBonusCoins - reversedPaid - reversedFree;
  if (kind === 'charged_back' && unrecovered > 0) {
    await t
      .insert(purchaseProfiles)
      .values({ memberId: order.memberId, declaredMinor: false, holdReason: `chargeback:${order.id}`, holdAt: now })
      .onConflictDoUpdate({
        target: purchaseProfiles.memberId,
        set: { holdReason: `chargeback:${order.id}`, holdAt: now },
      });
  }
  await notifyMember(t, {
    memberId: order.memberId,
    category: 'purchase_reversed',
    dedupeKey: `purchase-reversed:${order.id}`,
    subject: kind === 'refunded' ? 'コインの購入を返金しました' : 'コインの購入が取り消されました',
    body: [
      `「${order.packName}」のご購入（受付番号 ${order.receiptNo}）は、${kind === 'refunded' ? '返金' : '決済事業者によるチャージバック'}により取り消されました。`,
      `残っていたコイン ${(reversedPaid + reversedFree).toLocaleString('ja-JP')}コインを取り消しました。`,
      kind === 'charged_back' && unrecovered > 0
        ? 'すでに使われたコインがあるため、確認が済むまでコインの購入をお止めしています。お問い合わせください。'
        : '',
    ].join('\n'),
    sendAt: now,
  });
  return { reversedPaid, reversedFree, unrecoveredCoins: unrecovered, reversedAt: now };
}

// ---------------------------------------------------------------------------------------------
// Webhooks: verify, store once, queue; a worker processes (the table is the queue)

/**
 * Verifies a webhook and stores each event once. Throws WebhookRejected (4xx) for anything the
 * provider's signature does not prove; nothing is stored then.
 * @example const { stored } = await receiveWebhook(db, gateway, 'stripe', { headers, rawBody })
 */
export async function receiveWebhook(
  db: Database,
  gateway: PaymentGateway,
  method: string,
  request: WebhookRequest,
): Promise<{ stored: number[]; duplicates: number; reply?: { status: number; json: unknown } }> {
  const provider = isPaymentMethod(method) ? gateway.providers[method] : undefined;
  if (!provider) throw new WebhookRejected('unknown payment provider', 404);
  const events = await provider.verifyWebhook(request);
  const stored: number[] = [];
  let duplicates = 0;
  for (const event of events) {
    const orderId = event.orderId && /^[0-9a-f-]{36}$/i.test(event.orderId) ? event.orderId : null;
    const [row] = await db
      .insert(paymentEvents)
      .values({
        provider: method,
        eventId: withoutNul(event.eventId).slice(0, 255),
        type: withoutNul(event.type).slice(0, 100),
        orderId,
        providerRef: event.providerRef === null ? null : withoutNul(event.providerRef).slice(0, 255),
        hint: event.hint,
        payload: safeJson(request.rawBody),
      })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (row) stored.push(row.id);
    else duplicates += 1;
  }
  // A provider that waits for our answer before it takes the money (Merpay's confirm callback) hears
  // yes only for an order that may still be paid: pending, not expired, its member not on hold.
  const first = events[0];
  if (!first?.reply) return { stored, duplicates };
  const payable = first.reply.status < 300 && first.orderId ? await orderIsPayable(db, method, first.orderId) : false;
  return {
    stored,
    duplicates,
    reply: payable
      ? first.reply
      : {
          status: 409,
          json: { error: { code: 'ORDER_NOT_PAYABLE', message: 'このご注文はお支払いを受け付けていません。' } },
        },
  };
}

/** PostgreSQL text and jsonb cannot hold U+0000: a body carrying one is stored without it. */
const withoutNul = (text: string) => text.replaceAll('\u0000', '');

async function orderIsPayable(db: Database, method: string, orderId: string, now = new Date()): Promise<boolean> {
  const order = await findOrder(db, orderId);
  if (!order || order.method !== method || order.status !== 'pending' || order.expiresAt <= now) return false;
  const [profile] = await db
    .select({ hold: purchaseProfiles.holdReason })
    .from(purchaseProfiles)
    .where(eq(purchaseProfiles.memberId, order.memberId));
  return !profile?.hold;
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw, (_key, value: unknown) => (typeof value === 'string' ? withoutNul(value) : value));
  } catch {
    return { raw: withoutNul(raw.slice(0, 10_000)) };
  }
}

/**
 * Claims up to `limit` unprocessed events (SKIP LOCKED, a lease of two minutes), and processes each:
 * find its order, sync it with the provider. A failure leaves the event for a later pass.
 * @example await processPaymentEvents(db, gateway) // { processed: 3, failed: 0 }
 */
export async function processPaymentEvents(
  db: Database,
  gateway: PaymentGateway,
  options: { limit?: number; ids?: number[]; rules: ShopPaymentRules },
): Promise<{ processed: number; failed: number }> {
  const limit = options.limit ?? 50;
  const only = options.ids?.length
    ? sql`and id in (${sql.join(
        options.ids.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const claimed = rowsOf<{
    id: number | string;
    provider: string;
    order_id: string | null;
    provider_ref: string | null;
    hint: string;
    attempts: number;
  }>(
    await db.execute(sql`
    update payment_events set locked_until = now() + interval '2 minutes', attempts = attempts + 1
     where id in (select id from payment_events
                   where processed_at is null and (locked_until is null or locked_until < now()) and attempts < 20 ${only}
                   order by id limit ${limit} for update skip locked)
    returning id, provider, order_id, provider_ref, hint, attempts`),
  );
  let processed = 0;
  let failed = 0;
  for (const event of claimed) {
    const id = Number(event.id);
    try {
      let orderId = event.order_id;
      if (!orderId && event.provider_ref) {
        const [order] = await db
          .select({ id: paymentOrders.id })
          .from(paymentOrders)
          .where(and(eq(paymentOrders.method, event.provider), eq(paymentOrders.providerRef, event.provider_ref)));
        orderId = order?.id ?? null;
      }
      const order = orderId ? await findOrder(db, orderId) : undefined;
      let outcome = 'unknown_order';
      if (order && order.method === event.provider) {
        // Some providers name the payment only after the member paid (Paidy's widget): the verified
        // event tells us its id, as the return page's parameters would.
        if (event.provider_ref && order.providerRef?.startsWith('pending:'))
          await adoptProviderRef(db, order.id, event.provider_ref);
        const result = await syncOrder(db, gateway, order.id, { rules: options.rules, eventHint: event.hint });
        outcome = result ? `${result.order.status}${result.credited ? ':credited' : ''}` : 'unknown_order';
      }
      await db
        .update(paymentEvents)
        .set({ processedAt: new Date(), outcome, lockedUntil: null, lastError: null })
        .where(eq(paymentEvents.id, id));
      processed += 1;
    } catch (error) {
      failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      // Back off: the lease is stretched with the attempts so a provider outage is not hammered.
      await db
        .update(paymentEvents)
        .set({
          lastError: message.slice(0, 1000),
          lockedUntil: sql`now() + make_interval(secs => least(3600, 15 * power(2, ${Math.min(event.attempts, 8)})))`,
        })
        .where(eq(paymentEvents.id, id));
    }
  }
  return { processed, failed };
}

/**
 * Checkouts left open past their time: asked once more (a late payment is still credited), then
 * canceled at the provider and expired, which frees their amount under the cap.
 */
export async function expireStaleOrders(
  db: Database,
  gateway: PaymentGateway,
  rules: ShopPaymentRules,
  now = new Date(),
  limit = 100,
): Promise<number> {
  const stale = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.status, 'pending'), lte(paymentOrders.expiresAt, now)))
    .orderBy(asc(paymentOrders.expiresAt))
    .limit(limit);
  let expired = 0;
  for (const order of stale) {
    const provider = gateway.providers[order.method as PaymentMethod];
    if (provider && order.providerRef) {
      const ref = { orderId: order.id, providerRef: order.providerRef, amountJpy: order.amountJpy };
      // Expired only when the provider says it is still unpaid and the cancel went through; any
      // doubt leaves the order for the next pass (a payment is never written off by our guess).
      const payment = await provider.fetchPayment(ref).catch(() => null);
      if (!payment) continue;
      if (payment.status !== 'pending') {
        await applyProviderPayment(db, order.id, payment, rules, now);
        continue;
      }
      const canceled = await provider.cancel(ref).then(
        () => true,
        () => false,
      );
      if (!canceled) continue;
    }
    const rows = await db
      .update(paymentOrders)
      .set({ status: 'expired', updatedAt: now })
      .where(and(eq(paymentOrders.id, order.id), eq(paymentOrders.status, 'pending')))
      .returning({ id: paymentOrders.id });
    expired += rows.length;
  }
  return expired;
}

/**
 * The member pressed cancel on the provider's page: ask the provider once more (a payment that went
 * through is credited, not canceled), otherwise cancel it there and here, which frees its place under
 * the monthly cap at once instead of at expiry.
 */
export async function cancelPendingOrder(
  db: Database,
  gateway: PaymentGateway,
  memberId: string,
  orderId: string,
  rules: ShopPaymentRules,
): Promise<OrderView | null> {
  const order = await findOrder(db, orderId);
  if (!order || order.memberId !== memberId) return null;
  if (order.status !== 'pending') return toOrderView(order);
  const provider = gateway.providers[order.method as PaymentMethod];
  if (provider && order.providerRef) {
    const ref = { orderId: order.id, providerRef: order.providerRef, amountJpy: order.amountJpy };
    const payment = await provider.fetchPayment(ref);
    if (payment.status !== 'pending') return (await applyProviderPayment(db, order.id, payment, rules)).order;
    await provider.cancel(ref);
  }
  const [saved] = await db
    .update(paymentOrders)
    .set({ status: 'canceled', updatedAt: new Date() })
    .where(and(eq(paymentOrders.id, order.id), eq(paymentOrders.status, 'pending')))
    .returning();
  return toOrderView(saved ?? (await findOrder(db, order.id))!);
}

/**
 * Paid orders asked again, a batch at a time, the least recently checked first: some providers send
 * no event for a refund made in their own dashboard (PayPay), so a refund there reaches the coins
 * only through this. Orders credited within `days` are checked; each check moves `updated_at`.
 */
export async function reconcilePaidOrders(
  db: Database,
  gateway: PaymentGateway,
  options: { methods: string[]; days?: number; limit?: number; rules: ShopPaymentRules; now?: Date },
): Promise<number> {
  const now = options.now ?? new Date();
  if (options.methods.length === 0) return 0;
  const since = new Date(now.getTime() - (options.days ?? 90) * 86_400_000);
  const stale = new Date(now.getTime() - 6 * 3_600_000);
  const due = await db
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(
      and(
        inArray(paymentOrders.status, ['paid', 'review']),
        inArray(paymentOrders.method, options.methods),
        gte(paymentOrders.creditedAt, since),
        lt(paymentOrders.updatedAt, stale),
      ),
    )
    .orderBy(asc(paymentOrders.updatedAt))
    .limit(options.limit ?? 100);
  let checked = 0;
  for (const { id } of due) {
    try {
      await syncOrder(db, gateway, id, { rules: options.rules, now });
    } catch {
      // The provider did not answer: the next pass asks again.
    }
    await db
      .update(paymentOrders)
      .set({ updatedAt: now })
      .where(and(eq(paymentOrders.id, id), inArray(paymentOrders.status, ['paid', 'review'])));
    checked += 1;
  }
  return checked;
}

/**
 * An operator refund's half at the provider, outside any transaction: checks that the order can be
 * refunded, refunds what the provider still holds, and answers the order as it was and the payment to
 * apply (with applyProviderPayment, in the caller's transaction: the admin action records its audit
 * entry there).
 * @example const { payment } = await refundAtProvider(db, gateway, orderId, 'お客様都合')
 */
export async function refundAtProvider(
  db: Database,
  gateway: PaymentGateway,
  orderId: string,
  reason: string,
): Promise<{ before: OrderView; payment: ProviderPayment }> {
  const order = await findOrder(db, orderId);
  if (!order) throw new PurchaseRefused('ORDER_NOT_FOUND', { orderId });
  // Paid and credited, or paid and held for review (an amount that disagreed, a late payment over the cap).
  if (!(order.creditedAt || order.status === 'review') || !order.providerPaymentId || !order.providerRef) {
    throw new PurchaseRefused('ORDER_NOT_REFUNDABLE', { orderId, status: order.status });
  }
  const provider = gateway.providers[order.method as PaymentMethod];
  if (!provider) throw new PurchaseRefused('PROVIDER_NOT_CONFIGURED', { method: order.method });
  const ref = {
    orderId: order.id,
    providerRef: order.providerRef,
    amountJpy: order.amountJpy,
    providerPaymentId: order.providerPaymentId,
  };
  // What the provider holds decides the amount (for review orders it may differ from the order's).
  const payment = await provider.fetchPayment(ref);
  const held =
    payment.status === 'paid'
      ? payment.amountJpy
      : payment.status === 'refunded'
        ? payment.amountJpy - payment.refundedJpy
        : 0;
  if (held <= 0) {
    // Nothing left to refund there: the provider's answer is applied as a sync would apply it.
    if ('providerPaymentId' in payment && order.providerRef.startsWith('pending:'))
      await adoptProviderRef(db, order.id, payment.providerPaymentId);
    return { before: toOrderView(order), payment };
  }
  await provider.refund(ref, held, reason);
  // The provider accepted the refund: that is the evidence (some providers list refunds apart from the
  // payment, or late), so the order is refunded now; a later read can only agree.
  const paid = payment.status === 'paid' || payment.status === 'refunded' ? payment : null;
  return {
    before: toOrderView(order),
    payment: {
      status: 'refunded',
      amountJpy: paid!.amountJpy,
      refundedJpy: paid!.amountJpy,
      providerPaymentId: paid!.providerPaymentId,
    },
  };
}

/** Operator refund of a whole order: the provider refunds, then the coins are reversed as for any refund. */
export async function refundOrder(
  db: Database,
  gateway: PaymentGateway,
  orderId: string,
  reason: string,
  rules: ShopPaymentRules,
): Promise<SyncResult> {
  const { payment } = await refundAtProvider(db, gateway, orderId, reason);
  return applyProviderPayment(db, orderId, payment, rules);
}

// ---------------------------------------------------------------------------------------------
// 資金決済法: unused paid coins at the base dates

export interface UnusedBalanceReport {
  /** The base date (JST), 3/31 or 9/30. */
  baseDate: string;
  /** The instant the balance is taken at: the end of the base date in Japan time. */
  asOf: string;
  /** Paid coins (1 coin = ¥1) issued and not yet used or expired at that instant. */
  unusedPaidCoins: number;
  membersWithBalance: number;
  /** Paid coins issued in the half-year ending at the base date. */
  issuedInPeriod: number;
  /** 資金決済法: a report (and a deposit of half) is due when the unused balance exceeds ¥10,000,000. */
  exceedsThreshold: boolean;
  thresholdJpy: number;
}

export const UNUSED_BALANCE_THRESHOLD_JPY = 10_000_000;

/** The base dates on or before `now` that count: 3/31 and 9/30 (JST). @example baseDateBefore(new Date('2026-11-22')) === '2026-09-30' */
export function baseDateBefore(now: Date): string {
  const jst = new TZDate(now, TOKYO);
  const year = jst.getFullYear();
  const candidates = [`${year}-09-30`, `${year}-03-31`, `${year - 1}-09-30`];
  const today = format(jst, 'yyyy-MM-dd');
  return candidates.find((d) => d <= today)!;
}

/**
 * The unused paid-coin balance at a base date, from the ledger: for every paid grant still valid at
 * the end of that day (JST), the sum of its ledger entries up to then (issue, uses, reversals).
 * @example await unusedPaidBalanceReport(db, '2027-03-31')
 */
export async function unusedPaidBalanceReport(db: Database, baseDate: string): Promise<UnusedBalanceReport> {
  if (!/^\d{4}-(03-31|09-30)$/.test(baseDate))
    throw new RangeError('基準日は3月31日または9月30日です（例: 2027-03-31）。');
  const asOf = new Date(`${baseDate}T23:59:59.999+09:00`);
  const periodStart = baseDate.endsWith('03-31')
    ? new Date(`${Number(baseDate.slice(0, 4)) - 1}-10-01T00:00:00+09:00`)
    : new Date(`${baseDate.slice(0, 4)}-04-01T00:00:00+09:00`);
  const at = asOf.toISOString();
  // Each paid grant alive at the instant: what it credited, less what was spent, revoked or expired
  // from it up to then (all ledger entries against that grant).
  const [row] = rowsOf<{ unused: string; members: string; issued: string }>(
    await db.execute(sql`
    select coalesce(sum(left_over), 0) as unused, count(distinct member_id) filter (where left_over > 0) as members,
           (select coalesce(sum(amount), 0) from coin_ledger where kind = 'paid' and reason = 'purchase' and amount > 0
              and created_at >= ${periodStart.toISOString()}::timestamptz and created_at <= ${at}::timestamptz) as issued
      from (select g.member_id, (select coalesce(sum(e.amount), 0) from coin_ledger e
                                  where e.grant_id = g.id and e.created_at <= ${at}::timestamptz) as left_over
              from coin_grants g
             where g.kind = 'paid' and g.granted_at <= ${at}::timestamptz and g.expires_at > ${at}::timestamptz) alive`),
  );
  const unused = Number(row?.unused ?? 0);
  return {
    baseDate,
    asOf: asOf.toISOString(),
    unusedPaidCoins: unused,
    membersWithBalance: Number(row?.members ?? 0),
    issuedInPeriod: Number(row?.issued ?? 0),
    exceedsThreshold: unused > UNUSED_BALANCE_THRESHOLD_JPY,
    thresholdJpy: UNUSED_BALANCE_THRESHOLD_JPY,
  };
}

/** The coin shop's invariants (see payments_check_invariants in modules/payments/sql/invariants.sql). [] when all hold. */
export async function checkPaymentInvariants(db: Database): Promise<unknown[]> {
  const [row] = rowsOf<{ r: unknown[] }>(await db.execute(sql`select payments_check_invariants() as r`));
  return row?.r ?? [];
}

// ---------------------------------------------------------------------------------------------
// Operators (npm run shop): the coin packs as stored, and orders across members

/** A coin pack as stored (read model for operators; the shop's pages use listCoinPacks). */
export type CoinPackRecord = typeof coinPacks.$inferSelect;
/** What an operator sets on a coin pack (coinpacks:set). */
export type CoinPackDefinition = typeof coinPacks.$inferInsert;
/** An order as stored (read model for operators: ids, amounts, status, credit and reversal records). */
export type PaymentOrderRecord = typeof paymentOrders.$inferSelect;

/** Every coin pack, active or not, in the shop's order. @example for (const pack of await listAllCoinPacks(db)) … */
export async function listAllCoinPacks(db: Database): Promise<CoinPackRecord[]> {
  return db.select().from(coinPacks).orderBy(asc(coinPacks.sortOrder));
}

/**
 * Creates or replaces a coin pack. Orders copy the pack's numbers when they are made, so editing a pack
 * never changes a purchase.
 * @example await saveCoinPack(db, { id: 'coin-500', name: '500コイン', priceJpy: 500, paidCoins: 500, bonusCoins: 0 })
 */
export async function saveCoinPack(db: Database, pack: CoinPackDefinition): Promise<void> {
  await db.insert(coinPacks).values(pack).onConflictDoUpdate({ target: coinPacks.id, set: pack });
}

/**
 * Orders newest first, optionally of one status and/or one member (operators: orders:list).
 * @example const waiting = await listOrdersForOperator(db, { status: 'review', limit: 50 })
 */
export async function listOrdersForOperator(
  db: Database,
  filter: { status?: OrderStatus; memberId?: string; limit: number },
): Promise<PaymentOrderRecord[]> {
  const conditions = [
    ...(filter.status ? [eq(paymentOrders.status, filter.status)] : []),
    ...(filter.memberId ? [eq(paymentOrders.memberId, filter.memberId)] : []),
  ];
  return db
    .select()
    .from(paymentOrders)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(paymentOrders.createdAt))
    .limit(filter.limit);
}

/** Demo and first-run coin packs: ¥500 to ¥100,000. */
export const DEFAULT_COIN_PACKS: (typeof coinPacks.$inferInsert)[] = [
  {
    id: 'first-500',
    name: '初回限定 500コイン',
    priceJpy: 500,
    paidCoins: 500,
    bonusCoins: 500,
    firstPurchaseOnly: true,
    badge: '初回限定',
    sortOrder: 0,
  },
  { id: 'coin-500', name: '500コイン', priceJpy: 500, paidCoins: 500, bonusCoins: 0, sortOrder: 10 },
  { id: 'coin-1000', name: '1,000コイン', priceJpy: 1_000, paidCoins: 1_000, bonusCoins: 10, sortOrder: 20 },
  { id: 'coin-3000', name: '3,000コイン', priceJpy: 3_000, paidCoins: 3_000, bonusCoins: 60, sortOrder: 30 },
  {
    id: 'coin-5000',
    name: '5,000コイン',
    priceJpy: 5_000,
    paidCoins: 5_000,
    bonusCoins: 150,
    badge: '人気',
    sortOrder: 40,
  },
  {
    id: 'coin-10000',
    name: '10,000コイン',
    priceJpy: 10_000,
    paidCoins: 10_000,
    bonusCoins: 400,
    badge: 'おすすめ',
    sortOrder: 50,
  },
  { id: 'coin-30000', name: '30,000コイン', priceJpy: 30_000, paidCoins: 30_000, bonusCoins: 1_500, sortOrder: 60 },
  { id: 'coin-50000', name: '50,000コイン', priceJpy: 50_000, paidCoins: 50_000, bonusCoins: 3_000, sortOrder: 70 },
  {
    id: 'coin-100000',
    name: '100,000コイン',
    priceJpy: 100_000,
    paidCoins: 100_000,
    bonusCoins: 8_000,
    badge: 'お得',
    sortOrder: 80,
  },
];

/** Puts the default coin packs in place when the shop has none (first start); operators edit them later. */
export async function ensureDefaultCoinPacks(db: Database): Promise<number> {
  const [existing] = await db.select({ n: sql<number>`count(*)::int` }).from(coinPacks);
  if ((existing?.n ?? 0) > 0) return 0;
  const rows = await db
    .insert(coinPacks)
    .values(DEFAULT_COIN_PACKS)
    .onConflictDoNothing()
    .returning({ id: coinPacks.id });
  return rows.length;
}
export { spendVelocitySince, chargebacksSince, type SpendVelocity, type ChargebackSighting } from './risk-feed';
export { firstPurchasesOf, creditedPurchasesSince } from './referral-feed';
export { redactPaymentEventsOf } from './erasure';
export { openCheckoutIds, openCheckoutOf, openFirstPurchaseCheckoutOf, type OpenCheckoutView } from './open-checkouts';
