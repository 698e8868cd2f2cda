// The outbox: one row per mail or SMS to a member, rendered when queued (so the row shows exactly
// what was sent) and sent later by the `messaging.deliver` job. Private to the messaging module.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const messageChannels = ['mail', 'sms'] as const;
export type MessageChannel = (typeof messageChannels)[number];

/**
 * queued: waiting for its next attempt; sending: claimed by a deliver run until `next_attempt_at`
 * (the lease); sent: the transport accepted it; failed: gave up after the last attempt (kept);
 * held: no transport is configured for its channel (kept, shown at /dev/outbox, never sent).
 */
export const messageStatuses = ['queued', 'sending', 'sent', 'failed', 'held'] as const;
export type MessageStatus = (typeof messageStatuses)[number];

export const outboundMessages = pgTable(
  'outbound_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel').$type<MessageChannel>().notNull(),
    /** A mail address, or an E.164 phone number for SMS. */
    recipient: text('recipient').notNull(),
    template: text('template').notNull(),
    /** Mail only. */
    subject: text('subject'),
    /** The rendered bodies; null once the retention clean-up has blanked them (links carry one-time codes). */
    textBody: text('text_body'),
    /** Mail only. */
    htmlBody: text('html_body'),
    /** The member it was sent to, when known (no foreign key: identity's table is not ours). */
    memberId: text('member_id'),
    status: text('status').$type<MessageStatus>().notNull().default('queued'),
    /** Attempts started (a claim counts as one). */
    attempts: integer('attempts').notNull().default(0),
    /** queued: when it is due; sending: when the claim's lease ends. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** The deliver run holding the claim (only it may record the outcome). */
    claimToken: uuid('claim_token'),
    lastError: text('last_error'),
    /** What the transport answered: the SMTP Message-ID, Twilio's message SID. */
    providerMessageId: text('provider_message_id'),
    /** SMS: the last status Twilio's status callback reported (queued, sent, delivered, undelivered, failed…). */
    deliveryStatus: text('delivery_status'),
    deliveryUpdatedAt: timestamp('delivery_updated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When the retention clean-up blanked the bodies. */
    bodiesClearedAt: timestamp('bodies_cleared_at', { withTimezone: true }),
  },
  (t) => [
    check('outbound_messages_channel', sql`${t.channel} in ('mail', 'sms')`),
    check('outbound_messages_status', sql`${t.status} in ('queued', 'sending', 'sent', 'failed', 'held')`),
    check('outbound_messages_attempts', sql`${t.attempts} >= 0`),
    index('outbound_messages_due_idx').on(t.status, t.nextAttemptAt),
    index('outbound_messages_recipient_idx').on(t.recipient, t.createdAt),
    index('outbound_messages_provider_idx').on(t.providerMessageId),
    index('outbound_messages_created_idx').on(t.createdAt),
  ],
);
