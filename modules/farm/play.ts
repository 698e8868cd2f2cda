// Playing the farm (decision 044). The member sends an intention ('water plot 3'); the time is the
// server's (`now`, from the shop's clock), the amounts are the rules' and the seed table's.
//
// Locks, always in this order, so two instances, parallel tabs and crossing friend waterings never
// deadlock and never count twice: the day rows of the members involved (farm_days, in member id
// order: the daily cap is counted under them), then the plot rows. A reward is a wallet grant whose key
// names what it pays for (the planting, or the friend and the day), written in the same transaction as
// the farm_actions row whose unique index says it happened once.
//
// This file: the refusals, the locks and the frame every action runs in; the member's farm as the page
// shows it (farm-view.ts), their own plots' actions (plots.ts), friends' watering (friend-watering.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import { grantCoins, type CoinLifetimes } from '#modules/wallet';
import { isStaffRole, memberStandingOf } from '#modules/identity';
import { farmActions, farmDays, farmPlots } from './schema';
import { farmDayOf, previousFarmDay, type FarmRules, type PlotRecord } from './rules';
import { readFarmRules } from './store';
import type { FarmActionResult } from './view';
import { farmViewOf } from './farm-view';

export const FARM_REFUSAL_CODES = [
  'FARM_PAUSED',
  'FARM_NOT_AVAILABLE',
  'FARM_PLOT_LOCKED',
  'FARM_PLOT_NOT_EMPTY',
  'FARM_SEED_UNKNOWN',
  'FARM_SEED_LOCKED',
  'FARM_NOTHING_TO_WATER',
  'FARM_WATER_TOO_SOON',
  'FARM_NOT_RIPE',
  'FARM_NOTHING_TO_HARVEST',
  'FARM_WITHERED',
  'FARM_NOTHING_TO_CLEAR',
  'FARM_NOT_FRIENDS',
  'FARM_FRIEND_ALREADY_WATERED',
  // Answered at the edge (server/farm.ts farmRateLimit): more actions than FARM_ACTIONS_PER_MINUTE.
  'FARM_TOO_FAST',
] as const;
export type FarmRefusalCode = (typeof FARM_REFUSAL_CODES)[number];

/** The wallet's reason for every farm reward (LEDGER_REASON_LABELS: ファーム報酬). */
export const FARM_REASON = 'farm';

/** What the shop passes in: its clock and the free coins' lifetime. */
export interface FarmContext {
  now: Date;
  lifetimeDays: CoinLifetimes;
}

type Tx = Database;

/** Makes the member's row for the day (with its streak) if missing, then locks it. */
export async function lockDay(tx: Tx, memberId: string, day: string) {
  const yesterday = previousFarmDay(day);
  await tx.execute(sql`
    insert into farm_days (member_id, jst_day, streak)
    values (${memberId}, ${day}::date,
      coalesce((select streak from farm_days where member_id = ${memberId} and jst_day = ${yesterday}::date), 0) + 1)
    on conflict do nothing`);
  const [row] = await tx
    .select()
    .from(farmDays)
    .where(and(eq(farmDays.memberId, memberId), eq(farmDays.jstDay, day)))
    .for('update');
  return row!;
}

export async function lockPlot(tx: Tx, memberId: string, plotNo: number): Promise<PlotRecord> {
  await tx.insert(farmPlots).values({ memberId, plotNo }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(farmPlots)
    .where(and(eq(farmPlots.memberId, memberId), eq(farmPlots.plotNo, plotNo)))
    .for('update');
  return row!;
}

export async function standingRefusal(tx: Tx, memberId: string, now: Date) {
  const standing = await memberStandingOf(tx, memberId, now);
  if (!standing || standing.banned || standing.deleted || isStaffRole(standing.role))
    return refuse('FARM_NOT_AVAILABLE' as const);
  return null;
}

type Acted = Omit<FarmActionResult, 'farm'>;

/** The common frame of a member's own action: rules, standing, pause, the day's lock, then `act`. */
export async function act(
  db: Database,
  memberId: string,
  context: FarmContext,
  body: (tx: Tx, rules: FarmRules, day: string) => Promise<Outcome<Acted & { ok: true }, FarmRefusalCode>>,
): Promise<Outcome<FarmActionResult & { ok: true }, FarmRefusalCode>> {
  const { now } = context;
  const day = farmDayOf(now);
  const outcome = await db.transaction(async (tx) => {
    const rules = await readFarmRules(tx);
    if (rules.paused) return refuse('FARM_PAUSED');
    const refusal = await standingRefusal(tx, memberId, now);
    if (refusal) return refusal;
    return body(tx, rules, day);
  });
  if (!outcome.ok) return outcome;
  return { ...outcome, farm: await farmViewOf(db, memberId, now) };
}

export async function logAction(tx: Tx, values: Omit<typeof farmActions.$inferInsert, 'id'>): Promise<boolean> {
  const [row] = await tx.insert(farmActions).values(values).onConflictDoNothing().returning({ id: farmActions.id });
  return !!row;
}

/** Grants `coins` (already capped) to the member, keyed by what it pays for. */
export async function grantFarmCoins(
  tx: Tx,
  memberId: string,
  coins: number,
  key: string,
  memo: string,
  context: FarmContext,
): Promise<number | null> {
  if (coins <= 0) return null;
  const grant = await grantCoins(tx, {
    memberId,
    kind: 'free',
    amount: coins,
    reason: FARM_REASON,
    counterAccount: 'promotion',
    idempotencyKey: key,
    ref: key,
    memo,
    now: context.now,
    lifetimeDays: context.lifetimeDays,
  });
  return grant.grantId;
}
