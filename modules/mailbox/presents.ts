// Presents: a mail's free-coin attachment, claimed exactly once (one by one or all at once), and how a
// sender's page shows its present.
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import { grantCoins } from '#modules/wallet';
import { isStaffRole, memberStandingOf } from '#modules/identity';
import { mails, mailStates } from './schema';
import { type MailboxOptions, mailFor, visibleBroadcasts, allMembersMatcher, statesOf } from './visibility';
import { type MailRefusalCode, MAIL_ATTACHMENT_REASON } from './notify';

export interface MailClaim {
  ok: true;
  mailId: number;
  coins: number;
}

/** The shop's settings for claimed coins (FREE_COIN_EXPIRY_DAYS). */
export interface MailClaimRules {
  freeCoinDays: number;
}

/**
 * Claims a mail's attachment: credited exactly once per (mail, member), whatever the concurrency or the
 * number of instances (the state row is locked, and the grant's key is mail:<mail>:<member>).
 * Staff, banned and deleted members are refused; so is a claim after the deadline.
 * @example const outcome = await claimMailAttachment(db, memberId, 42, { freeCoinDays: 180 }) // { ok: true, coins: 100 }
 */
export async function claimMailAttachment(
  db: Database,
  memberId: string,
  mailId: number,
  rules: MailClaimRules,
  options: MailboxOptions = {},
): Promise<Outcome<MailClaim, MailRefusalCode>> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const standing = await memberStandingOf(tx, memberId, now);
    if (!standing) return refuse('UNAUTHENTICATED');
    const mail = await mailFor(tx, memberId, mailId, options, now);
    if (!mail) return refuse('MAIL_NOT_FOUND');
    if (mail.attachmentCoins === null) return refuse('MAIL_NO_ATTACHMENT');
    if (isStaffRole(standing.role) || standing.banned || standing.deleted) return refuse('MAIL_CLAIM_NOT_AVAILABLE');
    // Create the state row if absent, then lock it: a concurrent claim waits here and then sees claimed_at.
    await tx.insert(mailStates).values({ mailId, memberId }).onConflictDoNothing();
    const [state] = await tx
      .select({ claimedAt: mailStates.claimedAt })
      .from(mailStates)
      .where(and(eq(mailStates.mailId, mailId), eq(mailStates.memberId, memberId)))
      .for('update');
    if (state?.claimedAt) return refuse('MAIL_ALREADY_CLAIMED', { claimedAt: state.claimedAt.toISOString() });
    if (mail.claimUntil && mail.claimUntil.getTime() < now.getTime())
      return refuse('MAIL_CLAIM_EXPIRED', { claimUntil: mail.claimUntil.toISOString() });
    const grant = await grantCoins(tx, {
      memberId,
      kind: 'free',
      amount: mail.attachmentCoins,
      reason: mail.attachmentReason ?? MAIL_ATTACHMENT_REASON,
      counterAccount: 'promotion',
      idempotencyKey: `mail:${mailId}:${memberId}`,
      ref: String(mailId),
      memo: mail.subject.slice(0, 80),
      now,
      lifetimeDays: { paid: rules.freeCoinDays, free: rules.freeCoinDays },
    });
    await tx
      .update(mailStates)
      .set({ claimedAt: now, grantId: grant.grantId, readAt: sql`coalesce(${mailStates.readAt}, ${now})` })
      .where(and(eq(mailStates.mailId, mailId), eq(mailStates.memberId, memberId)));
    return { ok: true as const, mailId, coins: mail.attachmentCoins };
  });
}

/** What 「すべて受け取る」 would take now: the member's unclaimed, unexpired presents (personal and broadcast). */
export interface ClaimablePresents {
  mailIds: number[];
  coins: number;
}

/**
 * The presents the member could claim now, oldest first (at most `limit`, default 200): their own personal
 * mails and the broadcasts of their segments, with an attachment not claimed and not past its deadline.
 * @example await claimablePresents(db, memberId) // { mailIds: [3, 9], coins: 150 }
 */
export async function claimablePresents(
  db: Database,
  memberId: string,
  options: MailboxOptions & { limit?: number } = {},
): Promise<ClaimablePresents> {
  const now = options.now ?? new Date();
  const limit = options.limit ?? 200;
  const open = and(
    sql`${mails.attachmentCoins} is not null`,
    sql`(${mails.claimUntil} is null or ${mails.claimUntil} >= ${now})`,
  );
  const personal = await db
    .select({ id: mails.id, coins: mails.attachmentCoins })
    .from(mails)
    .leftJoin(mailStates, and(eq(mailStates.mailId, mails.id), eq(mailStates.memberId, memberId)))
    .where(
      and(
        eq(mails.audience, 'personal'),
        eq(mails.memberId, memberId),
        isNull(mails.canceledAt),
        lte(mails.sendAt, now),
        isNull(mailStates.claimedAt),
        open,
      ),
    )
    .orderBy(mails.id)
    .limit(limit);
  const standing = await memberStandingOf(db, memberId, now);
  const broadcasts = standing
    ? (await visibleBroadcasts(db, memberId, standing, options.matcher ?? allMembersMatcher, now)).filter(
        (m) => m.attachmentCoins !== null && (m.claimUntil === null || m.claimUntil.getTime() >= now.getTime()),
      )
    : [];
  const states = await statesOf(
    db,
    memberId,
    broadcasts.map((m) => m.id),
  );
  const all = [
    ...personal.map((m) => ({ id: m.id, coins: m.coins ?? 0 })),
    ...broadcasts.filter((m) => !states.get(m.id)?.claimedAt).map((m) => ({ id: m.id, coins: m.attachmentCoins ?? 0 })),
  ]
    .sort((a, b) => a.id - b.id)
    .slice(0, limit);
  return { mailIds: all.map((m) => m.id), coins: all.reduce((sum, m) => sum + m.coins, 0) };
}

/**
 * 「すべて受け取る」: claims every present `claimablePresents` finds, each through `claimMailAttachment` (so each
 * is credited exactly once: a double tap or a second instance finds them claimed and skips them). Answers
 * what this call credited; a present that became unclaimable meanwhile (claimed elsewhere, expired) is skipped.
 * @example await claimAllPresents(db, memberId, { freeCoinDays: 180 }) // { ok: true, claimed: 2, coins: 150 }
 */
export async function claimAllPresents(
  db: Database,
  memberId: string,
  rules: MailClaimRules,
  options: MailboxOptions = {},
): Promise<Outcome<{ ok: true; claimed: number; coins: number }, MailRefusalCode>> {
  const now = options.now ?? new Date();
  const standing = await memberStandingOf(db, memberId, now);
  if (!standing) return refuse('UNAUTHENTICATED');
  if (isStaffRole(standing.role) || standing.banned || standing.deleted) return refuse('MAIL_CLAIM_NOT_AVAILABLE');
  const { mailIds } = await claimablePresents(db, memberId, { ...options, now });
  let claimed = 0;
  let coins = 0;
  for (const mailId of mailIds) {
    const outcome = await claimMailAttachment(db, memberId, mailId, rules, { ...options, now });
    if (outcome.ok) {
      claimed += 1;
      coins += outcome.coins;
    } else if (outcome.code === 'MAIL_CLAIM_NOT_AVAILABLE' || outcome.code === 'UNAUTHENTICATED') {
      return outcome;
    }
  }
  return { ok: true as const, claimed, coins };
}

/** A system mail's present as its sender's page shows it: claimed, waiting (with the mail to open) or expired. */
export interface PresentState {
  mailId: number;
  state: 'claimed' | 'waiting' | 'expired';
}

/**
 * The presents of the member's system mails by dedupe key (e.g. `level-up:5`), for pages that list rewards;
 * keys without a mail (or a mail without a present) are absent.
 * @example (await presentsByKey(db, memberId, ['level-up:2'])).get('level-up:2') // { mailId: 12, state: 'waiting' }
 */
export async function presentsByKey(
  db: Database,
  memberId: string,
  keys: string[],
  now = new Date(),
): Promise<Map<string, PresentState>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({
      id: mails.id,
      key: mails.dedupeKey,
      claimUntil: mails.claimUntil,
      claimedAt: mailStates.claimedAt,
    })
    .from(mails)
    .leftJoin(mailStates, and(eq(mailStates.mailId, mails.id), eq(mailStates.memberId, memberId)))
    .where(
      and(
        eq(mails.memberId, memberId),
        inArray(mails.dedupeKey, keys),
        isNull(mails.canceledAt),
        sql`${mails.attachmentCoins} is not null`,
      ),
    );
  return new Map(
    rows.map((r) => [
      r.key!,
      {
        mailId: r.id,
        state: r.claimedAt
          ? ('claimed' as const)
          : r.claimUntil && r.claimUntil.getTime() < now.getTime()
            ? ('expired' as const)
            : ('waiting' as const),
      },
    ]),
  );
}

/**
 * The presents of system mails keyed by number (`<prefix><n>`, or `<prefix><a>,<b>,…` for one mail naming
 * several, e.g. the level-up mail of a draw that crossed levels 3 to 9), by number: each number of a
 * shared mail answers that mail's state. Mails without a present are absent.
 * @example (await presentsByNumber(db, memberId, 'level-up:')).get(4) // { mailId: 12, state: 'waiting' }
 */
export async function presentsByNumber(
  db: Database,
  memberId: string,
  prefix: string,
  now = new Date(),
): Promise<Map<number, PresentState>> {
  const rows = await db
    .select({ id: mails.id, key: mails.dedupeKey, claimUntil: mails.claimUntil, claimedAt: mailStates.claimedAt })
    .from(mails)
    .leftJoin(mailStates, and(eq(mailStates.mailId, mails.id), eq(mailStates.memberId, memberId)))
    .where(
      and(
        eq(mails.memberId, memberId),
        sql`left(${mails.dedupeKey}, ${prefix.length}) = ${prefix}`,
        isNull(mails.canceledAt),
        sql`${mails.attachmentCoins} is not null`,
      ),
    );
  const byNumber = new Map<number, PresentState>();
  for (const r of rows) {
    const list = r.key!.slice(prefix.length);
    if (!/^\d+(,\d+)*$/.test(list)) continue;
    const state = r.claimedAt
      ? ('claimed' as const)
      : r.claimUntil && r.claimUntil.getTime() < now.getTime()
        ? ('expired' as const)
        : ('waiting' as const);
    for (const n of list.split(',')) byNumber.set(Number(n), { mailId: r.id, state });
  }
  return byNumber;
}
