// Public nicknames for boards that name members (rankings): never an email, masked when there is no nickname.
import { inArray } from 'drizzle-orm';
import type { Database } from '#db/client';
import { users } from './schema';

/** How a deleted member (退会) appears on public boards: never the old nickname. */
export const DELETED_MEMBER_PUBLIC_NAME = '退会済み会員';

/**
 * How a member appears on a public board: the nickname, or a masked stand-in when the nickname is
 * empty or looks like an email address (older accounts could carry one there).
 * A deleted member (退会) is 「退会済み会員」 whatever the row still says.
 * @example publicNameOf({ id: 'u_8f3k2', name: 'ピカ太郎' }) === 'ピカ太郎'; publicNameOf({ id: 'u_8f3k2', name: 'a@b.jp' }) === '会員***3k2'
 */
export function publicNameOf(member: {
  id: string;
  name: string | null | undefined;
  deletedAt?: Date | string | null;
}): string {
  if (member.deletedAt) return DELETED_MEMBER_PUBLIC_NAME;
  const name = (member.name ?? '').trim();
  // NFKC folds the full-width ＠ (and its other look-alikes) into '@' before the check.
  if (name && !name.normalize('NFKC').includes('@')) return name;
  return `会員***${member.id.slice(-3)}`;
}

/**
 * Public names of the given members in one query (ids beyond 200 are ignored); unknown ids get the mask.
 * @example (await publicNicknames(db, ['u1', 'u2'])).get('u1') // 'ピカ太郎'
 */
export async function publicNicknames(db: Database, memberIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(memberIds)].slice(0, 200);
  const rows = ids.length
    ? await db
        .select({ id: users.id, name: users.name, deletedAt: users.deletedAt })
        .from(users)
        .where(inArray(users.id, ids))
    : [];
  const names = new Map(rows.map((row) => [row.id, publicNameOf(row)]));
  for (const id of ids) if (!names.has(id)) names.set(id, publicNameOf({ id, name: null }));
  return names;
}
