// Watering a friend's farm (decision 044): both members' day rows locked in member id order, once per
// friend and day, rewarded by a grant keyed by the friend and the day.
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse } from '#modules/kernel';
import { friendOf } from '#modules/friends';
import { farmActions, farmDays, farmPlots } from './schema';
import { cappedCoins, farmDayOf, nextFarmDayStart, wateredReadyAt } from './rules';
import { type FarmContext, act, lockDay, standingRefusal, logAction, grantFarmCoins } from './play';

/**
 * Waters a friend's farm: once per friend per Japan-time day. The friend's growing plot with the most
 * time left is watered (the friend's own watering window is not touched), and each of the two gets
 * `friendWaterCoins` within their own daily cap.
 * @example await waterFriendFarm(db, memberId, { friendshipId: 12 }, { now, lifetimeDays })
 */
export async function waterFriendFarm(
  db: Database,
  memberId: string,
  input: { friendshipId: number },
  context: FarmContext,
) {
  const { now } = context;
  return act(db, memberId, context, async (tx, rules, day) => {
    const friendId = await friendOf(tx, memberId, input.friendshipId);
    if (!friendId) return refuse('FARM_NOT_FRIENDS');
    // Both day rows, in member id order (crossing waterings between two friends never deadlock).
    const rows = new Map<string, Awaited<ReturnType<typeof lockDay>>>();
    for (const id of [memberId, friendId].sort()) rows.set(id, await lockDay(tx, id, day));
    const mine = rows.get(memberId)!;
    const theirs = rows.get(friendId)!;
    const wanted = rules.friendWaterCoins;
    const coins = cappedCoins(wanted, mine.coins, rules.dailyCoinCap);
    const friendCoins = (await standingRefusal(tx, friendId, now))
      ? 0
      : cappedCoins(wanted, theirs.coins, rules.dailyCoinCap);
    const logged = await logAction(tx, {
      memberId,
      kind: 'friend_water',
      jstDay: day,
      friendId,
      coins,
      cappedCoins: wanted - coins,
      detail: { friendCoins, friendshipId: input.friendshipId },
      at: now,
    });
    if (!logged) return refuse('FARM_FRIEND_ALREADY_WATERED', { nextDayAt: nextFarmDayStart(now).toISOString() });
    // The friend's plot with the most time left gets the watering (their own window stays theirs).
    const plots = await tx
      .select()
      .from(farmPlots)
      .where(and(eq(farmPlots.memberId, friendId), sql`${farmPlots.readyAt} > ${now.toISOString()}::timestamptz`))
      .orderBy(sql`${farmPlots.readyAt} desc`, farmPlots.plotNo)
      .limit(1)
      .for('update');
    const target = plots[0];
    if (target?.readyAt)
      await tx
        .update(farmPlots)
        .set({ readyAt: wateredReadyAt(target.readyAt, rules, now), updatedAt: now })
        .where(and(eq(farmPlots.memberId, friendId), eq(farmPlots.plotNo, target.plotNo)));
    const grantId = await grantFarmCoins(
      tx,
      memberId,
      coins,
      `farm:friend-water:${memberId}:${friendId}:${day}`,
      'フレンドの畑に水やり',
      context,
    );
    await grantFarmCoins(
      tx,
      friendId,
      friendCoins,
      `farm:friend-watered:${friendId}:${memberId}:${day}`,
      'フレンドが畑に水やり',
      context,
    );
    if (grantId)
      await tx
        .update(farmActions)
        .set({ grantId })
        .where(
          and(
            eq(farmActions.memberId, memberId),
            eq(farmActions.friendId, friendId),
            eq(farmActions.jstDay, day),
            eq(farmActions.kind, 'friend_water'),
          ),
        );
    await tx
      .update(farmDays)
      .set({ coins: sql`${farmDays.coins} + ${coins}`, friendWaterings: sql`${farmDays.friendWaterings} + 1` })
      .where(and(eq(farmDays.memberId, memberId), eq(farmDays.jstDay, day)));
    if (friendCoins > 0)
      await tx
        .update(farmDays)
        .set({ coins: sql`${farmDays.coins} + ${friendCoins}` })
        .where(and(eq(farmDays.memberId, friendId), eq(farmDays.jstDay, day)));
    return {
      ok: true as const,
      action: 'friend_water' as const,
      plotNo: null,
      coins,
      cappedCoins: wanted - coins,
      friendCoins,
    };
  });
}

/**
 * Which of the given friends the member has watered today, and how many plots each has growing
 * (the friends list's buttons).
 */
export async function friendFarmStatus(
  db: Database,
  memberId: string,
  friendIds: string[],
  now: Date,
): Promise<Map<string, { wateredToday: boolean; growingPlots: number }>> {
  const status = new Map(friendIds.map((id) => [id, { wateredToday: false, growingPlots: 0 }]));
  if (friendIds.length === 0) return status;
  const day = farmDayOf(now);
  const ids = sql.join(
    friendIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const [watered, growing] = await Promise.all([
    db
      .select({ friendId: farmActions.friendId })
      .from(farmActions)
      .where(
        and(
          eq(farmActions.memberId, memberId),
          eq(farmActions.kind, 'friend_water'),
          eq(farmActions.jstDay, day),
          sql`${farmActions.friendId} in (${ids})`,
        ),
      ),
    db
      .select({ memberId: farmPlots.memberId, n: sql<number>`count(*)::int` })
      .from(farmPlots)
      .where(and(sql`${farmPlots.memberId} in (${ids})`, sql`${farmPlots.readyAt} > ${now.toISOString()}::timestamptz`))
      .groupBy(farmPlots.memberId),
  ]);
  for (const w of watered) if (w.friendId && status.has(w.friendId)) status.get(w.friendId)!.wateredToday = true;
  for (const g of growing) if (status.has(g.memberId)) status.get(g.memberId)!.growingPlots = Number(g.n);
  return status;
}
