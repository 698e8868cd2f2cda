// Settling an invitation: both members' rewards once the invitee has a verified phone and a first purchase,
// within the inviter's monthly cap; self-invitations and shared phones or devices are refused.
import { and, asc, eq, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { publicNicknames, referralProfilesOf, sessionDevicesOf } from '#modules/identity';
import { creditedPurchasesSince, firstPurchasesOf } from '#modules/payments';
import { deviceFingerprintOf, phoneFingerprintOf, sharedFingerprintKinds } from '#modules/risk';
import { notifyMember } from '#modules/mailbox';
import {
  invitationCodes,
  invitations,
  invitationWatermarks,
  type InvitationOutcome,
  type InvitationRefusal,
} from './schema';
import type { InvitationRules } from './codes';

/** The first instant of the Japan-time month of `now`, and of the next one. */
export function jstMonthOf(now: Date): { start: Date; end: Date; label: string } {
  const jst = new Date(now.getTime() + 9 * 3600_000);
  const year = jst.getUTCFullYear();
  const month = jst.getUTCMonth();
  return {
    start: new Date(Date.UTC(year, month, 1) - 9 * 3600_000),
    end: new Date(Date.UTC(year, month + 1, 1) - 9 * 3600_000),
    label: `${year}年${month + 1}月`,
  };
}

export type SettleResult =
  | { settled: false; reason: 'none' | 'settled' | 'waiting' }
  | { settled: true; outcome: InvitationOutcome; refusal: InvitationRefusal | null };

const DEVICE_OF = (key: Buffer, d: { ipAddress: string; userAgent: string }) =>
  deviceFingerprintOf(key, d.ipAddress, d.userAgent);

/**
 * Settles the invitee's invitation when both conditions hold, once: the invitation row is locked, then the
 * inviter's code row (the cap's lock), so concurrent settles of one inviter count one after another.
 * Both mails carry the reward as an attachment keyed `invitation:<invitee>` (notifyMember: once per member).
 * @example await settleInvitation(db, inviteeId, rules)
 */
export async function settleInvitation(
  db: Database,
  inviteeId: string,
  rules: InvitationRules,
  now = new Date(),
): Promise<SettleResult> {
  return db.transaction(async (tx) => {
    const [inv] = await tx.select().from(invitations).where(eq(invitations.inviteeId, inviteeId)).for('update');
    if (!inv) return { settled: false, reason: 'none' } as const;
    if (inv.outcome) return { settled: false, reason: 'settled' } as const;
    const profiles = await referralProfilesOf(tx, [inv.inviterId, inviteeId], now);
    const invitee = profiles.get(inviteeId);
    const inviter = profiles.get(inv.inviterId);
    const purchases = await firstPurchasesOf(tx, [inviteeId]);
    const phone = invitee?.verifiedPhone ?? null;
    const phoneHash = phone ? phoneFingerprintOf(rules.fingerprintKey, phone) : null;
    const firstPurchaseAt = purchases.get(inviteeId) ?? null;
    const progress = {
      checkedAt: now,
      phoneVerifiedAt: inv.phoneVerifiedAt ?? (phone ? now : null),
      phoneHash: phoneHash ?? inv.phoneHash,
      firstPurchaseAt: inv.firstPurchaseAt ?? firstPurchaseAt,
    };
    if (!phone || !firstPurchaseAt || !invitee || !inviter) {
      await tx.update(invitations).set(progress).where(eq(invitations.id, inv.id));
      return { settled: false, reason: 'waiting' } as const;
    }
    // The cap's lock: one inviter's settlements run one after another.
    await tx.select().from(invitationCodes).where(eq(invitationCodes.memberId, inv.inviterId)).for('update');
    const refusal = await refusalOf(tx, inv, { phoneHash: phoneHash!, inviterPhone: inviter.verifiedPhone }, rules);
    let outcome: InvitationOutcome;
    if (refusal || invitee.ineligible || inviter.ineligible) outcome = 'refused';
    else {
      const month = jstMonthOf(now);
      const [counted] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(invitations)
        .where(
          and(
            eq(invitations.inviterId, inv.inviterId),
            eq(invitations.outcome, 'rewarded'),
            gte(invitations.settledAt, month.start),
            lt(invitations.settledAt, month.end),
          ),
        );
      outcome = Number(counted?.n ?? 0) >= rules.monthlyCap ? 'capped' : 'rewarded';
    }
    const finalRefusal: InvitationRefusal | null = outcome === 'refused' ? (refusal ?? 'ineligible') : null;
    await tx
      .update(invitations)
      .set({
        ...progress,
        outcome,
        refusal: finalRefusal,
        settledAt: now,
        rewardCoins: outcome === 'rewarded' ? rules.rewardCoins : null,
      })
      .where(eq(invitations.id, inv.id));
    if (outcome === 'rewarded' && rules.rewardCoins > 0) {
      const claimUntil = new Date(now.getTime() + rules.claimDays * 86_400_000);
      const names = await publicNicknames(tx, [inviteeId, inv.inviterId]);
      const attachment = { coins: rules.rewardCoins, claimUntil, reason: 'invitation' };
      const coins = rules.rewardCoins.toLocaleString('ja-JP');
      await notifyMember(tx, {
        memberId: inv.inviterId,
        category: 'invitation',
        dedupeKey: `invitation:${inviteeId}`,
        subject: `友達招待の特典 ${coins}コインをお届けします`,
        body: `${names.get(inviteeId)}さんが電話番号認証と初回購入を終えました。\n招待の特典として${coins}無償コインをお届けします。受け取りボタンから受け取ってください。`,
        attachment,
      });
      await notifyMember(tx, {
        memberId: inviteeId,
        category: 'invitation',
        dedupeKey: `invitation:${inviteeId}`,
        subject: `友達招待の特典 ${coins}コインをお届けします`,
        body: `${names.get(inv.inviterId)}さんからの招待で登録いただきありがとうございます。\n電話番号認証と初回購入の特典として${coins}無償コインをお届けします。受け取りボタンから受け取ってください。`,
        attachment,
      });
    }
    return { settled: true, outcome, refusal: finalRefusal } as const;
  });
}

/** Why an invitation is refused: the inviter's own phone, a phone another invitee of the inviter used, or a shared device. */
async function refusalOf(
  tx: Database,
  inv: typeof invitations.$inferSelect,
  facts: { phoneHash: string; inviterPhone: string | null },
  rules: InvitationRules,
): Promise<InvitationRefusal | null> {
  if (inv.refusal) return inv.refusal;
  if (facts.inviterPhone && phoneFingerprintOf(rules.fingerprintKey, facts.inviterPhone) === facts.phoneHash)
    return 'shared_phone';
  const [samePhone] = await tx
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.inviterId, inv.inviterId),
        ne(invitations.id, inv.id),
        eq(invitations.phoneHash, facts.phoneHash),
      ),
    )
    .limit(1);
  if (samePhone) return 'shared_phone';
  // The signals job's history (address-book phones, devices), then the live sessions of both.
  const shared = await sharedFingerprintKinds(tx, inv.inviteeId, [inv.inviterId]);
  if (shared.has('phone')) return 'shared_phone';
  if (shared.has('device')) return 'shared_device';
  const devices = await sessionDevicesOf(tx, [inv.inviteeId, inv.inviterId]);
  const inviterDevices = new Set(
    devices.filter((d) => d.memberId === inv.inviterId).map((d) => DEVICE_OF(rules.fingerprintKey, d)),
  );
  if (devices.some((d) => d.memberId === inv.inviteeId && inviterDevices.has(DEVICE_OF(rules.fingerprintKey, d))))
    return 'shared_device';
  return null;
}

/**
 * The settle job's run: the invitees whose purchases were credited since the feed's watermark, then the
 * pending invitations checked longest ago (phone verifications, and anything a run missed). Each invitee
 * is settled in its own transaction; a re-read or a second instance settles nothing twice.
 * @example const { processed } = await settleDueInvitations(db, rules)
 */
export async function settleDueInvitations(
  db: Database,
  rules: InvitationRules,
  now = new Date(),
  batch = 200,
): Promise<{ processed: number; rewarded: number }> {
  const due = new Set<string>();
  const [mark] = await db.select().from(invitationWatermarks).where(eq(invitationWatermarks.name, 'purchases'));
  const purchases = await creditedPurchasesSince(db, { at: mark?.at ?? new Date(0), id: mark?.id ?? '' }, batch);
  if (purchases.length > 0) {
    const pending = await db
      .select({ inviteeId: invitations.inviteeId })
      .from(invitations)
      .where(
        and(
          isNull(invitations.outcome),
          sql`${invitations.inviteeId} in (${sql.join(
            purchases.map((p) => sql`${p.memberId}`),
            sql`, `,
          )})`,
        ),
      );
    for (const p of pending) due.add(p.inviteeId);
  }
  const rotation = await db
    .select({ inviteeId: invitations.inviteeId })
    .from(invitations)
    .where(isNull(invitations.outcome))
    .orderBy(sql`${invitations.checkedAt} asc nulls first`, asc(invitations.id))
    .limit(batch);
  for (const r of rotation) due.add(r.inviteeId);
  let rewarded = 0;
  for (const inviteeId of due) {
    const result = await settleInvitation(db, inviteeId, rules, now);
    if (result.settled && result.outcome === 'rewarded') rewarded++;
  }
  const last = purchases.at(-1);
  if (last)
    await db
      .insert(invitationWatermarks)
      .values({ name: 'purchases', at: last.at, id: last.orderId })
      .onConflictDoUpdate({ target: invitationWatermarks.name, set: { at: last.at, id: last.orderId } });
  return { processed: due.size, rewarded };
}
