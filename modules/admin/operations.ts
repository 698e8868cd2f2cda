// The operators' actions on the shop's data (packs, coins, coin packs, orders, members): each runs
// through runAdminAction, so the change and its audit entry commit together or not at all. The
// command line (scripts/shop) and the admin pages call these same functions with their Operator.
import { randomBytes } from 'node:crypto';
import type { Database } from '#db/client';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import {
  adjustStock,
  createPack,
  endPack,
  publishPack,
  receiveStock,
  saveGenre,
  type GenreForm,
  type PackDefinition,
  type StockAdjustment,
  type StockCardView,
  type StockReceipt,
} from '#modules/gacha';
import { grantCoins, type CoinKind, type CoinLifetimes, type GrantResult } from '#modules/wallet';
import {
  applyProviderPayment,
  clearPurchaseHold,
  declareAge,
  decideReviewedOrder,
  type ReviewDecision,
  listAllCoinPacks,
  orderForOperator,
  purchaseProfileOf,
  refundAtProvider,
  saveCoinPack,
  type CoinPackDefinition,
  type OrderView,
  type PaymentGateway,
  type ShopPaymentRules,
} from '#modules/payments';
import { createMemberWithSession } from '#modules/identity';
import { setMaintenance, type MaintenanceSetting, type MaintenanceState } from '#modules/shop';
import { auditTextDigest, runAdminAction, type Operator } from './audit';
import { memberNotes } from './schema';

/** What every operator action answers: its value, or the refusal (nothing changed, nothing recorded). */
export type OperatorOutcome<T> = { ok: true; value: T } | Refusal<string>;

type Published = { commitment: string; totalLots: number; status: string };

/**
 * Creates a pack as a draft (`pack.create`), and with `publish` also publishes it (`pack.publish`) in
 * the same transaction: a pack that cannot be published is not left behind as a draft.
 * @example await createPackAsOperator(db, operator, definition, { publish: true })
 */
export async function createPackAsOperator(
  db: Database,
  operator: Operator,
  definition: PackDefinition,
  options: { publish: boolean },
): Promise<OperatorOutcome<{ id: string; totalLots: number; published: Published | null }>> {
  return runAdminAction<{ id: string; totalLots: number; published: Published | null }>(
    db,
    operator,
    'packs:write',
    async (tx) => {
      const created = await createPack(tx, definition);
      const target = { type: 'gacha', id: created.id };
      const createEntry = {
        action: 'pack.create',
        target,
        after: { title: definition.title, totalLots: created.totalLots, status: 'draft' },
      };
      if (!options.publish) return { value: { ...created, published: null }, audit: createEntry };
      const published = await publishPack(tx, created.id);
      return {
        value: { ...created, published },
        audit: [createEntry, { action: 'pack.publish', target, before: { status: 'draft' }, after: published }],
      };
    },
  );
}

/**
 * What the operator saw and acknowledged in the publish confirmation (issue 28 item 4), kept in the
 * audit entry: the projected margin, the 還元率, and whether a negative margin was acknowledged.
 */
export interface PublishReview {
  marginYen: number;
  marginRate: number | null;
  returnRate: number | null;
  negativeMarginAcknowledged: boolean;
}

/** Publishes a draft pack (`pack.publish`): its lots and commitment are fixed; the review is in its entry. */
export async function publishPackAsOperator(
  db: Database,
  operator: Operator,
  gachaId: string,
  review?: PublishReview,
): Promise<OperatorOutcome<Published>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const published = await publishPack(tx, gachaId);
    return {
      value: published,
      audit: {
        action: 'pack.publish',
        target: { type: 'gacha', id: gachaId },
        before: { status: 'draft' },
        after: review ? { ...published, review } : published,
      },
    };
  });
}

/** Ends a pack's sale (`pack.end`); ending an ended pack changes nothing and records nothing. */
export async function endPackAsOperator(
  db: Database,
  operator: Operator,
  gachaId: string,
): Promise<OperatorOutcome<{ previous: string; status: string }>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const ended = await endPack(tx, gachaId);
    return {
      value: ended,
      audit:
        ended.previous === ended.status
          ? []
          : {
              action: 'pack.end',
              target: { type: 'gacha', id: gachaId },
              before: { status: ended.previous },
              after: { status: ended.status },
            },
    };
  });
}

/**
 * Receives cards into stock (`stock.receive`, one entry per card, all in one transaction): each card's
 * count on hand grows; a card seen for the first time is created with its reference value.
 * @example await receiveStockAsOperator(db, operator, [{ cardName: 'ピカチュウ', cardSet: 'SV4a', count: 3, valueCoins: 12000 }])
 */
export async function receiveStockAsOperator(
  db: Database,
  operator: Operator,
  receipts: StockReceipt[],
): Promise<OperatorOutcome<StockCardView[]>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const received: { before: StockCardView | null; after: StockCardView; count: number }[] = [];
    for (const receipt of receipts) {
      const done = await receiveStock(tx, receipt);
      received.push({ ...done, count: Number(receipt.count) });
    }
    return {
      value: received.map((r) => r.after),
      audit: received.map((r) => ({
        action: 'stock.receive',
        target: { type: 'stock_card', id: r.after.id },
        before: r.before
          ? { onHand: r.before.onHand, reserved: r.before.reserved, valueCoins: r.before.valueCoins }
          : null,
        after: {
          cardName: r.after.cardName,
          onHand: r.after.onHand,
          reserved: r.after.reserved,
          valueCoins: r.after.valueCoins,
          count: r.count,
        },
      })),
    };
  });
}

/**
 * A stocktake (`stock.adjust`): sets a card's count on hand; refused below what is reserved
 * (STOCK_BELOW_RESERVED), with nothing changed and nothing recorded.
 * @example await adjustStockAsOperator(db, operator, { stockCardId, onHand: 4, note: '12月の棚卸し' })
 */
export async function adjustStockAsOperator(
  db: Database,
  operator: Operator,
  adjustment: StockAdjustment,
): Promise<OperatorOutcome<StockCardView>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const { before, after } = await adjustStock(tx, adjustment);
    return {
      value: after,
      audit:
        before.onHand === after.onHand
          ? []
          : {
              action: 'stock.adjust',
              target: { type: 'stock_card', id: after.id },
              before: { onHand: before.onHand, reserved: before.reserved },
              after: {
                cardName: after.cardName,
                onHand: after.onHand,
                reserved: after.reserved,
                note: adjustment.note,
              },
            },
    };
  });
}

export interface OperatorGrantInput {
  memberId: string;
  kind: CoinKind;
  amount: number;
  /** Why (shown to the member in their coin history). */
  memo: string;
  /** The operator's key: a repeat with it credits nothing (and records nothing). */
  key: string;
  lifetimes: CoinLifetimes;
}

/**
 * Grants coins to a member with a reason (`coins.grant`): free coins against promotion, paid ones
 * against adjustment. A key that already credited another grant is refused (GRANT_KEY_REUSED).
 * @example await grantCoinsAsOperator(db, operator, { memberId, kind: 'free', amount: 300, memo: 'お詫び', key: 'apology-1', lifetimes })
 */
export async function grantCoinsAsOperator(
  db: Database,
  operator: Operator,
  input: OperatorGrantInput,
): Promise<OperatorOutcome<GrantResult>> {
  return runAdminAction(db, operator, 'coins:grant', async (tx) => {
    const result = await grantCoins(tx, {
      memberId: input.memberId,
      kind: input.kind,
      amount: input.amount,
      reason: 'operator_grant',
      counterAccount: input.kind === 'paid' ? 'adjustment' : 'promotion',
      idempotencyKey: `ops:${input.key}`,
      memo: input.memo,
      lifetimeDays: input.lifetimes,
    });
    const paidBefore = result.paid - (input.kind === 'paid' ? input.amount : 0);
    const freeBefore = result.free - (input.kind === 'free' ? input.amount : 0);
    return {
      value: result,
      audit: result.replay
        ? []
        : {
            action: 'coins.grant',
            target: { type: 'member', id: input.memberId },
            before: { paid: paidBefore, free: freeBefore },
            after: {
              paid: result.paid,
              free: result.free,
              kind: input.kind,
              amount: input.amount,
              // The memo stays in the ledger (accounting law) and is shown to the member; the log keeps its digest.
              memo: auditTextDigest(input.memo),
              key: input.key,
              grantId: result.grantId,
            },
          },
    };
  });
}

/** Creates or replaces a genre (`genre.set`): name, old ids that redirect to it, icon, order, shown or hidden. */
export async function saveGenreAsOperator(
  db: Database,
  operator: Operator,
  genre: GenreForm,
): Promise<OperatorOutcome<GenreForm>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const { before, after } = await saveGenre(tx, genre);
    return {
      value: after,
      audit: { action: 'genre.set', target: { type: 'genre', id: genre.id }, before, after },
    };
  });
}

/** Creates or replaces a coin pack (`coinpack.set`), with the pack as it was before. */
export async function saveCoinPackAsOperator(
  db: Database,
  operator: Operator,
  pack: CoinPackDefinition,
): Promise<OperatorOutcome<null>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const before = (await listAllCoinPacks(tx)).find((p) => p.id === pack.id) ?? null;
    await saveCoinPack(tx, pack);
    return {
      value: null,
      audit: { action: 'coinpack.set', target: { type: 'coin_pack', id: pack.id }, before, after: pack },
    };
  });
}

/**
 * Refunds a whole order (`order.refund`). The permission is checked first; the provider refunds
 * outside any transaction (a network call must not hold the database), then the coins are reversed
 * and the entry recorded together. If that last step fails, the provider's refund stands and the
 * reconciliation job applies it later, without an entry: the log shows it from the provider's side.
 * The reason is kept as a staff note on the member; the entry keeps its digest (decision 053).
 * @example await refundOrderAsOperator(db, operator, { gateway, rules, orderId, reason: 'お客様都合' })
 */
export async function refundOrderAsOperator(
  db: Database,
  operator: Operator,
  input: { gateway: PaymentGateway; rules: ShopPaymentRules; orderId: string; reason: string },
): Promise<OperatorOutcome<OrderView>> {
  if (!operator.permissions.has('orders:refund')) return refuse('PERMISSION_DENIED', { permission: 'orders:refund' });
  let refunded: Awaited<ReturnType<typeof refundAtProvider>>;
  try {
    refunded = await refundAtProvider(db, input.gateway, input.orderId, input.reason);
  } catch (error) {
    if (error instanceof RefusalError) return error.refusal;
    throw error;
  }
  return runAdminAction(db, operator, 'orders:refund', async (tx) => {
    const { order } = await applyProviderPayment(tx, input.orderId, refunded.payment, input.rules);
    return {
      value: order,
      audit: {
        action: 'order.refund',
        target: { type: 'payment_order', id: input.orderId },
        before: { status: refunded.before.status, refundedJpy: refunded.before.refundedJpy },
        after: {
          status: order.status,
          refundedJpy: order.refundedJpy,
          reason: auditTextDigest(input.reason),
          noteId: await noteOnOrderMember(
            tx,
            operator,
            input.orderId,
            (receiptNo) => `注文 ${receiptNo} の返金の理由: ${input.reason}`,
          ),
        },
      },
    };
  });
}

/**
 * Keeps an order action's reason as a staff note on the order's member (its own row, which 退会 redacts);
 * the audit entry keeps the reason's digest and the note's id (decision 053). Null without the order.
 */
async function noteOnOrderMember(
  tx: Database,
  operator: Operator,
  orderId: string,
  text: (receiptNo: string) => string,
): Promise<number | null> {
  const shown = await orderForOperator(tx, orderId);
  if (!shown) return null;
  const [note] = await tx
    .insert(memberNotes)
    .values({
      memberId: shown.order.memberId,
      authorId: operator.memberId,
      authorLabel: operator.label,
      text: text(shown.order.receiptNo),
    })
    .returning({ id: memberNotes.id });
  return note!.id;
}

/**
 * An operator's decision on an order held for review (`order.review.credit` / `order.review.keep`),
 * with the reason as a staff note on the member and its digest in the entry: the payments module
 * decides under the order's row lock.
 * @example await decideReviewedOrderAsOperator(db, operator, { orderId, decision: 'credit', reason: '本人確認済み', rules })
 */
export async function decideReviewedOrderAsOperator(
  db: Database,
  operator: Operator,
  input: { orderId: string; decision: ReviewDecision; reason: string; rules: ShopPaymentRules },
): Promise<OperatorOutcome<null>> {
  return runAdminAction(db, operator, 'orders:refund', async (tx) => {
    const { before, after } = await decideReviewedOrder(tx, input.orderId, input.decision, input.rules);
    return {
      value: null,
      audit: {
        action: `order.review.${input.decision}`,
        target: { type: 'payment_order', id: input.orderId },
        before,
        after: {
          ...after,
          reason: auditTextDigest(input.reason),
          noteId: await noteOnOrderMember(
            tx,
            operator,
            input.orderId,
            (receiptNo) => `注文 ${receiptNo} の審査（${input.decision}）の理由: ${input.reason}`,
          ),
        },
      },
    };
  });
}

/** Corrects a member's age declaration (`member.age`); members cannot change it themselves. */
export async function declareAgeAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
  minor: boolean,
): Promise<OperatorOutcome<{ declaredMinor: boolean }>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    const before = await purchaseProfileOf(tx, memberId);
    const result = await declareAge(tx, memberId, minor, { byOperator: true });
    return {
      value: result,
      audit: {
        action: 'member.age',
        target: { type: 'member', id: memberId },
        before: { declaredMinor: before?.declaredMinor ?? null },
        after: result,
      },
    };
  });
}

/** Lifts a member's purchase hold (`member.hold.clear`); a member without a hold records nothing. */
export async function clearPurchaseHoldAsOperator(
  db: Database,
  operator: Operator,
  memberId: string,
): Promise<OperatorOutcome<{ cleared: boolean }>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    const before = await purchaseProfileOf(tx, memberId);
    const cleared = await clearPurchaseHold(tx, memberId);
    return {
      value: { cleared },
      audit: cleared
        ? {
            action: 'member.hold.clear',
            target: { type: 'member', id: memberId },
            before: { hold: before?.hold ?? null },
            after: { hold: null },
          }
        : [],
    };
  });
}

/** The members an entry names at most (a benchmark may make 100,000). */
const MEMBERS_NAMED_IN_ENTRY = 100;

/**
 * Members with a signed-in session and paid coins, for benchmarks and tests (`members.create`, one
 * entry for the batch). Answers each member's id, email and session token.
 * @example await createMembersAsOperator(db, operator, { count: 2, coins: 5000, prefix: 'bench', lifetimes })
 */
export async function createMembersAsOperator(
  db: Database,
  operator: Operator,
  input: { count: number; coins: number; prefix: string; lifetimes: CoinLifetimes },
): Promise<OperatorOutcome<{ id: string; email: string; token: string }[]>> {
  return runAdminAction(db, operator, 'members:write', async (tx) => {
    const created: { id: string; email: string; token: string }[] = [];
    const sessionExpiresAt = new Date(Date.now() + 7 * 86_400_000);
    for (let i = 0; i < input.count; i++) {
      const id = `${input.prefix}-${randomBytes(8).toString('hex')}`;
      const email = `${id}@example.invalid`;
      const token = randomBytes(24).toString('base64url');
      await createMemberWithSession(tx, {
        id,
        name: `${input.prefix}${i + 1}`,
        email,
        sessionToken: token,
        sessionExpiresAt,
      });
      if (input.coins > 0) {
        await grantCoins(tx, {
          lifetimeDays: input.lifetimes,
          memberId: id,
          kind: 'paid',
          amount: input.coins,
          reason: 'operator_grant',
          counterAccount: 'adjustment',
          idempotencyKey: `ops:members:${id}`,
          memo: 'ベンチマーク・テスト用',
        });
      }
      created.push({ id, email, token });
    }
    return {
      value: created,
      audit: {
        action: 'members.create',
        target: { type: 'member', id: created.length === 1 ? created[0]!.id : null },
        after: {
          count: created.length,
          coins: input.coins,
          prefix: input.prefix,
          members: created.slice(0, MEMBERS_NAMED_IN_ENTRY).map((m) => m.id),
        },
      },
    };
  });
}

/**
 * Switches maintenance mode on or off (`shop.maintenance.on` / `shop.maintenance.off`, `shop:write`),
 * recording the switch before and after in the same transaction. The caller refreshes its instance's
 * cache afterwards; the others see it within MAINTENANCE_CACHE_SECONDS (docs/decisions/025).
 * @example await setMaintenanceAsOperator(db, operator, { on: true, message: null, endsAt: null })
 */
export async function setMaintenanceAsOperator(
  db: Database,
  operator: Operator,
  setting: MaintenanceSetting,
): Promise<OperatorOutcome<MaintenanceState>> {
  return runAdminAction(db, operator, 'shop:write', async (tx) => {
    const { before, after } = await setMaintenance(tx, setting, operator.label);
    const view = (state: MaintenanceState) => ({
      on: state.on,
      message: state.customMessage,
      endsAt: state.endsAt ? state.endsAt.toISOString() : null,
    });
    return {
      value: after,
      audit: {
        action: setting.on ? 'shop.maintenance.on' : 'shop.maintenance.off',
        target: { type: 'shop', id: 'maintenance' },
        before: view(before),
        after: view(after),
      },
    };
  });
}
