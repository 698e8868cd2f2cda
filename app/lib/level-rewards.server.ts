// The level-up rewards table with each reached level's present (its mail, decision 037): claimed, waiting in
// the mailbox (with the mail to open) or expired.
import type { Database } from '#db/client';
import { presentsByKey, type PresentState } from '#modules/mailbox';

/** @example await withPresents(db, memberId, level.rewards) // [{ level: 2, reached: true, present: { mailId: 7, state: 'waiting' }, … }] */
export async function withPresents<R extends { level: number; coins: number; reached: boolean }>(
  db: Database,
  memberId: string,
  rewards: R[],
): Promise<(R & { present: PresentState | null })[]> {
  const keyOf = (level: number) => `level-up:${level}`;
  const presents = await presentsByKey(
    db,
    memberId,
    rewards.filter((r) => r.reached && r.coins > 0).map((r) => keyOf(r.level)),
  );
  return rewards.map((r) => ({ ...r, present: presents.get(keyOf(r.level)) ?? null }));
}
