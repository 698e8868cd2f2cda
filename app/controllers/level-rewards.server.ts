// The level-up rewards table with each reached level's present (its mail, decision 037): claimed, waiting in
// the mailbox (with the mail to open) or expired. A draw that crossed several levels sent one mail for all of
// them (decision 060): each of those levels answers that mail.
import type { Database } from '#db/client';
import { presentsByNumber, type PresentState } from '#modules/mailbox';

/** @example await withPresents(db, memberId, level.rewards) // [{ level: 2, reached: true, present: { mailId: 7, state: 'waiting' }, … }] */
export async function withPresents<R extends { level: number; coins: number; reached: boolean }>(
  db: Database,
  memberId: string,
  rewards: R[],
): Promise<(R & { present: PresentState | null })[]> {
  const presents = rewards.some((r) => r.reached && r.coins > 0)
    ? await presentsByNumber(db, memberId, 'level-up:')
    : new Map<number, PresentState>();
  return rewards.map((r) => ({ ...r, present: (r.reached && r.coins > 0 && presents.get(r.level)) || null }));
}
