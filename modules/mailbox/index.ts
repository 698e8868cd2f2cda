// The mailbox (docs/decisions/034): personal mails and broadcasts, read state, and free-coin attachments
// claimed exactly once. Every module that tells a member something goes through `notifyMember`, the one
// notification interface: a personal mail keyed by (member, dedupe key), so a retried job or a second
// instance never sends it twice.
import { and, desc, eq, gt, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import { grantCoins } from '#modules/wallet';
import { isStaffRole, memberStandingOf, type MemberStanding } from '#modules/identity';
import type { RichText } from '#modules/content';
import { queueMail, type SiteIdentity } from '#modules/messaging';
import { memberContactOf } from '#modules/identity';
import { mails, mailStates, type MailSegment } from './schema';
import { mailEmailOptIn } from './preferences';

export type { MailSegment } from './schema';

export const MAIL_REFUSAL_CODES = [
  'UNAUTHENTICATED',
  'MAIL_NOT_FOUND',
  'MAIL_NO_ATTACHMENT',
  'MAIL_ALREADY_CLAIMED',
  'MAIL_CLAIM_EXPIRED',
  'MAIL_CLAIM_NOT_AVAILABLE',
  'MAIL_ALREADY_CANCELED',
] as const;
export type MailRefusalCode = (typeof MAIL_REFUSAL_CODES)[number];

/** The system mails modules send (and 'operator' for what staff compose). */
export const MAIL_CATEGORIES = [
  'operator',
  'welcome',
  'prize_deadline',
  'prize_auto_converted',
  'shipping_status',
  'purchase_complete',
  'purchase_reversed',
  'level_up',
  'rank_up',
  'invitation',
] as const;
export type MailCategory = (typeof MAIL_CATEGORIES)[number];

/** The wallet's reason for a claimed attachment unless the sender names another (LEDGER_REASON_LABELS). */
export const MAIL_ATTACHMENT_REASON = 'mail_attachment';

/** Turns plain text into rich text: one paragraph per line, empty lines dropped. @example plainText('a\nb').length === 2 */
export function plainText(text: string): RichText {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => ({ type: 'paragraph' as const, text: line, spans: [] }));
}

export interface MailAttachment {
  /** Free coins, a positive whole number. */
  coins: number;
  /** The last instant the member may claim; null: no deadline. */
  claimUntil: Date | null;
  /** The wallet reason of the grant (default 'mail_attachment'): 'level_up', 'rank_reward', 'invitation'… */
  reason?: string;
}

export interface MemberNotice {
  memberId: string;
  category: MailCategory;
  /** One mail per (member, key): e.g. `level-up:12`, `purchase:<order id>`, `welcome`. */
  dedupeKey: string;
  subject: string;
  body: RichText | string;
  attachment?: MailAttachment | null;
  /** When the member sees it (default now). */
  sendAt?: Date;
  /**
   * Also an email to a member who opted in (the generic 'mailbox-notice': the subject and a link to the
   * mail), queued by the `mailbox.email-notices` job within a minute; default true. `false` where the sender
   * mails about it by itself (shipping does for its own notices).
   */
  email?: boolean;
}

/** Broadcasts older than this are not looked at for a member's list and count (they have had their time). */
export const BROADCAST_WINDOW_DAYS = 180;

/** The member's page of one mail, as links in emails name it. */
export const mailPagePath = (mailId: number) => `/myinbox/mail/${mailId}`;

/**
 * The one notification interface: writes a personal mail in the caller's transaction, once per
 * (member, dedupeKey); a repeat (a retried job, a second instance) writes nothing and answers the first.
 * @example await notifyMember(tx, { memberId, category: 'level_up', dedupeKey: 'level-up:5', subject: 'レベル5になりました', body: '…', attachment: { coins: 100, claimUntil, reason: 'level_up' } })
 */
export async function notifyMember(db: Database, notice: MemberNotice): Promise<{ mailId: number; created: boolean }> {
  const attachment = notice.attachment ?? null;
  if (attachment && (!Number.isSafeInteger(attachment.coins) || attachment.coins <= 0))
    throw new RangeError('attachment coins must be a positive integer');
  const [row] = await db
    .insert(mails)
    .values({
      audience: 'personal',
      memberId: notice.memberId,
      category: notice.category,
      subject: notice.subject,
      body: typeof notice.body === 'string' ? plainText(notice.body) : notice.body,
      attachmentCoins: attachment?.coins ?? null,
      claimUntil: attachment?.claimUntil ?? null,
      attachmentReason: attachment ? (attachment.reason ?? MAIL_ATTACHMENT_REASON) : null,
      dedupeKey: notice.dedupeKey,
      sendAt: notice.sendAt ?? new Date(),
      emailPending: notice.email !== false,
    })
    .onConflictDoNothing({ target: [mails.memberId, mails.dedupeKey] })
    .returning({ id: mails.id });
  if (row) return { mailId: row.id, created: true };
  const [first] = await db
    .select({ id: mails.id })
    .from(mails)
    .where(and(eq(mails.memberId, notice.memberId), eq(mails.dedupeKey, notice.dedupeKey)));
  return { mailId: first!.id, created: false };
}

/**
 * Job `mailbox.email-notices`: for each personal mail still to be decided (oldest first, `limit` a run), queues
 * the generic email when the member has opted in and has an address, and clears the mark, in one transaction
 * per batch; rows are claimed with SKIP LOCKED, so concurrent runs and instances mail each once.
 * A scheduled mail waits for its send time. Answers how many mails were decided.
 * @example await sendPendingMailEmails(db, site, { limit: 200 }) // 3
 */
export async function sendPendingMailEmails(
  db: Database,
  site: SiteIdentity,
  options: { limit: number; now?: Date },
): Promise<number> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: mails.id, memberId: mails.memberId, subject: mails.subject, canceledAt: mails.canceledAt })
      .from(mails)
      .where(and(eq(mails.emailPending, true), lte(mails.sendAt, now)))
      .orderBy(mails.id)
      .limit(options.limit)
      .for('update', { skipLocked: true });
    for (const mail of due) {
      if (!mail.memberId || mail.canceledAt || !(await mailEmailOptIn(tx, mail.memberId))) continue;
      const contact = await memberContactOf(tx, mail.memberId);
      if (!contact?.email || contact.deleted) continue;
      await queueMail(tx, site, {
        to: contact.email,
        template: 'mailbox-notice',
        vars: { subject: mail.subject, url: `${site.origin.replace(/\/$/, '')}${mailPagePath(mail.id)}` },
        memberId: mail.memberId,
      });
    }
    if (due.length > 0)
      await tx
        .update(mails)
        .set({ emailPending: false })
        .where(
          inArray(
            mails.id,
            due.map((m) => m.id),
          ),
        );
    return due.length;
  });
}

/**
 * Whether a member belongs to a broadcast's segment as of its send time. 'all' is answered here (members
 * who had joined when it was sent); the other segments need other modules' data (rank, genre purchases,
 * activity) and are answered by the matcher the composition layer passes in.
 */
export type SegmentMatcher = (
  db: Database,
  memberId: string,
  segments: { segment: MailSegment; sendAt: Date }[],
) => Promise<boolean[]>;

/** Answers only 'all'; any other segment does not match (a caller that sends them passes a full matcher). */
export const allMembersMatcher: SegmentMatcher = async (_db, _memberId, segments) =>
  segments.map(({ segment }) => segment.kind === 'all');

type MailRow = typeof mails.$inferSelect;

/** Broadcasts a member could see: sent, not canceled, sent after the member joined, in the window. */
async function broadcastsFor(db: Database, standing: MemberStanding, now: Date): Promise<MailRow[]> {
  const windowStart = new Date(now.getTime() - BROADCAST_WINDOW_DAYS * 86_400_000);
  const since = windowStart > standing.joinedAt ? windowStart : standing.joinedAt;
  return db
    .select()
    .from(mails)
    .where(
      and(eq(mails.audience, 'broadcast'), isNull(mails.canceledAt), lte(mails.sendAt, now), gt(mails.sendAt, since)),
    )
    .orderBy(desc(mails.sendAt), desc(mails.id));
}

async function visibleBroadcasts(
  db: Database,
  memberId: string,
  standing: MemberStanding,
  matcher: SegmentMatcher,
  now: Date,
): Promise<MailRow[]> {
  const candidates = await broadcastsFor(db, standing, now);
  if (candidates.length === 0) return [];
  const matches = await matcher(
    db,
    memberId,
    candidates.map((mail) => ({ segment: mail.segment ?? { kind: 'all' }, sendAt: mail.sendAt })),
  );
  return candidates.filter((_, i) => matches[i]);
}

export interface MailSummary {
  id: number;
  audience: 'personal' | 'broadcast';
  category: string;
  subject: string;
  sendAt: Date;
  read: boolean;
  attachment: { coins: number; claimUntil: Date | null; claimed: boolean; expired: boolean } | null;
}

export interface MailDetail extends MailSummary {
  body: RichText;
}

function summaryOf(mail: MailRow, state: { readAt: Date | null; claimedAt: Date | null } | undefined, now: Date) {
  return {
    id: mail.id,
    audience: mail.audience,
    category: mail.category,
    subject: mail.subject,
    sendAt: mail.sendAt,
    read: Boolean(state?.readAt),
    attachment:
      mail.attachmentCoins === null
        ? null
        : {
            coins: mail.attachmentCoins,
            claimUntil: mail.claimUntil,
            claimed: Boolean(state?.claimedAt),
            expired: mail.claimUntil !== null && mail.claimUntil.getTime() < now.getTime(),
          },
  } satisfies MailSummary;
}

async function statesOf(db: Database, memberId: string, mailIds: number[]) {
  if (mailIds.length === 0) return new Map<number, { readAt: Date | null; claimedAt: Date | null }>();
  const rows = await db
    .select({ mailId: mailStates.mailId, readAt: mailStates.readAt, claimedAt: mailStates.claimedAt })
    .from(mailStates)
    .where(and(eq(mailStates.memberId, memberId), inArray(mailStates.mailId, mailIds)));
  return new Map(rows.map((r) => [r.mailId, r]));
}

export interface MailboxOptions {
  matcher?: SegmentMatcher;
  now?: Date;
}

/**
 * The member's personal mails ('personal', keyset paged by id) or broadcasts ('broadcast'), newest first.
 * @example const page = await listMails(db, memberId, 'personal', { limit: 20 }) // { items, nextBefore }
 */
export async function listMails(
  db: Database,
  memberId: string,
  box: 'personal' | 'broadcast',
  page: { limit: number; before?: number },
  options: MailboxOptions = {},
): Promise<{ items: MailSummary[]; nextBefore: number | null }> {
  const now = options.now ?? new Date();
  let rows: MailRow[];
  if (box === 'personal') {
    rows = await db
      .select()
      .from(mails)
      .where(
        and(
          eq(mails.audience, 'personal'),
          eq(mails.memberId, memberId),
          isNull(mails.canceledAt),
          lte(mails.sendAt, now),
          page.before ? lt(mails.id, page.before) : undefined,
        ),
      )
      .orderBy(desc(mails.id))
      .limit(page.limit + 1);
  } else {
    const standing = await memberStandingOf(db, memberId, now);
    if (!standing) return { items: [], nextBefore: null };
    const all = await visibleBroadcasts(db, memberId, standing, options.matcher ?? allMembersMatcher, now);
    rows = all
      .sort((a, b) => b.id - a.id)
      .filter((m) => !page.before || m.id < page.before)
      .slice(0, page.limit + 1);
  }
  const shown = rows.slice(0, page.limit);
  const states = await statesOf(
    db,
    memberId,
    shown.map((m) => m.id),
  );
  return {
    items: shown.map((m) => summaryOf(m, states.get(m.id), now)),
    nextBefore: rows.length > page.limit ? shown[shown.length - 1]!.id : null,
  };
}

/** The mail if this member may see it now (their own personal mail, or a broadcast of their segment). */
async function mailFor(
  db: Database,
  memberId: string,
  mailId: number,
  options: MailboxOptions,
  now: Date,
): Promise<MailRow | null> {
  if (!Number.isSafeInteger(mailId) || mailId <= 0) return null;
  const [mail] = await db
    .select()
    .from(mails)
    .where(and(eq(mails.id, mailId), isNull(mails.canceledAt), lte(mails.sendAt, now)));
  if (!mail) return null;
  if (mail.audience === 'personal') return mail.memberId === memberId ? mail : null;
  const standing = await memberStandingOf(db, memberId, now);
  if (!standing || mail.sendAt.getTime() <= standing.joinedAt.getTime()) return null;
  if (mail.sendAt.getTime() <= now.getTime() - BROADCAST_WINDOW_DAYS * 86_400_000) return null;
  const [match] = await (options.matcher ?? allMembersMatcher)(db, memberId, [
    { segment: mail.segment ?? { kind: 'all' }, sendAt: mail.sendAt },
  ]);
  return match ? mail : null;
}

/**
 * Opens a mail: marks it read (creating the member's state row if it is the first time) and returns it;
 * null for a mail the member may not see (another's, a broadcast of another segment, unknown, scheduled).
 * @example const mail = await openMail(db, memberId, 42) // { subject, body, read: true, attachment, … }
 */
export async function openMail(
  db: Database,
  memberId: string,
  mailId: number,
  options: MailboxOptions = {},
): Promise<MailDetail | null> {
  const now = options.now ?? new Date();
  const mail = await mailFor(db, memberId, mailId, options, now);
  if (!mail) return null;
  const [state] = await db
    .insert(mailStates)
    .values({ mailId, memberId, readAt: now })
    .onConflictDoUpdate({
      target: [mailStates.mailId, mailStates.memberId],
      set: { readAt: sql`coalesce(${mailStates.readAt}, excluded.read_at)` },
    })
    .returning({ readAt: mailStates.readAt, claimedAt: mailStates.claimedAt });
  return { ...summaryOf(mail, state, now), body: mail.body };
}

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

/**
 * Unread mails (personal and broadcast) for the header's badge.
 * @example await unreadMailCount(db, memberId) // 3
 */
export async function unreadMailCount(db: Database, memberId: string, options: MailboxOptions = {}): Promise<number> {
  const now = options.now ?? new Date();
  const [personal] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mails)
    .leftJoin(mailStates, and(eq(mailStates.mailId, mails.id), eq(mailStates.memberId, memberId)))
    .where(
      and(
        eq(mails.audience, 'personal'),
        eq(mails.memberId, memberId),
        isNull(mails.canceledAt),
        lte(mails.sendAt, now),
        isNull(mailStates.readAt),
      ),
    );
  const standing = await memberStandingOf(db, memberId, now);
  if (!standing) return personal?.n ?? 0;
  const broadcasts = await visibleBroadcasts(db, memberId, standing, options.matcher ?? allMembersMatcher, now);
  const states = await statesOf(
    db,
    memberId,
    broadcasts.map((m) => m.id),
  );
  return (personal?.n ?? 0) + broadcasts.filter((m) => !states.get(m.id)?.readAt).length;
}

export {
  composeMail,
  cancelMail,
  listSentMails,
  MAIL_SEGMENT_KINDS,
  isScheduled,
  type MailDraft,
  type SentMail,
} from './operators';
export { claimedAttachments, type ClaimedAttachment } from './claims';
export { mailEmailOptIn, setMailEmailOptIn } from './preferences';
export { erasePersonalMailsOf } from './erasure';
export { mailboxSettings } from './settings';
export { MAIL_REFUSAL_WORDS } from './refusal-words';
