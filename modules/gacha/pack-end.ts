// The end of a pack's sale: an operator's end, or the job at its end date; the job also opens scheduled packs.
// A beacon pack (decision 081) whose draws still wait for their round keeps its stock promised until the last
// one is settled.
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { gachas, gachaLots, type GachaStatus } from './schema';
import { PackAdminError } from './admin';
import { releaseStockOfEndedPack } from './pack-stock';

/**
 * Ends a pack's sale early (or at its end date): no more draws, and the seed and log become public.
 * Answers the status before and after (an ended pack stays as it was).
 * @example await endPack(db, 'stellar-pokemon-001')
 */
export async function endPack(
  db: Database,
  gachaId: string,
  now = new Date(),
): Promise<{ previous: GachaStatus; status: GachaStatus }> {
  return db.transaction(async (tx) => {
    // The pack row lock waits for any draw at the end of the pack; draws read the status per call.
    const [pack] = await tx
      .select({ status: gachas.status, drawMode: gachas.drawMode })
      .from(gachas)
      .where(eq(gachas.id, gachaId))
      .for('no key update');
    if (!pack) throw new PackAdminError('GACHA_NOT_FOUND', { gachaId });
    if (pack.status === 'draft') throw new PackAdminError('NOT_PUBLISHED', { gachaId });
    if (pack.status === 'ended') return { previous: pack.status, status: pack.status };
    const status = pack.status === 'sold_out' ? 'sold_out' : 'ended';
    await tx.update(gachas).set({ status, endedAt: now }).where(eq(gachas.id, gachaId));
    // Wait for draws holding lots to commit; later ones find a lot locked or the pack ended and
    // retry into a refusal. Then every claim precedes the reveal time.
    await tx.execute(sql`select gacha_lock_unclaimed_lots(${gachaId})`);
    // With the lots locked the unclaimed ones are final: their cards (and the ラストワン賞's) are free again.
    // A beacon pack's receipts still to settle may win any lot that remains: its stock is freed, and the pack
    // revealed, by the settlement of its last receipt (draw_settle_round) — or now, when none is waiting.
    if (pack.drawMode === 'beacon' && (await hasUnsettledReceipts(tx, gachaId)))
      return { previous: pack.status, status };
    if (status === 'ended') await releaseStockOfEndedPack(tx, gachaId, now);
    await tx
      .update(gachas)
      .set({ revealedAt: sql`greatest(${now.toISOString()}::timestamptz, clock_timestamp())` })
      .where(eq(gachas.id, gachaId));
    return { previous: pack.status, status };
  });
}

/** The job that opens scheduled packs and ends packs past their end date. */
export async function advanceSaleWindows(db: Database, now = new Date()): Promise<number> {
  const opened = await db
    .update(gachas)
    .set({ status: 'on_sale' })
    .where(and(eq(gachas.status, 'scheduled'), sql`${gachas.saleStartsAt} <= ${now.toISOString()}::timestamptz`))
    .returning({ id: gachas.id });
  const due = await db
    .select({ id: gachas.id })
    .from(gachas)
    .where(
      and(
        inArray(gachas.status, ['on_sale', 'scheduled']),
        sql`${gachas.saleEndsAt} <= ${now.toISOString()}::timestamptz`,
      ),
    );
  for (const pack of due) await endPack(db, pack.id, now);
  return opened.length + due.length;
}

/**
 * Ends every pack still on sale or scheduled (the shop's closure stopped sales, decision 085): each as an
 * operator's end would (no more draws, the seed and the log public, unsold cards back in stock), so no page
 * offers a draw the shop refuses. Answers how many ended.
 * @example await endEveryPackOnSale(db) // 12
 */
export async function endEveryPackOnSale(db: Database, now = new Date()): Promise<number> {
  const open = await db
    .select({ id: gachas.id })
    .from(gachas)
    .where(inArray(gachas.status, ['on_sale', 'scheduled']));
  for (const pack of open) await endPack(db, pack.id, now);
  return open.length;
}

/** Whether a beacon pack has a slot claimed by a draw not yet settled (it has no tier until then). */
async function hasUnsettledReceipts(tx: Database, gachaId: string): Promise<boolean> {
  const [row] = await tx
    .select({ position: gachaLots.position })
    .from(gachaLots)
    .where(and(eq(gachaLots.gachaId, gachaId), isNotNull(gachaLots.drawId), isNull(gachaLots.tierId)))
    .limit(1);
  return row !== undefined;
}
