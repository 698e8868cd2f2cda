// What /mypage shows about the member's account at a glance: the address and whether it is confirmed,
// the phone number (masked), the second factor, the linked sign-in providers, and a hold or ban in force.
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '#db/client';
import { accounts, memberRestrictions, users, type RestrictionCategory, type RestrictionKind } from './schema';
import { maskPhoneNumber } from './phone-numbers';

export interface AccountSummary {
  /** null for a provider's stand-in address (RFC 6761 .invalid). */
  email: string | null;
  emailVerified: boolean;
  /** 090-****-5678, or null when no verified number. */
  phone: string | null;
  twoFactorEnabled: boolean;
  /** Linked providers' ids (google, line, …), the password not included. */
  providers: string[];
  /** The holds and bans in force (decision 084), read in the same statement: mypage names them. */
  restrictions: { id: string; kind: RestrictionKind; category: RestrictionCategory }[];
}

/** @example const summary = await accountSummaryOf(db, member.id) */
export async function accountSummaryOf(db: Database, memberId: string): Promise<AccountSummary | null> {
  const [user] = await db
    .select({
      email: users.email,
      emailVerified: users.emailVerified,
      phoneNumber: users.phoneNumber,
      phoneNumberVerified: users.phoneNumberVerified,
      twoFactorEnabled: users.twoFactorEnabled,
      restrictions: sql<AccountSummary['restrictions'] | string>`(
        select coalesce(json_agg(json_build_object('id', r.id, 'kind', r.kind, 'category', r.category)
                                 order by r.started_at desc), '[]'::json)
          from ${memberRestrictions} r
         where r.member_id = "users"."id" and r.ended_at is null and (r.until is null or r.until > now()))`,
    })
    .from(users)
    .where(eq(users.id, memberId))
    .limit(1);
  if (!user) return null;
  const linked = await db
    .select({ providerId: accounts.providerId })
    .from(accounts)
    .where(and(eq(accounts.userId, memberId), ne(accounts.providerId, 'credential')));
  return {
    email: user.email.endsWith('.invalid') ? null : user.email,
    emailVerified: user.emailVerified,
    phone: user.phoneNumber && user.phoneNumberVerified ? maskPhoneNumber(user.phoneNumber) : null,
    twoFactorEnabled: Boolean(user.twoFactorEnabled),
    providers: [...new Set(linked.map((row) => row.providerId))].sort(),
    restrictions: typeof user.restrictions === 'string' ? JSON.parse(user.restrictions) : user.restrictions,
  };
}
