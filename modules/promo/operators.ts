// The operators' codes: single codes, batches (and their CSV), listing and stopping them.
import { desc, eq } from 'drizzle-orm';
import type { Database } from '#db/client';
import { refuse, type Refusal } from '#modules/kernel';
import { promoCodes } from './schema';
import { type PromoAdminRefusalCode, normalizePromoCode, MAX_BATCH_SIZE, randomPromoCode } from './codes';

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
