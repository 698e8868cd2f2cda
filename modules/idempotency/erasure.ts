// 退会 in the idempotency store: a stored answer may repeat what the member sent (an address's
// label, a request's body), and a deleted member never retries, so their keys go at once.
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { idempotentRequests } from './schema';

/**
 * In the deletion's transaction: forgets every stored answer of the member. Answers the keys forgotten.
 * @example await forgetMemberKeys(tx, memberId)
 */
export async function forgetMemberKeys(tx: Database, memberId: string): Promise<number> {
  const rows = await tx
    .delete(idempotentRequests)
    .where(eq(idempotentRequests.memberId, memberId))
    .returning({ key: idempotentRequests.key });
  return rows.length;
}
