// Invitations (docs/decisions/038): each member's personal code, the invitation attached once to a new
// member at sign-up, and its settlement: when the invitee has verified a phone number AND made a first
// purchase, both members receive free coins as mailbox attachments, once, within the inviter's monthly
// cap (Japan-time month); self-invitations and shared phones or devices are refused.
import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import {
  memberStandingOf,
  publicNicknames,
  referralProfilesOf,
  sessionDevicesOf,
  takeRateLimit,
} from '#modules/identity';
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

export type { InvitationOutcome, InvitationRefusal } from './schema';

export const INVITATION_REFUSAL_CODES = [
  'UNAUTHENTICATED',
  'INVITATION_CODE_INVALID',
  'INVITATION_CODE_NOT_FOUND',
  'INVITATION_SELF',
  'INVITATION_ALREADY_ATTACHED',
  'INVITATION_TOO_LATE',
  'INVITATION_RATE_LIMITED',
] as const;
export type InvitationRefusalCode = (typeof INVITATION_REFUSAL_CODES)[number];

/** The settings of the rewards (server/config.ts: INVITATION_*). */
export interface InvitationRules {
  /** Free coins each member receives (default 500). */
  rewardCoins: number;
  /** Rewarded invitations per inviter per Japan-time month (default 10). */
  monthlyCap: number;
  /** Days the members have to claim the mailbox attachment. */
  claimDays: number;
  /** The risk module's fingerprint key (fingerprintKeyOf(AUTH_SECRET)): phones are compared as keyed hashes. */
  fingerprintKey: Buffer;
}

/** The code alphabet: digits and capitals without look-alikes (0/O, 1/I). */
export const INVITATION_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const INVITATION_CODE_LENGTH = 8;
/** Codes a member may type by hand in an hour (against guessing other members' codes). */
export const TYPED_CODES_PER_HOUR = 10;
/** A member may still enter a code by hand within this many hours of joining, before a first purchase. */
export const LATE_ENTRY_HOURS = 72;
/** The cookie /r?code=… leaves for the sign-up (HttpOnly, Secure, SameSite=Lax). */
export const INVITATION_COOKIE = 'oripa_invite';
/** Seconds the cookie lives: a week, long enough to sign up, short enough not to claim a later visit. */
export const INVITATION_COOKIE_SECONDS = 7 * 24 * 3600;
/** A readable one-shot cookie the page turns into the friend-invitation analytics event, then deletes. */
export const INVITATION_EVENT_COOKIE = 'oripa_invite_event';

/**
 * A typed code as stored: NFKC (full-width accepted), capitals, no spaces or dashes; null when it cannot be one.
 * @example normaliseInvitationCode(' ａｂｃｄ-２３４５ ') === 'ABCD2345'
 */
export function normaliseInvitationCode(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const code = input
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-‐－ー_]/g, '');
  if (code.length !== INVITATION_CODE_LENGTH) return null;
  for (const ch of code) if (!INVITATION_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

const newCode = () =>
  Array.from({ length: INVITATION_CODE_LENGTH }, () => INVITATION_CODE_ALPHABET[randomInt(32)]).join('');

/**
 * The member's personal code, made on first need (unique; a rare collision draws again).
 * @example const code = await invitationCodeOf(db, memberId) // 'K7Q2M9XA'
 */
export async function invitationCodeOf(db: Database, memberId: string): Promise<string> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const [existing] = await db
      .select({ code: invitationCodes.code })
      .from(invitationCodes)
      .where(eq(invitationCodes.memberId, memberId));
    if (existing) return existing.code;
    await db.insert(invitationCodes).values({ memberId, code: newCode() }).onConflictDoNothing();
  }
  throw new Error('could not make a unique invitation code');
}

/** The member who owns a code, or null. */
export async function inviterOfCode(db: Database, code: string): Promise<string | null> {
  const normalised = normaliseInvitationCode(code);
  if (!normalised) return null;
  const [row] = await db
    .select({ memberId: invitationCodes.memberId })
    .from(invitationCodes)
    .where(eq(invitationCodes.code, normalised));
  return row?.memberId ?? null;
}

/**
 * An address as one mailbox: lower case, no +tag; Gmail ignores dots and googlemail.com is gmail.com.
 * @example normaliseEmail('Ta.ro+x@GoogleMail.com') === 'taro@gmail.com'
 */
export function normaliseEmail(email: string): string {
  const [local = '', domain = ''] = email
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .split(/@(?=[^@]*$)/);
  const host = domain === 'googlemail.com' ? 'gmail.com' : domain;
  let name = local.split('+')[0] ?? '';
  if (host === 'gmail.com') name = name.replaceAll('.', '');
  return `${name}@${host}`;
}

export interface AttachInput {
  inviteeId: string;
  code: unknown;
  /** A member entering a code by hand after sign-up: only within LATE_ENTRY_HOURS and before a first purchase. */
  lateEntry?: boolean;
  now?: Date;
}

/**
 * Attaches an invitation to a member, once (the invitee is unique). The same member is refused; the same
 * mailbox after normalisation is attached as refused (self), so it is never rewarded.
 * @example const outcome = await attachInvitation(db, { inviteeId, code: 'K7Q2M9XA' })
 */
export async function attachInvitation(
  db: Database,
  input: AttachInput,
): Promise<Outcome<{ ok: true; inviterId: string; invitationId: number; refused: boolean }, InvitationRefusalCode>> {
  const now = input.now ?? new Date();
  if (input.lateEntry) {
    const limit = await takeRateLimit(db, {
      key: `invitation-code:${input.inviteeId}`,
      windowSeconds: 3600,
      max: TYPED_CODES_PER_HOUR,
      now,
    });
    if (!limit.allowed) return refuse('INVITATION_RATE_LIMITED', { retryAfterSeconds: limit.retryAfterSeconds });
  }
  const code = normaliseInvitationCode(input.code);
  if (!code) return refuse('INVITATION_CODE_INVALID');
  const [owner] = await db
    .select({ memberId: invitationCodes.memberId })
    .from(invitationCodes)
    .where(eq(invitationCodes.code, code));
  if (!owner) return refuse('INVITATION_CODE_NOT_FOUND');
  const inviterId = owner.memberId;
  if (inviterId === input.inviteeId) return refuse('INVITATION_SELF');
  const profiles = await referralProfilesOf(db, [inviterId, input.inviteeId], now);
  const inviter = profiles.get(inviterId);
  const invitee = profiles.get(input.inviteeId);
  // A code of a banned, deleted or staff account is not offered (answered as unknown).
  if (!inviter || inviter.ineligible || !invitee) return refuse('INVITATION_CODE_NOT_FOUND');
  if (input.lateEntry) {
    const [already] = await db
      .select({ id: invitations.id })
      .from(invitations)
      .where(eq(invitations.inviteeId, input.inviteeId));
    if (already) return refuse('INVITATION_ALREADY_ATTACHED');
    const standing = await memberStandingOf(db, input.inviteeId, now);
    const purchased = (await firstPurchasesOf(db, [input.inviteeId])).has(input.inviteeId);
    if (!standing || purchased || now.getTime() - standing.joinedAt.getTime() > LATE_ENTRY_HOURS * 3600_000)
      return refuse('INVITATION_TOO_LATE', { hours: LATE_ENTRY_HOURS });
  }
  const self = normaliseEmail(inviter.email) === normaliseEmail(invitee.email);
  const [row] = await db
    .insert(invitations)
    .values({
      inviterId,
      inviteeId: input.inviteeId,
      code,
      attachedAt: now,
      ...(self ? { outcome: 'refused' as const, refusal: 'self' as const, settledAt: now } : {}),
    })
    .onConflictDoNothing({ target: invitations.inviteeId })
    .returning({ id: invitations.id });
  if (!row) return refuse('INVITATION_ALREADY_ATTACHED');
  return { ok: true, inviterId, invitationId: row.id, refused: self };
}

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
export { invitationSettings } from './settings';
export { INVITATION_REFUSAL_WORDS } from './refusal-words';
