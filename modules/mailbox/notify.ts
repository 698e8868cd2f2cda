// Sending a member a mail (notifyMember, the one notification interface) and the emails that tell them.
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { Database } from '#db/client';
import type { RichText } from '#modules/content';
import { queueMail, type SiteIdentity } from '#modules/messaging';
import { memberContactOf } from '#modules/identity';
import { mails } from './schema';
import { mailEmailOptIn } from './preferences';

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
  // A beacon draw settled after its reveal stopped waiting (decision 081).
  'draw_settled',
  // The shop's closure and each refund's transfer (decision 085).
  'shop_closure',
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
