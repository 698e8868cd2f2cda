// Coin packs and the member's standing: which packs a member may buy now (first-purchase offers, sale
// windows, monthly caps, self-limits), and the quote a purchase is made from.
import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { currentRank, rankBonusCoins } from '#modules/progression';
import { windowPhase } from '#modules/kernel';
import { salesStopRefusal } from '#modules/shop';
import { limitsInForce, purchaseSelfLimitRefusal } from '#modules/limits';
import { coinPacks, paymentOrders, purchaseProfiles } from './schema';
import { isPaymentMethod, type PaymentMethod } from './methods';
import { type PaymentGateway, PurchaseRefused, type ShopPaymentRules, monthStartJst } from './rules';

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
export async function monthlyCommittedJpy(
  db: Database,
  memberId: string,
  now: Date,
  monthOf: Date = now,
): Promise<number> {
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
  // After the closure's sales stop nothing is on sale (decision 085); the checkout refuses SALES_STOPPED too.
  if (await salesStopRefusal(db)) return [];
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
export async function refuseOutsideWindow(
  db: Database,
  onSale: CoinPackView[],
  packId: string,
  now: Date,
): Promise<void> {
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

export function buildQuote(
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
