// The member's inbox: the list, one mail opened, the unread count for the header's badge.
import { and, desc, eq, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { memberStandingOf } from '#modules/identity';
import { mails, mailStates } from './schema';
import {
  type MailboxOptions,
  type MailSummary,
  type MailRow,
  visibleBroadcasts,
  allMembersMatcher,
  statesOf,
  summaryOf,
  type MailDetail,
  mailFor,
} from './visibility';

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
