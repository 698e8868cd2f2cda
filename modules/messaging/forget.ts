// 退会 in the outbox: the rows sent to a deleted member keep who/what/when/outcome, but no longer the
// address, the number or the text (docs/personal-data.md, decision 053). A message still on its way
// (the 'account-deleted' notice itself) is forgotten once it has been sent, by forgetSentMessagesOf.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { outboundMessages } from './schema';

/** The recipient a forgotten message keeps: unique per member, on a domain no mail reaches (RFC 6761). */
export const forgottenRecipientOf = (memberId: string) => `deleted-${memberId}@invalid`;

/** What a forgotten row becomes: no recipient, subject, bodies or error text (which may quote the address). */
const forgotten = (memberId: string, now: Date) => ({
  recipient: forgottenRecipientOf(memberId),
  subject: null,
  textBody: null,
  htmlBody: null,
  lastError: null,
  memberId,
  bodiesClearedAt: now,
});

/** Messages whose sending is over (nothing will read their recipient again). */
const FINISHED = ['sent', 'held', 'failed'] as const;

/**
 * In the deletion's transaction: forgets every finished message to the member (by member id, or by
 * one of `recipients`: the address and the number, as given or in lower case), and marks messages still
 * queued or sending to those recipients as the member's, so that forgetSentMessagesOf finds them
 * once they are sent. Answers how many rows were forgotten now and how many wait.
 * @example await forgetMessagesTo(tx, { memberId, recipients: ['a@example.jp', '+819012345678'], now })
 */
export async function forgetMessagesTo(
  tx: Database,
  input: { memberId: string; recipients: readonly string[]; now: Date },
): Promise<{ forgotten: number; waiting: number }> {
  // As given and in lower case: `recipient` is indexed as written, and the outbox only grows.
  const recipients = [...new Set(input.recipients.flatMap((value) => [value, value.toLowerCase()]))];
  const theMembers = recipients.length
    ? or(eq(outboundMessages.memberId, input.memberId), inArray(outboundMessages.recipient, recipients))
    : eq(outboundMessages.memberId, input.memberId);
  const done = await tx
    .update(outboundMessages)
    .set(forgotten(input.memberId, input.now))
    .where(and(theMembers, inArray(outboundMessages.status, FINISHED)))
    .returning({ id: outboundMessages.id });
  const waiting = await tx
    .update(outboundMessages)
    .set({ memberId: input.memberId })
    .where(and(theMembers, inArray(outboundMessages.status, ['queued', 'sending'])))
    .returning({ id: outboundMessages.id });
  return { forgotten: done.length, waiting: waiting.length };
}

/**
 * After the deletion: forgets the member's messages that have finished since (the notice, once the
 * deliver job sent it). Idempotent; a forgotten row is not matched again. Answers the rows forgotten.
 * @example for (const id of await recentlyDeletedMembers(db, since)) await forgetSentMessagesOf(db, id, new Date())
 */
export async function forgetSentMessagesOf(db: Database, memberId: string, now: Date): Promise<number> {
  const rows = await db
    .update(outboundMessages)
    .set(forgotten(memberId, now))
    .where(
      and(
        eq(outboundMessages.memberId, memberId),
        inArray(outboundMessages.status, FINISHED),
        sql`${outboundMessages.recipient} <> ${forgottenRecipientOf(memberId)}`,
      ),
    )
    .returning({ id: outboundMessages.id });
  return rows.length;
}
