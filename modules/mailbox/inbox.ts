// The member's inbox: the list, one mail opened, the unread count for the header's badge.
import { and, desc, eq, isNull, lt, lte, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { memberStandingOf } from '#modules/identity';
import { mails, mailStates, type MailSegment } from './schema';
import {
  type MailboxOptions,
  type MailSummary,
  type MailRow,
  visibleBroadcasts,
  allMembersMatcher,
  BROADCAST_WINDOW_DAYS,
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
export async function unreadMailCount(
  db: Database,
  memberId: string,
  options: MailboxOptions & {
    /** When the member joined, if the caller knows it (the session does): saves reading their standing. */
    joinedAt?: Date | null;
  } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const joinedAt = options.joinedAt ?? (await memberStandingOf(db, memberId, now))?.joinedAt ?? null;
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - BROADCAST_WINDOW_DAYS * 86_400_000);
  const since = joinedAt && joinedAt > windowStart ? joinedAt : windowStart;
  // One statement for the header's badge on every page (issue 32): the unread personal mails, and the unread
  // broadcasts the member could see (sent after they joined, within the window; none for an unknown member).
  // Segments are matched below, only when there is an unread broadcast at all.
  const [row] = await queryRows<{
    personal: number;
    broadcasts: { segment: MailSegment | null; sendAt: string }[] | string | null;
  }>(
    db,
    sql`select
          (select count(*)::int from ${mails} m
             left join ${mailStates} s on s.mail_id = m.id and s.member_id = ${memberId}
           where m.audience = 'personal' and m.member_id = ${memberId} and m.canceled_at is null
             and m.send_at <= ${at}::timestamptz and s.read_at is null) as personal,
          (select json_agg(json_build_object('segment', b.segment, 'sendAt', b.send_at)) from ${mails} b
             left join ${mailStates} bs on bs.mail_id = b.id and bs.member_id = ${memberId}
           where ${joinedAt !== null}::boolean and b.audience = 'broadcast' and b.canceled_at is null
             and b.send_at <= ${at}::timestamptz and b.send_at > ${since.toISOString()}::timestamptz
             and bs.read_at is null) as broadcasts`,
  );
  const personal = Number(row?.personal ?? 0);
  const unread = typeof row?.broadcasts === 'string' ? JSON.parse(row.broadcasts) : (row?.broadcasts ?? []);
  const broadcasts = unread as { segment: MailSegment | null; sendAt: string }[];
  if (broadcasts.length === 0) return personal;
  const matches = await (options.matcher ?? allMembersMatcher)(
    db,
    memberId,
    broadcasts.map((b) => ({ segment: b.segment ?? { kind: 'all' }, sendAt: new Date(b.sendAt) })),
  );
  return personal + matches.filter(Boolean).length;
}
