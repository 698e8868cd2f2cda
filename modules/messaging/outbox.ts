// Queueing, delivering and reading the outbox (schema.ts). Messages are written in the caller's
// transaction and sent by the deliver job, never inline: a failed send retries with backoff and a
// message is never lost (it ends as sent, failed or held, and its row stays).
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { outboundMessages, type MessageChannel, type MessageStatus } from './schema';
import { renderMail, renderSms, type MailTemplate, type SiteIdentity, type SmsTemplate } from './templates';

/** The NOTIFY channel a queued message is announced on (at commit), so the deliver job runs at once. */
export const OUTBOX_CHANNEL = 'messaging_outbox';
/** Attempts before a message is given up as failed (it stays in the outbox). */
export const MESSAGE_MAX_ATTEMPTS = 8;
/** How long a deliver run holds a claimed message before another run may take it again. */
export const MESSAGE_LEASE_SECONDS = 600;
/** The wait before attempt n+1 after n failed ones: 30 s, doubling, at most an hour. */
export function retryDelaySeconds(failedAttempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, failedAttempts - 1), 3600);
}

/** Sends mail. Throws to fail the attempt; a `DeliveryError` with `permanent` gives up at once. */
export interface Mailer {
  send(mail: { id: string; to: string; subject: string; text: string; html: string }): Promise<{ providerId: string }>;
}
/** Sends SMS (Twilio's adapter, or a test's). */
export interface SmsProvider {
  send(to: string, body: string): Promise<{ providerId: string }>;
}
/** The transports configured; a channel without one keeps its messages `held`. */
export interface MessageTransports {
  mail?: Mailer;
  sms?: SmsProvider;
}

/** A transport's refusal; `permanent` (a rejected address, an invalid number) is not retried. */
export class DeliveryError extends Error {
  readonly permanent: boolean;
  constructor(message: string, options: { permanent: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'DeliveryError';
    this.permanent = options.permanent;
  }
}

/** A mail address a message may go to: one address, no spaces, quotes or header breaks. */
export function isMailRecipient(to: string): boolean {
  return to.length <= 254 && /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/.test(to);
}
/** An SMS number in E.164 form, e.g. +819012345678. */
export function isSmsRecipient(to: string): boolean {
  return /^\+[1-9]\d{7,14}$/.test(to);
}

async function insertMessage(
  db: Database,
  row: {
    channel: MessageChannel;
    recipient: string;
    template: string;
    subject: string | null;
    textBody: string;
    htmlBody: string | null;
    memberId: string | null;
  },
): Promise<{ id: string }> {
  const [inserted] = await db.insert(outboundMessages).values(row).returning({ id: outboundMessages.id });
  // Delivered to listeners when the caller's transaction commits (never for a rolled-back message).
  await db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${inserted!.id})`);
  return { id: inserted!.id };
}

/**
 * Renders a mail and writes it to the outbox in the caller's transaction (db may be one); the
 * deliver job sends it. Throws a RangeError for a bad address, template or variable (a caller's bug).
 * @example await queueMail(tx, site, { to: 'member@example.jp', template: 'password-reset', vars: { url } })
 */
export async function queueMail(
  db: Database,
  site: SiteIdentity,
  mail: { to: string; template: MailTemplate; vars: Record<string, string>; memberId?: string | null },
): Promise<{ id: string }> {
  if (!isMailRecipient(mail.to)) throw new RangeError('messaging: queueMail needs one mail address in `to`');
  const rendered = renderMail(mail.template, mail.vars, site);
  return insertMessage(db, {
    channel: 'mail',
    recipient: mail.to,
    template: mail.template,
    subject: rendered.subject,
    textBody: rendered.text,
    htmlBody: rendered.html,
    memberId: mail.memberId ?? null,
  });
}

/**
 * Renders an SMS and writes it to the outbox in the caller's transaction; the deliver job sends it.
 * @example await queueSms(tx, site, { to: '+819012345678', template: 'phone-code', vars: { code: '123456', minutes: '10' } })
 */
export async function queueSms(
  db: Database,
  site: SiteIdentity,
  sms: { to: string; template: SmsTemplate; vars: Record<string, string>; memberId?: string | null },
): Promise<{ id: string }> {
  if (!isSmsRecipient(sms.to)) throw new RangeError('messaging: queueSms needs an E.164 number in `to`');
  return insertMessage(db, {
    channel: 'sms',
    recipient: sms.to,
    template: sms.template,
    subject: null,
    textBody: renderSms(sms.template, sms.vars, site),
    htmlBody: null,
    memberId: sms.memberId ?? null,
  });
}

export interface DeliveryReport {
  sent: number;
  /** Attempts that failed and will be retried. */
  retried: number;
  /** Messages given up (last attempt, or a permanent refusal). */
  failed: number;
  /** Messages of a channel without a transport, set aside as held. */
  held: number;
}

interface ClaimedRow extends Record<string, unknown> {
  id: string;
  channel: MessageChannel;
  recipient: string;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  attempts: number;
}

const iso = (date: Date) => date.toISOString();

/**
 * The deliver job's work: sets aside as held what no transport can send, then claims due messages
 * one at a time (FOR UPDATE SKIP LOCKED, and a lease: `sending` until now + MESSAGE_LEASE_SECONDS,
 * so a concurrent run on another instance never takes the same message) and sends each. A failed
 * attempt is queued again after `retryDelaySeconds`, up to MESSAGE_MAX_ATTEMPTS, then `failed`.
 * Only the run holding the claim records the outcome. A run that dies mid-send leaves its message
 * `sending` until the lease ends; it is then retried (the one case where a message may go twice).
 * @example await deliverDueMessages(db, { mail: smtpMailer }, { now: new Date(), limit: 100 })
 */
export async function deliverDueMessages(
  db: Database,
  transports: MessageTransports,
  options: { now: Date; limit: number },
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retried: 0, failed: 0, held: 0 };
  const channels = (['mail', 'sms'] as const).filter((channel) => transports[channel]);
  const unsent = (['mail', 'sms'] as const).filter((channel) => !transports[channel]);
  if (unsent.length > 0) {
    const held = await db
      .update(outboundMessages)
      .set({ status: 'held', claimToken: null })
      .where(and(eq(outboundMessages.status, 'queued'), inArray(outboundMessages.channel, unsent)))
      .returning({ id: outboundMessages.id });
    report.held = held.length;
  }
  if (channels.length === 0) return report;

  const started = Date.now();
  for (let handled = 0; handled < options.limit; handled++) {
    const token = randomUUID();
    // The run's clock: `now` as given (tests move it), advancing with the time the run has taken.
    const now = new Date(options.now.getTime() + (Date.now() - started));
    const leaseEnd = new Date(now.getTime() + MESSAGE_LEASE_SECONDS * 1000);
    const [message] = await queryRows<ClaimedRow>(
      db,
      sql`update outbound_messages
             set status = 'sending', attempts = attempts + 1, claim_token = ${token}::uuid,
                 next_attempt_at = ${iso(leaseEnd)}::timestamptz
           where id = (select id from outbound_messages
                        where status in ('queued', 'sending')
                          and next_attempt_at <= ${iso(now)}::timestamptz
                          and channel in (${sql.join(
                            channels.map((channel) => sql`${channel}`),
                            sql`, `,
                          )})
                        order by next_attempt_at, created_at
                        limit 1
                        for update skip locked)
       returning id, channel, recipient, subject, text_body, html_body, attempts`,
    );
    if (!message) break;
    const mine = and(eq(outboundMessages.id, message.id), eq(outboundMessages.claimToken, token));
    try {
      const { providerId } = await send(transports, message);
      await db
        .update(outboundMessages)
        .set({ status: 'sent', sentAt: new Date(), providerMessageId: providerId, claimToken: null, lastError: null })
        .where(mine);
      report.sent++;
    } catch (error) {
      const permanent = error instanceof DeliveryError && error.permanent;
      const giveUp = permanent || message.attempts >= MESSAGE_MAX_ATTEMPTS;
      const lastError = describeError(error);
      await db
        .update(outboundMessages)
        .set(
          giveUp
            ? { status: 'failed', claimToken: null, lastError }
            : {
                status: 'queued',
                claimToken: null,
                lastError,
                nextAttemptAt: new Date(now.getTime() + retryDelaySeconds(message.attempts) * 1000),
              },
        )
        .where(mine);
      if (giveUp) report.failed++;
      else report.retried++;
    }
  }
  return report;
}

async function send(transports: MessageTransports, message: ClaimedRow): Promise<{ providerId: string }> {
  if (message.text_body === null) throw new DeliveryError('the body was cleared before sending', { permanent: true });
  if (message.channel === 'mail') {
    return transports.mail!.send({
      id: message.id,
      to: message.recipient,
      subject: message.subject ?? '',
      text: message.text_body,
      html: message.html_body ?? '',
    });
  }
  return transports.sms!.send(message.recipient, message.text_body);
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 1000);
}

/**
 * The retention clean-up: blanks the bodies (links and codes) of sent, held and failed messages
 * created more than `retentionDays` ago; queued and sending messages are never touched.
 * @example await clearOldMessageBodies(db, { retentionDays: 7, now: new Date() })
 */
export async function clearOldMessageBodies(
  db: Database,
  options: { retentionDays: number; now: Date },
): Promise<number> {
  if (!Number.isInteger(options.retentionDays) || options.retentionDays < 1)
    throw new RangeError('clearOldMessageBodies: retentionDays must be a whole number of days, at least 1');
  const cutoff = new Date(options.now.getTime() - options.retentionDays * 86_400_000);
  const cleared = await db
    .update(outboundMessages)
    .set({ textBody: null, htmlBody: null, bodiesClearedAt: options.now })
    .where(
      and(
        inArray(outboundMessages.status, ['sent', 'held', 'failed']),
        lt(outboundMessages.createdAt, cutoff),
        isNull(outboundMessages.bodiesClearedAt),
      ),
    )
    .returning({ id: outboundMessages.id });
  return cleared.length;
}

/** A message as the outbox shows it (/dev/outbox, tests). */
export interface OutboxEntry {
  id: string;
  channel: MessageChannel;
  to: string;
  template: string;
  subject: string | null;
  /** null once the retention clean-up blanked it. */
  text: string | null;
  html: string | null;
  memberId: string | null;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  providerMessageId: string | null;
  deliveryStatus: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/**
 * The newest messages, newest first, for one recipient or all.
 * @example const [latest] = await recentMessages(db, { to: 'member@example.jp', limit: 1 })
 */
export async function recentMessages(db: Database, options: { to?: string; limit: number }): Promise<OutboxEntry[]> {
  const rows = await db
    .select()
    .from(outboundMessages)
    .where(options.to === undefined ? undefined : eq(outboundMessages.recipient, options.to))
    .orderBy(desc(outboundMessages.createdAt), desc(outboundMessages.id))
    .limit(Math.max(1, Math.min(options.limit, 500)));
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    to: row.recipient,
    template: row.template,
    subject: row.subject,
    text: row.textBody,
    html: row.htmlBody,
    memberId: row.memberId,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    providerMessageId: row.providerMessageId,
    deliveryStatus: row.deliveryStatus,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
  }));
}

/** Twilio's message statuses in the order they happen; a late callback never moves one back. */
const DELIVERY_STATUS_RANK: Record<string, number> = {
  accepted: 0,
  scheduled: 0,
  queued: 1,
  sending: 2,
  sent: 3,
  delivered: 4,
  undelivered: 4,
  failed: 4,
  read: 5,
  canceled: 4,
};

/**
 * Records what the SMS provider's status callback reported for the message it sent as
 * `providerMessageId`. Answers false when no message has that id (or the status is older than the
 * one recorded).
 * @example await recordDeliveryStatus(db, { providerMessageId: 'SM…', status: 'delivered', now })
 */
export async function recordDeliveryStatus(
  db: Database,
  update: { providerMessageId: string; status: string; errorCode?: string | null; now: Date },
): Promise<boolean> {
  const status = update.status.toLowerCase();
  if (!/^[a-z_-]{1,32}$/.test(status)) throw new RangeError('recordDeliveryStatus: unreadable status');
  const rank = DELIVERY_STATUS_RANK[status] ?? 0;
  const known = Object.entries(DELIVERY_STATUS_RANK);
  const currentRank = sql`case ${outboundMessages.deliveryStatus} ${sql.join(
    known.map(([name, value]) => sql`when ${name} then ${value}::int`),
    sql` `,
  )} else -1 end`;
  const errorCode = update.errorCode?.replace(/[^\w-]/g, '').slice(0, 16);
  const updated = await db
    .update(outboundMessages)
    .set({
      deliveryStatus: status,
      deliveryUpdatedAt: update.now,
      ...(errorCode ? { lastError: `SMS provider error ${errorCode}` } : {}),
    })
    .where(
      and(
        eq(outboundMessages.providerMessageId, update.providerMessageId),
        eq(outboundMessages.channel, 'sms'),
        sql`(${outboundMessages.deliveryStatus} is null or ${currentRank} <= ${rank}::int)`,
      ),
    )
    .returning({ id: outboundMessages.id });
  return updated.length > 0;
}
