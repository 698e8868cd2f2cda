// The operators' actions on the shop's data (packs, coins, coin packs, orders, members): each runs
// through runAdminAction, so the change and its audit entry commit together or not at all. The
// command line (scripts/shop) and the admin pages call these same functions with their Operator.
// Here: packs, stock, genres, coin packs and maintenance; orders: order-operations.ts; members' accounts:
// member-operations.ts (coin adjustments with approval: coin-adjustments.ts).
import type { Database } from '#db/client';
import type { Refusal } from '#modules/kernel';
import {
  adjustStock,
  createPack,
  endPack,
  publishPack,
  receiveStock,
  saveGenre,
  type GenreForm,
  type PackDefinition,
  type PublishRequirements,
  type StockAdjustment,
  type StockCardView,
  type StockReceipt,
  type BeaconPublishTerms,
} from '#modules/gacha';
import { listAllCoinPacks, saveCoinPack, type CoinPackDefinition } from '#modules/payments';
import { setMaintenance, type MaintenanceSetting, type MaintenanceState } from '#modules/shop';
import { runAdminAction, type Operator } from './audit';

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
  options: { publish: boolean; beacon?: BeaconPublishTerms | null },
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
      const published = await publishPack(tx, created.id, undefined, { beacon: options.beacon });
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

/**
 * Publishes a draft pack (`pack.publish`): its lots and commitment are fixed; the review is in its entry.
 * `requirements`: the pack editor's rules checked under the pack's lock (the graded cards' certificates).
 */
export async function publishPackAsOperator(
  db: Database,
  operator: Operator,
  gachaId: string,
  review?: PublishReview,
  requirements: PublishRequirements = {},
): Promise<OperatorOutcome<Published>> {
  return runAdminAction(db, operator, 'packs:write', async (tx) => {
    const published = await publishPack(tx, gachaId, undefined, requirements);
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
