// Public nicknames for boards that name members (rankings): never an email, masked when there is no nickname.
import { eq, inArray } from 'drizzle-orm';
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

/** How a member who keeps the default appears in the winners feed (当選履歴). */
export const ANONYMOUS_WINNER_NAME = '匿名';
/** A feed name is cut to this many characters (the nickname's own limit may be raised later). */
const FEED_NAME_MAX = 20;

/**
 * A nickname as the public feed prints it: no control or bidirectional-override characters (older
 * rows were written before the nickname rules), whitespace folded, at most FEED_NAME_MAX characters.
 * @example feedSafeName('ピカ\u202e太郎  ') === 'ピカ太郎'
 */
export function feedSafeName(name: string): string {
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff<>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return [...cleaned].slice(0, FEED_NAME_MAX).join('');
}

/**
 * Names for the winners feed in one query: the public nickname of members who chose to be named,
 * 「匿名」 for everyone else (the default), for deleted members and for unknown ids. Never an email.
 * @example (await winnersFeedNames(db, ['u1'])).get('u1') // '匿名' until u1 opts in
 */
export async function winnersFeedNames(db: Database, memberIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(memberIds)].slice(0, 200);
  const rows = ids.length
    ? await db
        .select({ id: users.id, name: users.name, deletedAt: users.deletedAt, named: users.winnersFeedNamed })
        .from(users)
        .where(inArray(users.id, ids))
    : [];
  const names = new Map<string, string>(ids.map((id) => [id, ANONYMOUS_WINNER_NAME]));
  for (const row of rows) {
    if (!row.named || row.deletedAt) continue;
    const name = feedSafeName(publicNameOf(row));
    names.set(row.id, name || ANONYMOUS_WINNER_NAME);
  }
  return names;
}

/** Whether the member chose to be named in the winners feed. @example await winnersFeedNamedOf(db, member.id) // false */
export async function winnersFeedNamedOf(db: Database, memberId: string): Promise<boolean> {
  const [row] = await db.select({ named: users.winnersFeedNamed }).from(users).where(eq(users.id, memberId)).limit(1);
  return row?.named ?? false;
}

/**
 * The member's choice for the winners feed (applies to past wins too: names are read when shown).
 * @example await setWinnersFeedNamed(db, member.id, true)
 */
export async function setWinnersFeedNamed(db: Database, memberId: string, named: boolean): Promise<void> {
  await db.update(users).set({ winnersFeedNamed: named }).where(eq(users.id, memberId));
}
