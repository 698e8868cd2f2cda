// Members with sessions and coins, made straight in the database for storm tests and benchmarks (no
// HTTP sign-up: its rate limits and password hashing would dominate the set-up of 200 members).
// The bearer token is what the native app sends: better-auth's signed session cookie value,
// `<session token>.<base64 HMAC-SHA256(token, AUTH_SECRET)>`, URL-encoded (better-call's
// signCookieValue); server/api/v1/auth.ts hands it to better-auth as the session cookie.
import { TEST_RULES } from './fixtures';
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '#db/client';
import { sessions, users } from '#db/schema';
import { grantCoins } from '#modules/wallet';

export interface SessionMember {
  id: string;
  /** The raw session token (sessions.token). */
  token: string;
  /** The value for `Authorization: Bearer …`. */
  bearer: string;
  /** Coins granted at creation (paid + free). */
  granted: number;
}

/** better-auth's signed cookie value for a session token, as its cookie code writes it. */
export function signSessionToken(token: string, secret: string): string {
  const signature = crypto.createHmac('sha256', secret).update(token).digest('base64');
  return encodeURIComponent(`${token}.${signature}`);
}

/**
 * `count` members, each with a 30-day session and `paid` (+ optional `free`) coins through the
 * wallet's own grantCoins, so the ledger balances exactly as after a purchase.
 * @example const members = await createSessionMembers(db, { count: 200, paid: 100_000, secret: AUTH_SECRET })
 */
export async function createSessionMembers(
  db: Database,
  options: { count: number; secret: string; paid?: number; free?: number; prefix?: string; concurrency?: number },
): Promise<SessionMember[]> {
  const prefix = options.prefix ?? `s${crypto.randomBytes(3).toString('hex')}`;
  const expiresAt = new Date(Date.now() + 30 * 24 * 3600 * 1000);
  const members: SessionMember[] = Array.from({ length: options.count }, (_, i) => {
    const token = crypto.randomBytes(24).toString('base64url');
    return {
      id: `${prefix}_${String(i).padStart(5, '0')}`,
      token,
      bearer: signSessionToken(token, options.secret),
      granted: (options.paid ?? 0) + (options.free ?? 0),
    };
  });
  for (let i = 0; i < members.length; i += 500) {
    const batch = members.slice(i, i + 500);
    await db.insert(users).values(
      batch.map((m, j) => ({
        id: m.id,
        name: `ストーム${i + j + 1}`,
        email: `${m.id}@storm.example.test`,
        emailVerified: true,
        role: 'user',
      })),
    );
    await db
      .insert(sessions)
      .values(batch.map((m) => ({ id: `sess_${m.id}`, token: m.token, userId: m.id, expiresAt, userAgent: 'storm' })));
  }
  // Grants go through the wallet's SQL function (one call each); a few at a time keeps the pool busy.
  const concurrency = options.concurrency ?? 8;
  let next = 0;
  const grantOne = async (m: SessionMember) => {
    if (options.paid)
      await grantCoins(db, {
        lifetimeDays: TEST_RULES.coinLifetimes,
        memberId: m.id,
        kind: 'paid',
        amount: options.paid,
        reason: 'purchase',
        counterAccount: 'purchase',
        idempotencyKey: `storm:paid:${m.id}`,
      });
    if (options.free)
      await grantCoins(db, {
        lifetimeDays: TEST_RULES.coinLifetimes,
        memberId: m.id,
        kind: 'free',
        amount: options.free,
        reason: 'operator_grant',
        counterAccount: 'promotion',
        idempotencyKey: `storm:free:${m.id}`,
      });
  };
  await Promise.all(
    Array.from({ length: Math.min(concurrency, members.length) }, async () => {
      while (next < members.length) await grantOne(members[next++]!);
    }),
  );
  return members;
}

/** Sum of every credit ever made (positive ledger amounts), for the coin-conservation check. */
export async function totalCredited(db: Database): Promise<number> {
  const [row] = await queryRows<{ n: string }>(
    db,
    sql`select coalesce(sum(amount), 0)::bigint as n from coin_ledger where amount > 0`,
  );
  return Number(row!.n);
}
