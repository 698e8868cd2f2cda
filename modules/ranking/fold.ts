// The fold: completed draws into per-period scores, from a watermark.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { completedDrawsForFold } from '#modules/draw';
import { levelOf, levelTable } from '#modules/progression';
import { rankingMarks, rankingMemberExp, rankingScores } from './schema';
import { jstPeriod } from './periods';

/** What a fold needs (see foldRankings). */
export interface RankingFoldRules {
  /** Seconds a draw must have existed before it is folded (a draw still committing may carry an earlier instant). */
  settleSeconds: number;
  /** About this many draws per fold transaction. */
  batchRows: number;
}

/**
 * Folds the completed draws since the watermark (and at least `settleSeconds` old) into the three
 * boards' scores and moves the watermark, in one transaction under the watermark row's lock: two runs
 * at once take turns and every draw counts once. `caughtUp` false: more draws wait (fold again).
 * @example while (!(await foldRankings(db, { settleSeconds: 30, batchRows: 20_000 })).caughtUp);
 */
export async function foldRankings(
  db: Database,
  rules: RankingFoldRules,
  now = new Date(),
): Promise<{ folded: number; caughtUp: boolean }> {
  return db.transaction(async (tx) => {
    await tx.insert(rankingMarks).values({ name: 'draws' }).onConflictDoNothing();
    const [mark] = await tx.select().from(rankingMarks).where(eq(rankingMarks.name, 'draws')).for('update');
    const settled = new Date(now.getTime() - rules.settleSeconds * 1000);
    // A fresh watermark is -infinity, which reads as an invalid Date: no draw is older than 1970.
    const from = Number.isFinite(mark!.foldedTo.getTime()) ? mark!.foldedTo : new Date(0);
    if (from.getTime() >= settled.getTime()) return { folded: 0, caughtUp: true };
    const batch = await completedDrawsForFold(tx, { from, to: settled, batchRows: rules.batchRows });
    if (batch.draws.length > 0) await foldBatch(tx, batch.draws);
    await tx.update(rankingMarks).set({ foldedTo: batch.to }).where(eq(rankingMarks.name, 'draws'));
    return { folded: batch.draws.length, caughtUp: batch.to.getTime() >= settled.getTime() };
  });
}

type Draws = Awaited<ReturnType<typeof completedDrawsForFold>>['draws'];

async function foldBatch(tx: Database, draws: Draws) {
  const memberIds = [...new Set(draws.map((d) => d.memberId))];
  const priorExp = new Map(
    (
      await tx
        .select()
        .from(rankingMemberExp)
        .where(
          sql`${rankingMemberExp.memberId} in (select jsonb_array_elements_text(${JSON.stringify(memberIds)}::jsonb))`,
        )
    ).map((r) => [r.memberId, Number(r.exp)]),
  );
  const luck = new Map<string, typeof rankingScores.$inferInsert>();
  const exp = new Map<string, typeof rankingScores.$inferInsert>();
  const level = new Map<
    string,
    { memberId: string; periodStart: string; expBefore: number; gained: number; reachedAt: Date }
  >();
  const running = new Map(memberIds.map((id) => [id, priorExp.get(id) ?? 0]));
  for (const d of draws) {
    const day = jstPeriod('day', d.createdAt).start;
    if (d.best && d.cost > 0) {
      // Integer hundredths of (conversion value ÷ price of one draw): ordering never depends on floats.
      const score = Math.floor((d.best.conversionValue * d.count * 100) / d.cost);
      const key = `${d.memberId}|${day}`;
      const held = luck.get(key);
      if (!held || score > Number(held.score))
        luck.set(key, {
          board: 'goodluck',
          periodStart: day,
          memberId: d.memberId,
          score,
          reachedAt: d.createdAt,
          hitGachaId: d.gachaId,
          hitTierId: d.best.tierId,
          hitValue: d.best.conversionValue,
          hitPrice: Math.floor(d.cost / d.count),
        });
    }
    const week = jstPeriod('week', d.createdAt).start;
    const weekKey = `${d.memberId}|${week}`;
    const weekRow = exp.get(weekKey);
    exp.set(weekKey, {
      board: 'exp',
      periodStart: week,
      memberId: d.memberId,
      score: Number(weekRow?.score ?? 0) + d.cost,
      reachedAt: d.createdAt,
    });
    const month = jstPeriod('month', d.createdAt).start;
    const monthKey = `${d.memberId}|${month}`;
    const before = running.get(d.memberId)!;
    const monthRow = level.get(monthKey) ?? {
      memberId: d.memberId,
      periodStart: month,
      expBefore: before,
      gained: 0,
      reachedAt: d.createdAt,
    };
    monthRow.gained += d.cost;
    monthRow.reachedAt = d.createdAt;
    level.set(monthKey, monthRow);
    running.set(d.memberId, before + d.cost);
  }
  for (const chunk of chunks([...luck.values()]))
    await tx
      .insert(rankingScores)
      .values(chunk)
      .onConflictDoUpdate({
        target: [rankingScores.board, rankingScores.periodStart, rankingScores.memberId],
        set: {
          score: sql`excluded.score`,
          reachedAt: sql`excluded.reached_at`,
          hitGachaId: sql`excluded.hit_gacha_id`,
          hitTierId: sql`excluded.hit_tier_id`,
          hitValue: sql`excluded.hit_value`,
          hitPrice: sql`excluded.hit_price`,
        },
        // A later hit only replaces a strictly better one: on a tie the earlier hit stays.
        setWhere: sql`${rankingScores.score} < excluded.score`,
      });
  for (const chunk of chunks([...exp.values()]))
    await tx
      .insert(rankingScores)
      .values(chunk)
      .onConflictDoUpdate({
        target: [rankingScores.board, rankingScores.periodStart, rankingScores.memberId],
        set: { score: sql`${rankingScores.score} + excluded.score`, reachedAt: sql`excluded.reached_at` },
      });
  if (level.size > 0) {
    // A month already on the board keeps its starting exp; the levels gained are recomputed from it.
    const months = [...new Set([...level.values()].map((r) => r.periodStart))];
    const held = await tx
      .select({
        memberId: rankingScores.memberId,
        periodStart: rankingScores.periodStart,
        expBefore: rankingScores.expBefore,
        tiebreak: rankingScores.tiebreak,
      })
      .from(rankingScores)
      .where(
        and(
          eq(rankingScores.board, 'level'),
          inArray(rankingScores.periodStart, months),
          sql`${rankingScores.memberId} in (select jsonb_array_elements_text(${JSON.stringify(memberIds)}::jsonb))`,
        ),
      );
    const heldBy = new Map(held.map((h) => [`${h.memberId}|${h.periodStart}`, h]));
    const table = await levelTable(tx);
    const rows = [...level.entries()].map(([key, r]) => {
      const h = heldBy.get(key);
      const expBefore = h ? Number(h.expBefore ?? 0) : r.expBefore;
      const gained = (h ? Number(h.tiebreak) : 0) + r.gained;
      return {
        board: 'level' as const,
        periodStart: r.periodStart,
        memberId: r.memberId,
        score: levelOf(table, expBefore + gained).level - levelOf(table, expBefore).level,
        tiebreak: gained,
        expBefore,
        reachedAt: r.reachedAt,
      };
    });
    for (const chunk of chunks(rows))
      await tx
        .insert(rankingScores)
        .values(chunk)
        .onConflictDoUpdate({
          target: [rankingScores.board, rankingScores.periodStart, rankingScores.memberId],
          set: { score: sql`excluded.score`, tiebreak: sql`excluded.tiebreak`, reachedAt: sql`excluded.reached_at` },
        });
  }
  for (const chunk of chunks([...running.entries()].map(([memberId, total]) => ({ memberId, exp: total }))))
    await tx
      .insert(rankingMemberExp)
      .values(chunk)
      .onConflictDoUpdate({ target: rankingMemberExp.memberId, set: { exp: sql`excluded.exp` } });
}

/** Rows in statements of at most 1,000 (PostgreSQL takes at most 65,535 parameters in one). */
function chunks<T>(rows: T[], size = 1_000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** When the scores were last folded up to (the boards' "as of"); null before the first fold. */
export async function rankingsFoldedTo(db: Database): Promise<Date | null> {
  const [mark] = await db.select().from(rankingMarks).where(eq(rankingMarks.name, 'draws'));
  return mark && Number.isFinite(mark.foldedTo.getTime()) ? mark.foldedTo : null;
}
