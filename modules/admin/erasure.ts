// 退会 in the operators' records: staff notes on a member stay (fraud and dispute history), with the
// member's identifiers redacted. The audit log is append-only and is never rewritten: it names members
// by id, writes no address, number or message text into it, and keeps staff's free text about a member
// only as a digest (decision 053; docs/personal-data.md).
import { and, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { mentions, redactedText } from '#db/redact';
import { memberNotes } from './schema';

/**
 * In the deletion's transaction: redacts the member's identifiers in the staff's notes about them.
 * @example await redactMemberNotesOf(tx, { memberId, spellings })
 */
export async function redactMemberNotesOf(
  tx: Database,
  member: { memberId: string; spellings: readonly string[] },
): Promise<number> {
  const rows = await tx
    .update(memberNotes)
    .set({ text: redactedText(memberNotes.text, member.spellings) })
    .where(and(eq(memberNotes.memberId, member.memberId), mentions(memberNotes.text, member.spellings)))
    .returning({ id: memberNotes.id });
  return rows.length;
}
