// A member as staff see them on every admin list and page: the member number shown on マイページ
// (会員ID) and the nickname, never only the internal id, linked to the member's admin page when the
// operator may read it (members:read). One query per page, through the identity module (issue 28).
import type { Database } from '#db/client';
import type { Operator } from '#modules/admin';
import { memberIdByCode, memberTagsOf, readMemberCode, type MemberTag } from '#modules/identity';

/** One member as an admin page shows them; `href` is null when the operator may not open members. */
export interface StaffMemberTag extends MemberTag {
  href: string | null;
}

/**
 * The tags of every member a page's rows name (nulls and repeats are fine), in one query, keyed by
 * member id for the page's component (`tags[row.memberId]`). Unknown ids are absent.
 * @example const members = await memberTagsFor(db, operator, items.map((i) => i.memberId))
 */
export async function memberTagsFor(
  db: Database,
  operator: Operator,
  memberIds: readonly (string | null | undefined)[],
): Promise<Record<string, StaffMemberTag>> {
  const tags = await memberTagsOf(
    db,
    memberIds.filter((id): id is string => typeof id === 'string'),
  );
  const canOpen = operator.permissions.has('members:read');
  return Object.fromEntries(
    [...tags].map(([id, tag]) => [id, { ...tag, href: canOpen ? `/admin/members/${encodeURIComponent(id)}` : null }]),
  );
}

/**
 * A member filter as staff type it: a member number (K7Q4M-9XZTR, any width or case) becomes the
 * member's id through its index; anything else is passed on as typed (an id, or an email the caller reads).
 * @example await memberIdFromFilter(db, 'k7q4m-9xztr') // 'u_8fJ2kLq0'
 */
export async function memberIdFromFilter(db: Database, typed: string): Promise<string> {
  const code = readMemberCode(typed);
  if (!code) return typed;
  return (await memberIdByCode(db, code)) ?? typed;
}
