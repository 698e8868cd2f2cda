// Starting a purchase: one input schema, read by the checkout page's form and the API's createPurchase
// alike; the order is written, then the provider is asked, outside any transaction.
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { addMinutes } from 'date-fns';
import { z } from 'zod';
import type { Database } from '#db/client';
import { isUuid } from '#modules/kernel';
import { maintenanceRefusal, salesStopRefusal } from '#modules/shop';
import { paymentOrders } from './schema';
import { PAYMENT_METHODS, PAYMENT_METHOD_INFO, type PaymentMethod } from './methods';
import { type DrawContext, type OrderView, newReceiptNo, toOrderView } from './orders';
import { buildQuote, getPurchaseStanding, listCoinPacks, refuseOutsideWindow } from './packs';
import { type PaymentGateway, PurchaseRefused, type ShopPaymentRules, reportOutcome } from './rules';

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
    // The closure (decision 085): no coin is sold after the sales stop, read here for the same reason.
    const stopped = await salesStopRefusal(t);
    if (stopped) throw new PurchaseRefused('SALES_STOPPED', stopped.details);
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
    reportOutcome(rules, created.method, 'checkout_started');
    return { orderId: created.id, redirectUrl: start.redirectUrl, replay: false };
  } catch (error) {
    // Undo our own step: the order never reached the provider, so it frees its place under the cap.
    await db
      .update(paymentOrders)
      .set({ status: 'failed', failureReason: 'provider_unavailable', updatedAt: new Date() })
      .where(
        and(eq(paymentOrders.id, created.id), eq(paymentOrders.status, 'pending'), isNull(paymentOrders.providerRef)),
      );
    reportOutcome(rules, created.method, 'checkout_failed');
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

export async function findOrder(db: Database, orderId: string) {
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
