// The member number (会員ID) shown to members on マイページ and to support: derived from the account id,
// in an alphabet with no look-alikes (no 0/O, 1/I/L), so it can be read out on the phone or typed from a
// screenshot. The same derivation runs in the database (identity_member_code, migration 0039), where an
// expression index finds a member by the number without reading `users` (decision 026's rule; decision 055).
import { createHash } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { users } from './schema';

/** 31 characters: digits 2–9 and capitals without I, L and O. */
export const MEMBER_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 10;

/**
 * The member's display code, e.g. 'K7Q4M-9XZTR': 10 characters (about 49 bits) from a SHA-256 of
 * the id, so it is stable and says nothing about the id itself.
 * @example memberCode('u_8fJ2kLq0') // 'R4XN7-QK2MB' (always the same for one id)
 */
export function memberCode(memberId: string): string {
  let n = BigInt(`0x${createHash('sha256').update(`member-code:${memberId}`).digest('hex')}`);
  const base = BigInt(MEMBER_CODE_ALPHABET.length);
  let code = '';
  for (let i = 0; i < LENGTH; i++) {
    code += MEMBER_CODE_ALPHABET[Number(n % base)];
    n /= base;
  }
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * A member number as staff or a member may type it (full-width, lower case, with or without the hyphen
 * or spaces), written as the shop shows it; null when the text cannot be one.
 * @example readMemberCode('ｋ７ｑ４ｍ ９ｘｚｔｒ') // 'K7Q4M-9XZTR'
 */
export function readMemberCode(text: string): string | null {
  const compact = text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-\u2010-\u2015\u2212\u30fc]/g, '');
  if (compact.length !== LENGTH || [...compact].some((c) => !MEMBER_CODE_ALPHABET.includes(c))) return null;
  return `${compact.slice(0, 5)}-${compact.slice(5)}`;
}

/**
 * The id of the member with this number (as `readMemberCode` writes it), through the expression index
 * users_member_code_idx: one index probe, never a scan of `users`; null when nobody has it.
 * @example await memberIdByCode(db, 'K7Q4M-9XZTR') // 'u_8fJ2kLq0'
 */
export async function memberIdByCode(db: Database, code: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`identity_member_code(${users.id}) = ${code}`)
    .limit(2);
  return row?.id ?? null;
}

/** A member as staff see them on every admin list: the number the member sees, the nickname, and whether they left. */
export interface MemberTag {
  id: string;
  /** 会員ID as マイページ shows it (XXXXX-XXXXX). */
  code: string;
  /** ニックネーム (a deleted member's tombstone keeps whatever the deletion left). */
  nickname: string;
  deleted: boolean;
}

/**
 * The tags of the members a page's rows name, in one query (unknown ids are absent).
 * @example const tags = await memberTagsOf(db, rows.map((r) => r.memberId)); tags.get(id)?.code
 */
export async function memberTagsOf(db: Database, memberIds: readonly string[]): Promise<Map<string, MemberTag>> {
  const ids = [...new Set(memberIds)].filter((id) => id !== '');
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name, deletedAt: users.deletedAt })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(
    rows.map((r) => [r.id, { id: r.id, code: memberCode(r.id), nickname: r.name, deleted: r.deletedAt !== null }]),
  );
}
