// Which mails a member sees: their own personal mails and the broadcasts of their segment, in the window.
import { and, desc, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import type { Database } from '#db/client';
import { memberStandingOf, type MemberStanding } from '#modules/identity';
import type { RichText } from '#modules/content';
import { mails, mailStates, type MailSegment } from './schema';

/** Broadcasts older than this are not looked at for a member's list and count (they have had their time). */
export const BROADCAST_WINDOW_DAYS = 180;

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

export type MailRow = typeof mails.$inferSelect;

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

export async function visibleBroadcasts(
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

export function summaryOf(
  mail: MailRow,
  state: { readAt: Date | null; claimedAt: Date | null } | undefined,
  now: Date,
) {
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

export async function statesOf(db: Database, memberId: string, mailIds: number[]) {
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

/** The mail if this member may see it now (their own personal mail, or a broadcast of their segment). */
export async function mailFor(
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
