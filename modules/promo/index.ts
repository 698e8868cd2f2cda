// 特典コード: redeeming a code for free coins (once per member, within a window and a total cap, with
// optional new-member and rank conditions), and the operators' codes and batches (docs/decisions/032).
import { randomInt } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { subDays } from 'date-fns';
import type { Database } from '#db/client';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import { grantCoins, type CoinLifetimes } from '#modules/wallet';
import { memberProfileOf, takeRateLimit } from '#modules/identity';
import { currentRank } from '#modules/progression';
import { promoCodes, promoRedemptions } from './schema';

export const PROMO_REFUSAL_CODES = [
  'PROMO_CODE_INVALID',
  'PROMO_CODE_UNKNOWN',
  'PROMO_CODE_NOT_YET_VALID',
  'PROMO_CODE_EXPIRED',
  'PROMO_CODE_USED_UP',
  'PROMO_CODE_ALREADY_REDEEMED',
  'PROMO_CODE_NOT_NEW_MEMBER',
  'PROMO_CODE_RANK_TOO_LOW',
  'PROMO_CODE_RATE_LIMITED',
] as const;
export type PromoRefusalCode = (typeof PROMO_REFUSAL_CODES)[number];

/** The operators' refusals: a code that already exists, a code that is not there. */
export const PROMO_ADMIN_REFUSAL_CODES = ['PROMO_CODE_TAKEN', 'PROMO_CODE_NOT_FOUND'] as const;
export type PromoAdminRefusalCode = (typeof PROMO_ADMIN_REFUSAL_CODES)[number];

/** A normalised code: 4 to 32 letters and digits. */
export const PROMO_CODE_MAX_LENGTH = 32;
const CODE_PATTERN = /^[A-Z0-9]{4,32}$/;

/**
 * What the member typed, as stored: NFKC (full-width letters and digits become half-width), upper case,
 * without spaces (any kind) or hyphens/dashes (any kind, ー included). Null when nothing usable is left.
 * @example normalizePromoCode(' ａｂｃ－１２３ ') === 'ABC123'
 */
export function normalizePromoCode(input: string): string | null {
  const code = input
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-‐‑‒–—―−ー_]/gu, '');
  return CODE_PATTERN.test(code) ? code : null;
}

/** The generated codes' alphabet: no 0/O, 1/I (nor L), easy to read aloud and to type. */
export const PROMO_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const GENERATED_CODE_LENGTH = 10;
export const MAX_BATCH_SIZE = 5000;

/** A random code from the readable alphabet (crypto random). */
export function randomPromoCode(length = GENERATED_CODE_LENGTH): string {
  let code = '';
  for (let i = 0; i < length; i++) code += PROMO_CODE_ALPHABET[randomInt(PROMO_CODE_ALPHABET.length)];
  return code;
}

/** Attempts allowed per window (docs/decisions/032): against guessing codes, per member and per address. */
export const PROMO_RATE_LIMITS = {
  windowSeconds: 600,
  perMember: 10,
  perAddress: 30,
} as const;

export interface RedeemInput {
  memberId: string;
  /** The client's address (the edge's CLIENT_IP_HEADER); counted with the member when given. */
  address?: string | null;
  /** Overrides PROMO_RATE_LIMITS (tests, settings). */
  limits?: { windowSeconds: number; perMember: number; perAddress: number };
  /** What the member typed. */
  code: string;
  /** The shop's coin lifetimes (FREE_COIN_EXPIRY_DAYS): the granted coins are free coins. */
  lifetimeDays: CoinLifetimes;
  now?: Date;
}

export interface Redeemed {
  ok: true;
  redemptionId: number;
  codeId: number;
  label: string;
  coins: number;
  redeemedAt: string;
}

/**
 * Redeems a code: checks it (known and active, in its window, the member's conditions), then in one
 * transaction records the member's redemption (unique per code and member: a concurrent second one
 * waits on the index and is refused), raises the code's count only while under its cap (a conditional
 * update: concurrent members queue on the code's row), and grants the free coins through the wallet
 * under the key `promo:<codeId>:<memberId>`.
 */
export async function redeemPromoCode(db: Database, input: RedeemInput): Promise<Redeemed | Refusal<PromoRefusalCode>> {
  const now = input.now ?? new Date();
  // Counted first, before the code is even read: every attempt costs the same, valid or not.
  const limits = input.limits ?? PROMO_RATE_LIMITS;
  const keys: [string, number][] = [[`promo:member:${input.memberId}`, limits.perMember]];
  if (input.address) keys.push([`promo:address:${input.address}`, limits.perAddress]);
  for (const [key, max] of keys) {
    const answer = await takeRateLimit(db, { key, windowSeconds: limits.windowSeconds, max, now });
    if (!answer.allowed) return refuse('PROMO_CODE_RATE_LIMITED', { retryAfterSeconds: answer.retryAfterSeconds });
  }
  const code = normalizePromoCode(input.code);
  if (!code) return refuse('PROMO_CODE_INVALID');
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.code, code)).limit(1);
  if (!row || !row.active) return refuse('PROMO_CODE_UNKNOWN');
  if (now < row.startsAt) return refuse('PROMO_CODE_NOT_YET_VALID', { startsAt: row.startsAt.toISOString() });
  if (now >= row.endsAt) return refuse('PROMO_CODE_EXPIRED', { endsAt: row.endsAt.toISOString() });
  const [mine] = await db
    .select({ id: promoRedemptions.id })
    .from(promoRedemptions)
    .where(and(eq(promoRedemptions.codeId, row.id), eq(promoRedemptions.memberId, input.memberId)))
    .limit(1);
  if (mine) return refuse('PROMO_CODE_ALREADY_REDEEMED');
  if (row.maxRedemptions !== null && row.redeemedCount >= row.maxRedemptions) return refuse('PROMO_CODE_USED_UP');
  if (row.newMemberDays !== null) {
    const profile = await memberProfileOf(db, input.memberId, now);
    if (!profile || new Date(profile.createdAt) < subDays(now, row.newMemberDays))
      return refuse('PROMO_CODE_NOT_NEW_MEMBER', { days: row.newMemberDays });
  }
  if (row.minRank !== null) {
    const rank = await currentRank(db, input.memberId, now);
    if (rank.rank < row.minRank) return refuse('PROMO_CODE_RANK_TOO_LOW', { minRank: row.minRank, rank: rank.rank });
  }
  try {
    return await db.transaction(async (tx) => {
      const [redemption] = await tx
        .insert(promoRedemptions)
        .values({ codeId: row.id, memberId: input.memberId, coins: row.coins, redeemedAt: now })
        .onConflictDoNothing()
        .returning({ id: promoRedemptions.id });
      if (!redemption) throw new RefusalError(refuse('PROMO_CODE_ALREADY_REDEEMED'));
      const [counted] = await tx
        .update(promoCodes)
        .set({ redeemedCount: sql`${promoCodes.redeemedCount} + 1` })
        .where(
          and(
            eq(promoCodes.id, row.id),
            eq(promoCodes.active, true),
            sql`(${promoCodes.maxRedemptions} is null or ${promoCodes.redeemedCount} < ${promoCodes.maxRedemptions})`,
          ),
        )
        .returning({ id: promoCodes.id });
      if (!counted) throw new RefusalError(refuse('PROMO_CODE_USED_UP'));
      await grantCoins(tx, {
        memberId: input.memberId,
        kind: 'free',
        amount: row.coins,
        reason: 'promo_code',
        counterAccount: 'promotion',
        idempotencyKey: `promo:${row.id}:${input.memberId}`,
        ref: String(row.id),
        memo: row.label,
        lifetimeDays: input.lifetimeDays,
        now,
      });
      return {
        ok: true as const,
        redemptionId: redemption.id,
        codeId: row.id,
        label: row.label,
        coins: row.coins,
        redeemedAt: now.toISOString(),
      };
    });
  } catch (error) {
    if (error instanceof RefusalError && (PROMO_REFUSAL_CODES as readonly string[]).includes(error.code))
      return error.refusal as Refusal<PromoRefusalCode>;
    throw error;
  }
}

export interface RedemptionView {
  id: number;
  label: string;
  coins: number;
  redeemedAt: string;
}

/** The member's own redemptions, newest first (what /mypage/tokutencode shows). */
export async function listMemberRedemptions(db: Database, memberId: string, limit = 50): Promise<RedemptionView[]> {
  const rows = await db
    .select({
      id: promoRedemptions.id,
      label: promoCodes.label,
      coins: promoRedemptions.coins,
      redeemedAt: promoRedemptions.redeemedAt,
    })
    .from(promoRedemptions)
    .innerJoin(promoCodes, eq(promoCodes.id, promoRedemptions.codeId))
    .where(eq(promoRedemptions.memberId, memberId))
    .orderBy(desc(promoRedemptions.redeemedAt), desc(promoRedemptions.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, redeemedAt: r.redeemedAt.toISOString() }));
}

export interface PromoCodeTerms {
  label: string;
  coins: number;
  startsAt: Date;
  endsAt: Date;
  maxRedemptions: number | null;
  newMemberDays: number | null;
  minRank: number | null;
}

/** An operator's single code (typed by the operator, normalised like the member's input). */
export async function createPromoCode(
  db: Database,
  input: PromoCodeTerms & { code: string; createdBy: string },
): Promise<{ ok: true; id: number; code: string } | Refusal<PromoAdminRefusalCode | 'PROMO_CODE_INVALID'>> {
  const code = normalizePromoCode(input.code);
  if (!code) return refuse('PROMO_CODE_INVALID');
  const { code: _typed, ...terms } = input;
  const [row] = await db
    .insert(promoCodes)
    .values({ ...terms, code })
    .onConflictDoNothing()
    .returning({ id: promoCodes.id });
  if (!row) return refuse('PROMO_CODE_TAKEN', { code });
  return { ok: true, id: row.id, code };
}

/**
 * A batch of `count` unique random codes under the same terms (one batch id): codes that collide with
 * an existing one are drawn again. Answers the batch id and its codes.
 */
export async function createPromoBatch(
  db: Database,
  input: PromoCodeTerms & { count: number; createdBy: string; batchId: string },
): Promise<{ ok: true; batchId: string; codes: string[] }> {
  if (!Number.isSafeInteger(input.count) || input.count < 1 || input.count > MAX_BATCH_SIZE)
    throw new RangeError(`count must be 1..${MAX_BATCH_SIZE}`);
  const { count, ...terms } = input;
  const codes: string[] = [];
  for (let attempts = 0; codes.length < count; attempts++) {
    if (attempts > 20) throw new Error('could not draw unique promo codes');
    const want = new Set<string>();
    while (want.size < count - codes.length) want.add(randomPromoCode());
    const rows = await db
      .insert(promoCodes)
      .values([...want].map((code) => ({ ...terms, code })))
      .onConflictDoNothing()
      .returning({ code: promoCodes.code });
    codes.push(...rows.map((r) => r.code));
  }
  return { ok: true, batchId: input.batchId, codes };
}

export type PromoCodeRow = typeof promoCodes.$inferSelect;

/** Codes for the operators, newest first; a batch's codes when `batchId` is given. */
export async function listPromoCodes(
  db: Database,
  options: { batchId?: string; limit?: number } = {},
): Promise<PromoCodeRow[]> {
  return db
    .select()
    .from(promoCodes)
    .where(options.batchId ? eq(promoCodes.batchId, options.batchId) : undefined)
    .orderBy(desc(promoCodes.createdAt), desc(promoCodes.id))
    .limit(options.limit ?? 200);
}

/** A CSV of a batch (code, label, coins, window in ISO, cap, count), for the campaign's mailing. */
export async function promoBatchCsv(db: Database, batchId: string): Promise<string> {
  const rows = await listPromoCodes(db, { batchId, limit: MAX_BATCH_SIZE });
  const quote = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = ['code,label,coins,starts_at,ends_at,max_redemptions,redeemed_count,active'];
  for (const r of rows.sort((a, b) => a.id - b.id))
    lines.push(
      [
        r.code,
        quote(r.label),
        r.coins,
        r.startsAt.toISOString(),
        r.endsAt.toISOString(),
        r.maxRedemptions ?? '',
        r.redeemedCount,
        r.active,
      ].join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}

/** Stops a code (or every code of a batch): members are told it is unknown. */
export async function deactivatePromoCode(
  db: Database,
  target: { id: number } | { batchId: string },
): Promise<{ ok: true; count: number } | Refusal<'PROMO_CODE_NOT_FOUND'>> {
  const rows = await db
    .update(promoCodes)
    .set({ active: false })
    .where('id' in target ? eq(promoCodes.id, target.id) : eq(promoCodes.batchId, target.batchId))
    .returning({ id: promoCodes.id });
  if (rows.length === 0) return refuse('PROMO_CODE_NOT_FOUND');
  return { ok: true, count: rows.length };
}
export { PROMO_REFUSAL_WORDS } from './refusal-words';
