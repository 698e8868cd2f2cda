// The ranking boards (docs/decisions/037): daily goodluck, weekly exp and monthly level, in Japan-time
// periods. A job folds the completed draws into per-period scores (ranking_scores) from a watermark, so
// the draw itself does no ranking work and a board is one index range read plus one indexed count.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { completedDrawsForFold } from '#modules/draw';
import { levelOf, levelTable } from '#modules/progression';
import { rankingMarks, rankingMemberExp, rankingScores, type RankingBoardName } from './schema';

export type { RankingBoardName } from './schema';

/** The boards, in the order the pages list them. */
export const RANKING_BOARDS = ['goodluck', 'exp', 'level'] as const satisfies readonly RankingBoardName[];

/** A board shows at most this many members. */
export const RANKING_SIZE = 100;

/** A period of a board: [from, to) in UTC instants between Japan-time midnights, and its first day. */
export interface RankingPeriod {
  from: Date;
  to: Date;
  /** The period's first day in Japan, 'YYYY-MM-DD' (the scores' period_start). */
  start: string;
}

const PERIOD_OF: Record<RankingBoardName, 'day' | 'week' | 'month'> = { goodluck: 'day', exp: 'week', level: 'month' };

/** Japan keeps UTC+9 all year (no summer time since 1951): periods are plain arithmetic, which the fold does per draw. */
const JST_OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

const dayKey = (jst: Date) => jst.toISOString().slice(0, 10);

/**
 * The Japan-time day, week (Monday 00:00 to the next Monday 00:00) or month that contains `now`.
 * @example jstPeriod('day', new Date('2026-11-23T15:00:00Z')).start === '2026-11-24'
 */
export function jstPeriod(kind: 'day' | 'week' | 'month', now: Date): RankingPeriod {
  // `jst` carries Japan's wall clock in its UTC fields.
  const jst = new Date(now.getTime() + JST_OFFSET_MS);
  let from: number;
  let to: number;
  if (kind === 'month') {
    from = Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth(), 1);
    to = Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth() + 1, 1);
  } else {
    const midnight = Math.floor(jst.getTime() / DAY_MS) * DAY_MS;
    // getUTCDay: 0 = Sunday; Monday starts the week.
    from = kind === 'day' ? midnight : midnight - ((jst.getUTCDay() + 6) % 7) * DAY_MS;
    to = from + (kind === 'day' ? DAY_MS : 7 * DAY_MS);
  }
  return { from: new Date(from - JST_OFFSET_MS), to: new Date(to - JST_OFFSET_MS), start: dayKey(new Date(from)) };
}

/**
 * A board's current period, or the one before it.
 * @example boardPeriod('exp', 'previous', now).to.getTime() === boardPeriod('exp', 'current', now).from.getTime()
 */
export function boardPeriod(board: RankingBoardName, which: 'current' | 'previous', now: Date): RankingPeriod {
  const current = jstPeriod(PERIOD_OF[board], now);
  return which === 'current' ? current : jstPeriod(PERIOD_OF[board], new Date(current.from.getTime() - 1));
}

/** One member's line on a board. Members level on (score, tiebreak) share a place. */
export interface RankingEntry {
  place: number;
  memberId: string;
  /** goodluck: the best hit's multiple of its draw's price in hundredths (×12.5 → 1250); exp: exp; level: levels gained. */
  score: number;
  /** level: exp gained in the month (breaks ties); 0 elsewhere. */
  tiebreak: number;
  /** goodluck: the hit behind the score; null elsewhere. */
  hit: { gachaId: string; tierId: string; conversionValue: number; pricePerDraw: number } | null;
}

export interface RankingBoard {
  board: RankingBoardName;
  period: RankingPeriod;
  entries: RankingEntry[];
  /** The asking member's line, also outside the top 100; null without a score in the period. */
  me: RankingEntry | null;
}

type ScoreRow = typeof rankingScores.$inferSelect;

function entryOf(row: ScoreRow, place: number): RankingEntry {
  return {
    place,
    memberId: row.memberId,
    score: Number(row.score),
    tiebreak: Number(row.tiebreak),
    hit:
      row.hitTierId && row.hitGachaId
        ? {
            gachaId: row.hitGachaId,
            tierId: row.hitTierId,
            conversionValue: row.hitValue ?? 0,
            pricePerDraw: row.hitPrice ?? 0,
          }
        : null,
  };
}

/**
 * A board's top 100 and the member's own place (1 + members strictly ahead: an indexed count), in three
 * index reads on ranking_scores_board_idx.
 * @example const { entries, me } = await rankingBoard(db, 'exp', boardPeriod('exp', 'current', new Date()), member.id)
 */
export async function rankingBoard(
  db: Database,
  board: RankingBoardName,
  period: RankingPeriod,
  memberId: string | null,
): Promise<RankingBoard> {
  const inPeriod = and(eq(rankingScores.board, board), eq(rankingScores.periodStart, period.start));
  const [top, [mine]] = await Promise.all([
    db
      .select()
      .from(rankingScores)
      .where(inPeriod)
      .orderBy(
        desc(rankingScores.score),
        desc(rankingScores.tiebreak),
        asc(rankingScores.reachedAt),
        asc(rankingScores.memberId),
      )
      .limit(RANKING_SIZE),
    memberId
      ? db
          .select()
          .from(rankingScores)
          .where(and(inPeriod, eq(rankingScores.memberId, memberId)))
      : Promise.resolve([] as ScoreRow[]),
  ]);
  // Within the top list, everyone ahead of a line is listed before it: its place is the first index of its (score, tiebreak) + 1.
  const entries: RankingEntry[] = [];
  top.forEach((row, i) => {
    const previous = entries[i - 1];
    const tied = previous && previous.score === Number(row.score) && previous.tiebreak === Number(row.tiebreak);
    entries.push(entryOf(row, tied ? previous.place : i + 1));
  });
  let me: RankingEntry | null = null;
  if (mine) {
    const listed = entries.find((e) => e.memberId === mine.memberId);
    if (listed) me = listed;
    else {
      const [ahead] = await queryRows<{ n: number | string }>(
        db,
        // Two range counts on the board's index (index-only once vacuumed): a row comparison on its
        // descending columns would not bound the scan and reads the whole period instead.
        sql`select (select count(*) from ranking_scores
                     where board = ${board} and period_start = ${period.start}::date and score > ${mine.score}::bigint)
                 + (select count(*) from ranking_scores
                     where board = ${board} and period_start = ${period.start}::date and score = ${mine.score}::bigint
                       and tiebreak > ${mine.tiebreak}::bigint) as n`,
      );
      me = entryOf(mine, Number(ahead?.n ?? 0) + 1);
    }
  }
  return { board, period, entries, me };
}

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
