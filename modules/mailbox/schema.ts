// The mailbox's tables (docs/decisions/034): one row per mail, personal or broadcast, and one row of
// state per member and mail, written lazily (on first read or claim), so a broadcast to a million
// members is one insert at send time.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import type { RichText } from '#modules/content';

/** Who a broadcast is for, judged as of its send time (docs/decisions/034). */
export type MailSegment =
  | { kind: 'all' }
  | { kind: 'rank'; minRank: number }
  | { kind: 'genre_buyers'; genreId: string }
  | { kind: 'inactive'; days: number };

export const mails = pgTable(
  'mails',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'personal' (member_id set) or 'broadcast' (segment set). */
    audience: text('audience').$type<'personal' | 'broadcast'>().notNull(),
    memberId: text('member_id'),
    segment: jsonb('segment').$type<MailSegment>(),
    /** What sent it: 'operator', or a system kind ('welcome', 'level_up', 'rank_up', 'invitation', …). */
    category: text('category').notNull(),
    subject: text('subject').notNull(),
    /** Structured rich text (Prismic's shape), rendered element by element, never as HTML. */
    body: jsonb('body').$type<RichText>().notNull(),
    /** Free coins the member may claim once, before claim_until (null: no deadline). */
    attachmentCoins: integer('attachment_coins'),
    claimUntil: timestamp('claim_until', { withTimezone: true }),
    /** The wallet's reason for the attachment's grant (LEDGER_REASON_LABELS). */
    attachmentReason: text('attachment_reason'),
    /** A system mail's key: one mail per (member, key), whatever the concurrency or the retries. */
    dedupeKey: text('dedupe_key'),
    /** Members see the mail from this instant (a scheduled mail waits). */
    sendAt: timestamp('send_at', { withTimezone: true }).notNull().defaultNow(),
    /** An operator withdrew it before or after sending: members no longer see it. */
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /**
     * An email to an opted-in member is still to be decided (the `mailbox.email-notices` job queues it, or
     * not, and clears this in one transaction): every personal mail whose sender does not mail by itself.
     */
    emailPending: boolean('email_pending').notNull().default(false),
    /** The staff member who composed it; null for system mails. */
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('mails_member_dedupe').on(t.memberId, t.dedupeKey),
    index('mails_personal_idx')
      .on(t.memberId, t.id.desc())
      .where(sql`${t.audience} = 'personal'`),
    index('mails_email_pending_idx')
      .on(t.id)
      .where(sql`${t.emailPending}`),
    index('mails_broadcast_idx')
      .on(t.sendAt.desc())
      .where(sql`${t.audience} = 'broadcast'`),
  ],
);

/** A member's state for one mail, created on first read or claim (absent: unread, unclaimed). */
export const mailStates = pgTable(
  'mail_states',
  {
    mailId: bigint('mail_id', { mode: 'number' }).notNull(),
    memberId: text('member_id').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** The wallet grant of the claim (key mail:<mail>:<member>), set in the claim's transaction. */
    grantId: bigint('grant_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.mailId, t.memberId] }),
    index('mail_states_member_idx').on(t.memberId),
    // The member's claimed attachments, newest first (/myinbox/bonus/logs).
    index('mail_states_claimed_idx')
      .on(t.memberId, t.claimedAt.desc())
      .where(sql`${t.claimedAt} is not null`),
  ],
);

/** A member's choice to get an email as well when a system mail arrives (off unless chosen). */
export const mailPreferences = pgTable('mail_preferences', {
  memberId: text('member_id').primaryKey(),
  emailOptIn: boolean('email_opt_in').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
