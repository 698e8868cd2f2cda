// Members for the operators' CSV export (personal data: the export itself is audited by the caller):
// one batch at a time in id order (keyset), constant memory.
import { asc, gt } from 'drizzle-orm';
import type { Database } from '#db/client';
import { users } from './schema';

/** Up to `limit` members after member `afterId` (id order). @example await membersExportBatch(db, '', 5000) */
export async function membersExportBatch(db: Database, afterId: string, limit: number) {
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      phoneNumber: users.phoneNumber,
      role: users.role,
      banned: users.banned,
      deletedAt: users.deletedAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(afterId ? gt(users.id, afterId) : undefined)
    .orderBy(asc(users.id))
    .limit(limit);
}
