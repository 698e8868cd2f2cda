// What members and staff read: the inviter's invitees and their states, inviters' summaries.
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { memberStandingOf, publicNicknames, referralProfilesOf } from '#modules/identity';
import { firstPurchasesOf } from '#modules/payments';
import { invitations } from './schema';
import { type InvitationRules, invitationCodeOf, LATE_ENTRY_HOURS } from './codes';
import { jstMonthOf } from './settlement';

export type InviteeState =
  'registered' | 'phone_verified' | 'purchased' | 'rewarded' | 'capped' | 'refused_self' | 'refused_suspicious';

/** What the member reads for each state. */
export const INVITEE_STATE_LABELS: Record<InviteeState, string> = {
  registered: '登録済み',
  phone_verified: '電話番号認証済み',
  purchased: '初回購入済み',
  rewarded: '報酬付与済み',
  capped: '上限のため対象外',
  refused_self: '対象外（ご本人の招待）',
  refused_suspicious: '不正の疑いで対象外',
};

export interface InviteeView {
  /** The invitee's public nickname (never an address). */
  name: string;
  joinedAt: Date;
  state: InviteeState;
  phoneVerified: boolean;
  purchased: boolean;
  rewardCoins: number | null;
}

export interface InvitationOverview {
  code: string;
  monthLabel: string;
  rewardedThisMonth: number;
  monthlyCap: number;
  rewardCoins: number;
  totals: { invited: number; rewarded: number };
  invitees: InviteeView[];
  /** Set when this member joined by an invitation (their own side). */
  invitedBy: { name: string; state: InviteeState } | null;
  /** The member may still enter a code by hand. */
  canEnterCode: boolean;
}

function stateOf(row: typeof invitations.$inferSelect, live: { phone: boolean; purchased: boolean }): InviteeState {
  if (row.outcome === 'rewarded') return 'rewarded';
  if (row.outcome === 'capped') return 'capped';
  if (row.outcome === 'refused') return row.refusal === 'self' ? 'refused_self' : 'refused_suspicious';
  if (live.purchased) return 'purchased';
  if (live.phone) return 'phone_verified';
  return 'registered';
}

/**
 * The member's invitation page: their code, this month's count against the cap, their invitees (newest
 * first, at most `limit`) and, when they were invited, their own invitation's state. Only their own rows.
 * @example const view = await invitationOverviewOf(db, memberId, rules)
 */
export async function invitationOverviewOf(
  db: Database,
  memberId: string,
  rules: Pick<InvitationRules, 'monthlyCap' | 'rewardCoins'>,
  now = new Date(),
  limit = 100,
): Promise<InvitationOverview> {
  const code = await invitationCodeOf(db, memberId);
  const month = jstMonthOf(now);
  const rows = await db
    .select()
    .from(invitations)
    .where(eq(invitations.inviterId, memberId))
    .orderBy(desc(invitations.attachedAt), desc(invitations.id))
    .limit(Math.min(Math.max(limit, 1), 200));
  const [counts] = await db
    .select({
      invited: sql<number>`count(*)::int`,
      rewarded: sql<number>`count(*) filter (where ${invitations.outcome} = 'rewarded')::int`,
      thisMonth: sql<number>`count(*) filter (where ${invitations.outcome} = 'rewarded' and ${invitations.settledAt} >= ${month.start.toISOString()}::timestamptz and ${invitations.settledAt} < ${month.end.toISOString()}::timestamptz)::int`,
    })
    .from(invitations)
    .where(eq(invitations.inviterId, memberId));
  const [mine] = await db.select().from(invitations).where(eq(invitations.inviteeId, memberId));
  const ids = rows.map((r) => r.inviteeId);
  if (mine) ids.push(mine.inviterId, memberId);
  const [names, profiles, purchases, standing] = await Promise.all([
    publicNicknames(db, ids),
    referralProfilesOf(db, ids, now),
    firstPurchasesOf(db, ids),
    mine ? null : memberStandingOf(db, memberId, now),
  ]);
  const live = (id: string) => ({
    phone: Boolean(profiles.get(id)?.verifiedPhone),
    purchased: purchases.has(id),
  });
  return {
    code,
    monthLabel: month.label,
    rewardedThisMonth: Number(counts?.thisMonth ?? 0),
    monthlyCap: rules.monthlyCap,
    rewardCoins: rules.rewardCoins,
    totals: { invited: Number(counts?.invited ?? 0), rewarded: Number(counts?.rewarded ?? 0) },
    invitees: rows.map((row) => {
      const state = live(row.inviteeId);
      return {
        name: names.get(row.inviteeId) ?? '会員',
        joinedAt: row.attachedAt,
        state: stateOf(row, state),
        phoneVerified: Boolean(row.phoneVerifiedAt) || state.phone,
        purchased: Boolean(row.firstPurchaseAt) || state.purchased,
        rewardCoins: row.rewardCoins,
      };
    }),
    invitedBy: mine ? { name: names.get(mine.inviterId) ?? '会員', state: stateOf(mine, live(memberId)) } : null,
    canEnterCode:
      !mine &&
      standing !== null &&
      !purchases.has(memberId) &&
      now.getTime() - standing.joinedAt.getTime() <= LATE_ENTRY_HOURS * 3600_000,
  };
}

/** The public name of an inviter (the API's answer to a typed code). */
export async function publicInviterName(db: Database, inviterId: string): Promise<string> {
  return (await publicNicknames(db, [inviterId])).get(inviterId) ?? '会員';
}

export interface InviterSummary {
  inviterId: string;
  name: string;
  invited: number;
  rewarded: number;
  capped: number;
  refused: number;
  pending: number;
  lastAttachedAt: Date;
}

/**
 * The operators' view: inviters with the most invitations first (at most `limit`).
 * @example await inviterSummaries(db, 50)
 */
export async function inviterSummaries(db: Database, limit = 50): Promise<InviterSummary[]> {
  const rows = await db
    .select({
      inviterId: invitations.inviterId,
      invited: sql<number>`count(*)::int`,
      rewarded: sql<number>`count(*) filter (where ${invitations.outcome} = 'rewarded')::int`,
      capped: sql<number>`count(*) filter (where ${invitations.outcome} = 'capped')::int`,
      refused: sql<number>`count(*) filter (where ${invitations.outcome} = 'refused')::int`,
      pending: sql<number>`count(*) filter (where ${invitations.outcome} is null)::int`,
      lastAttachedAt: sql<string>`max(${invitations.attachedAt})`,
    })
    .from(invitations)
    .groupBy(invitations.inviterId)
    .orderBy(sql`count(*) desc`, invitations.inviterId)
    .limit(Math.min(Math.max(limit, 1), 200));
  const names = await publicNicknames(
    db,
    rows.map((r) => r.inviterId),
  );
  return rows.map((r) => ({
    inviterId: r.inviterId,
    name: names.get(r.inviterId) ?? '会員',
    invited: Number(r.invited),
    rewarded: Number(r.rewarded),
    capped: Number(r.capped),
    refused: Number(r.refused),
    pending: Number(r.pending),
    lastAttachedAt: new Date(r.lastAttachedAt),
  }));
}
