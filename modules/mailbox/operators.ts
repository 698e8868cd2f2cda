// What operators do with the mailbox (docs/decisions/034): compose a personal mail or a broadcast (one
// row whatever its audience), schedule it by its send time, withdraw it, and see who read and claimed.
// The admin layer wraps each in its audited transaction (runAdminAction with 'mail:write').
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Outcome } from '#modules/kernel';
import type { RichText } from '#modules/content';
import { mails, mailStates, type MailSegment } from './schema';
import { MAIL_ATTACHMENT_REASON, type MailAttachment, type MailRefusalCode } from './notify';

export const MAIL_SEGMENT_KINDS = ['all', 'rank', 'genre_buyers', 'inactive'] as const;

export interface MailDraft {
  to: { audience: 'personal'; memberId: string } | { audience: 'broadcast'; segment: MailSegment };
  subject: string;
  body: RichText;
  attachment: Omit<MailAttachment, 'reason'> | null;
  /** Now, or later for a scheduled mail. */
  sendAt: Date;
  /** The operator's label (audit and list). */
  createdBy: string;
}

/**
 * Writes an operator's mail: one row, for one member or a whole segment (members' state rows appear
 * only when they read or claim). The caller has checked the words; coins must be whole and positive.
 * @example const { mailId } = await composeMail(tx, { to: { audience: 'broadcast', segment: { kind: 'all' } }, subject, body, attachment: null, sendAt: new Date(), createdBy: 'admin@example.jp' })
 */
export async function composeMail(tx: Database, draft: MailDraft): Promise<{ mailId: number }> {
  const attachment = draft.attachment;
  if (attachment && (!Number.isSafeInteger(attachment.coins) || attachment.coins <= 0))
    throw new RangeError('attachment coins must be a positive integer');
  const [row] = await tx
    .insert(mails)
    .values({
      audience: draft.to.audience,
      emailPending: draft.to.audience === 'personal',
      memberId: draft.to.audience === 'personal' ? draft.to.memberId : null,
      segment: draft.to.audience === 'broadcast' ? draft.to.segment : null,
      category: 'operator',
      subject: draft.subject,
      body: draft.body,
      attachmentCoins: attachment?.coins ?? null,
      claimUntil: attachment?.claimUntil ?? null,
      attachmentReason: attachment ? MAIL_ATTACHMENT_REASON : null,
      sendAt: draft.sendAt,
      createdBy: draft.createdBy,
    })
    .returning({ id: mails.id });
  return { mailId: row!.id };
}

/**
 * Withdraws an operator's mail, scheduled or sent: members no longer see it (claims already made stand).
 * @example await cancelMail(tx, 42) // { ok: true, mailId: 42 }
 */
export async function cancelMail(
  tx: Database,
  mailId: number,
  now = new Date(),
): Promise<Outcome<{ ok: true; mailId: number }, MailRefusalCode>> {
  if (!Number.isSafeInteger(mailId) || mailId <= 0) return refuse('MAIL_NOT_FOUND');
  const [mail] = await tx
    .select({ canceledAt: mails.canceledAt })
    .from(mails)
    .where(and(eq(mails.id, mailId), eq(mails.category, 'operator')))
    .for('update');
  if (!mail) return refuse('MAIL_NOT_FOUND');
  if (mail.canceledAt) return refuse('MAIL_ALREADY_CANCELED');
  await tx.update(mails).set({ canceledAt: now }).where(eq(mails.id, mailId));
  return { ok: true as const, mailId };
}

export interface SentMail {
  id: number;
  audience: 'personal' | 'broadcast';
  memberId: string | null;
  segment: MailSegment | null;
  subject: string;
  attachmentCoins: number | null;
  claimUntil: Date | null;
  sendAt: Date;
  canceledAt: Date | null;
  createdBy: string | null;
  /** Members who opened it / claimed its attachment (for a broadcast: its state rows). */
  reads: number;
  claims: number;
}

/**
 * Operators' mails, newest first, with read and claim counts (keyset on the id).
 * @example const page = await listSentMails(db, { limit: 50 })
 */
export async function listSentMails(
  db: Database,
  page: { limit: number; before?: number },
): Promise<{ items: SentMail[]; nextBefore: number | null }> {
  const rows = await db
    .select({
      id: mails.id,
      audience: mails.audience,
      memberId: mails.memberId,
      segment: mails.segment,
      subject: mails.subject,
      attachmentCoins: mails.attachmentCoins,
      claimUntil: mails.claimUntil,
      sendAt: mails.sendAt,
      canceledAt: mails.canceledAt,
      createdBy: mails.createdBy,
      reads: sql<number>`(select count(*)::int from ${mailStates} where ${mailStates.mailId} = ${mails.id} and ${mailStates.readAt} is not null)`,
      claims: sql<number>`(select count(*)::int from ${mailStates} where ${mailStates.mailId} = ${mails.id} and ${mailStates.claimedAt} is not null)`,
    })
    .from(mails)
    .where(and(eq(mails.category, 'operator'), page.before ? lt(mails.id, page.before) : undefined))
    .orderBy(desc(mails.id))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit).map((r) => ({ ...r, reads: Number(r.reads), claims: Number(r.claims) }));
  return { items, nextBefore: rows.length > page.limit ? items.at(-1)!.id : null };
}

/** Scheduled operator mails not yet sent nor withdrawn (the admin list marks them 予約). */
export const isScheduled = (mail: Pick<SentMail, 'sendAt' | 'canceledAt'>, now = new Date()) =>
  mail.canceledAt === null && mail.sendAt.getTime() > now.getTime();
