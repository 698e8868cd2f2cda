// 退会 in the mailbox: a personal mail is written to one member (it may name them: 「山田様へのご連絡」), so
// its subject and body go; the row stays (a present in it is a ledger grant, and the claim rows and the
// operators' list refer to it). Broadcasts are the shop's messages to everyone and stay as they are.
import { and, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { ERASED_MARK } from '#db/redact';
import { mails } from './schema';
import { plainText } from './notify';

/**
 * In the deletion's transaction: replaces the subject and body of every personal mail to the member by
 * 〔退会により削除〕. Answers the mails changed.
 * @example await erasePersonalMailsOf(tx, memberId)
 */
export async function erasePersonalMailsOf(tx: Database, memberId: string): Promise<number> {
  const rows = await tx
    .update(mails)
    .set({ subject: ERASED_MARK, body: plainText(ERASED_MARK) })
    .where(and(eq(mails.audience, 'personal'), eq(mails.memberId, memberId)))
    .returning({ id: mails.id });
  return rows.length;
}
