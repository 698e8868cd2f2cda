// Reading the signed-in member of a request in one indexed query, for the hot paths (the API and
// every page). better-auth stays the authority: it issues, refreshes and revokes sessions, and this
// hands back to it ('refresh') whenever a session is due for its daily refresh.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { sessions, users } from './schema';
import { SESSION_MAX_AGE_SECONDS, SESSION_UPDATE_AGE_SECONDS } from './constants';

/** The signed-in member as pages and the API see them. */
export interface SessionMember {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  role: string;
  /** When they signed up (null when the source did not say): which broadcasts reach them (the header's bell). */
  joinedAt: Date | null;
}

/** A user row (ours or better-auth's session user) as a SessionMember. */
export function toSessionMember(user: {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image?: string | null;
  role?: string | null;
  createdAt?: Date | string | null;
}): SessionMember {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    image: user.image ?? null,
    role: user.role ?? 'user',
    joinedAt: user.createdAt ? new Date(user.createdAt) : null,
  };
}

/**
 * The session token inside a signed cookie value (`<token>.<base64 HMAC-SHA256>`, as better-auth
 * signs it), or null when the signature does not verify.
 * @example verifySignedToken('abc.' + sig, secret) // 'abc'
 */
export function verifySignedToken(value: string, secret: string): string | null {
  let decoded = value;
  try {
    decoded = value.includes('%') ? decodeURIComponent(value) : value;
  } catch {
    return null;
  }
  const dot = decoded.lastIndexOf('.');
  if (dot < 1) return null;
  const token = decoded.slice(0, dot);
  const signature = decoded.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  const expected = createHmac('sha256', secret).update(token).digest('base64');
  const a = Buffer.from(signature);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b) ? token : null;
}

/**
 * The member of a session token: null when unknown, expired or banned; 'refresh' when better-auth
 * should handle the request (the session is due to be extended).
 */
export async function memberOfSessionToken(
  db: Database,
  token: string,
  now = new Date(),
): Promise<SessionMember | null | 'refresh'> {
  if (!token || token.length > 256) return null;
  const [row] = await db
    .select({
      expiresAt: sessions.expiresAt,
      id: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      image: users.image,
      role: users.role,
      banned: users.banned,
      banExpires: users.banExpires,
      createdAt: users.createdAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.token, token))
    .limit(1);
  if (!row) return null;
  const expiresAt = new Date(row.expiresAt).getTime();
  if (expiresAt <= now.getTime()) return null;
  if (row.banned && (!row.banExpires || new Date(row.banExpires).getTime() > now.getTime())) return null;
  // better-auth extends a session once it is older than updateAge: let it do so.
  if (expiresAt - now.getTime() < (SESSION_MAX_AGE_SECONDS - SESSION_UPDATE_AGE_SECONDS) * 1000) return 'refresh';
  return toSessionMember(row);
}
