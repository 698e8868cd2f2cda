// What the ranking boards (modules/ranking) read from the draws: the completed draws of an instant range
// in order, each with its best prize, a batch at a time (docs/decisions/037). Reads the completed-draws
// index over the range and each draw's prizes by prizes_draw_idx, never the whole table.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';

/** One completed draw as the rankings fold it. */
export interface FoldedDraw {
  memberId: string;
  createdAt: Date;
  gachaId: string;
  count: number;
  cost: number;
  /** The draw's most valuable prize (null only for a draw without prizes, which cannot complete). */
  best: { tierId: string; conversionValue: number } | null;
}

/**
 * The completed draws created in [from, to), oldest first, at most about `batchRows`: when more wait,
 * the batch ends before the instant of the draw after the first `batchRows` (draws at one instant stay
 * together) and `to` answers where it ended.
 * @example const { draws, to } = await completedDrawsForFold(db, { from, to: settled, batchRows: 20_000 })
 */
export async function completedDrawsForFold(
  db: Database,
  range: { from: Date; to: Date; batchRows: number },
): Promise<{ draws: FoldedDraw[]; to: Date }> {
  const [edge] = await queryRows<{ at: Date | string }>(
    db,
    sql`select created_at as at from draws
         where status = 'completed' and created_at >= ${range.from.toISOString()}::timestamptz
           and created_at < ${range.to.toISOString()}::timestamptz
         order by created_at offset ${range.batchRows} limit 1`,
  );
  const edgeAt = edge ? new Date(edge.at) : null;
  // A batch's worth of draws at one instant would never move on: take them all then.
  const to = edgeAt && edgeAt.getTime() > range.from.getTime() ? edgeAt : range.to;
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select d.member_id, d.created_at, d.gacha_id, d.count, d.cost, h.tier_id, h.conversion_value
          from draws d
          left join lateral (
            select p.tier_id, p.conversion_value from prizes p where p.draw_id = d.id
             order by p.conversion_value desc, p.tier_id limit 1
          ) h on true
         where d.status = 'completed' and d.created_at >= ${range.from.toISOString()}::timestamptz
           and d.created_at < ${to.toISOString()}::timestamptz
         order by d.created_at, d.id`,
  );
  return {
    to,
    draws: rows.map((r) => ({
      memberId: String(r.member_id),
      createdAt: new Date(r.created_at as string),
      gachaId: String(r.gacha_id),
      count: Number(r.count),
      cost: Number(r.cost),
      best: r.tier_id == null ? null : { tierId: String(r.tier_id), conversionValue: Number(r.conversion_value) },
    })),
  };
}
