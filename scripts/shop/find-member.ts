// The member an operator names by id or email, or a refusal that says who was not found.
import type { Database } from '#db/client';
import { findMemberByIdOrEmail } from '#modules/identity';
import { UsageError } from './args';

/** @example const member = await findMember(db, 'a@example.com') */
export async function findMember(db: Database, idOrEmail: string): Promise<{ id: string; role: string }> {
  const member = await findMemberByIdOrEmail(db, idOrEmail);
  if (!member) throw new UsageError(`会員 ${idOrEmail} が見つかりません。`);
  return member;
}
