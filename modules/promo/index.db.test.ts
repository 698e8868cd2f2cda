// 特典コード against a real database: normalisation, every refusal, once per member and the total cap
// under concurrent redemptions, and the operators' batches and CSV.
import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '#db/client';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { getBalance, grantCoins, listLedgerEntries } from '#modules/wallet';
import {
  createPromoBatch,
  createPromoCode,
  deactivatePromoCode,
  listMemberRedemptions,
  normalizePromoCode,
  promoBatchCsv,
  PROMO_CODE_ALPHABET,
  redeemPromoCode,
  type PromoCodeTerms,
} from './index';

const handle = useTestDatabase('promo');
const NOW = new Date('2026-12-01T03:00:00Z');
const terms = (over: Partial<PromoCodeTerms> = {}): PromoCodeTerms => ({
  label: '冬のキャンペーン',
  coins: 300,
  startsAt: new Date('2026-11-30T15:00:00Z'),
  endsAt: new Date('2026-12-31T15:00:00Z'),
  maxRedemptions: null,
  newMemberDays: null,
  minRank: null,
  ...over,
});
let seq = 0;
async function code(over: Partial<PromoCodeTerms> = {}) {
  const typed = `WINTER${Date.now().toString(36).toUpperCase()}${++seq}`;
  const made = await createPromoCode(handle.db, { ...terms(over), code: typed, createdBy: 'staff' });
  if (!made.ok) throw new Error(made.code);
  return made.code;
}
const redeem = (memberId: string, typed: string, now = NOW) =>
  redeemPromoCode(handle.db, { memberId, code: typed, lifetimeDays: TEST_RULES.coinLifetimes, now, limits: LOOSE });
const LOOSE = { windowSeconds: 60, perMember: 1000, perAddress: 1000 };

describe('normalizePromoCode', () => {
  it('ignores case, full-width input, spaces and hyphens', () => {
    expect(normalizePromoCode(' ａｂｃ－１２３ ')).toBe('ABC123');
    expect(normalizePromoCode('abc-def 234')).toBe('ABCDEF234');
    expect(normalizePromoCode('ＡＢＣＤ　ｅｆｇｈ')).toBe('ABCDEFGH');
    expect(normalizePromoCode('ab')).toBeNull();
    expect(normalizePromoCode('ab!cd')).toBeNull();
    expect(normalizePromoCode('あいうえお')).toBeNull();
  });
});

describe('redeemPromoCode', () => {
  it('grants free coins once, whatever the member typed, and lists the redemption', async () => {
    const member = await createMember(handle.db);
    const c = await code();
    const typed = c
      .toLowerCase()
      .normalize('NFKC')
      .replace(/./g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
    const done = await redeem(member, ` ${typed.slice(0, 3)}-${typed.slice(3)} `);
    expect(done).toMatchObject({ ok: true, coins: 300, label: '冬のキャンペーン' });
    expect((await getBalance(handle.db, member, NOW)).free).toBe(300);
    const ledger = await listLedgerEntries(handle.db, member);
    expect(ledger.items.some((e) => e.reason === 'promo_code')).toBe(true);
    expect(await redeem(member, c)).toMatchObject({ ok: false, code: 'PROMO_CODE_ALREADY_REDEEMED' });
    expect(await listMemberRedemptions(handle.db, member)).toEqual([
      expect.objectContaining({ label: '冬のキャンペーン', coins: 300 }),
    ]);
  });

  it('refuses each case with its own code', async () => {
    const member = await createMember(handle.db);
    expect(await redeem(member, '!!')).toMatchObject({ ok: false, code: 'PROMO_CODE_INVALID' });
    expect(await redeem(member, 'NOSUCHCODE99')).toMatchObject({ ok: false, code: 'PROMO_CODE_UNKNOWN' });
    const c = await code();
    expect(await redeem(member, c, new Date('2026-11-30T14:59:59Z'))).toMatchObject({
      code: 'PROMO_CODE_NOT_YET_VALID',
    });
    expect(await redeem(member, c, new Date('2026-12-31T15:00:00Z'))).toMatchObject({ code: 'PROMO_CODE_EXPIRED' });
    const one = await code({ maxRedemptions: 1 });
    expect(await redeem(await createMember(handle.db), one)).toMatchObject({ ok: true });
    expect(await redeem(member, one)).toMatchObject({ code: 'PROMO_CODE_USED_UP' });
    const fresh = await code({ newMemberDays: 7 });
    const old = await createMember(handle.db);
    await handle.db.execute(
      sql`update users set created_at = ${'2026-11-01T00:00:00Z'}::timestamptz where id = ${old}`,
    );
    expect(await redeem(old, fresh)).toMatchObject({ code: 'PROMO_CODE_NOT_NEW_MEMBER', details: { days: 7 } });
    const newcomer = await createMember(handle.db);
    await handle.db.execute(
      sql`update users set created_at = ${'2026-11-28T00:00:00Z'}::timestamptz where id = ${newcomer}`,
    );
    expect(await redeem(newcomer, fresh)).toMatchObject({ ok: true });
    const silver = await code({ minRank: 2 });
    expect(await redeem(member, silver)).toMatchObject({ code: 'PROMO_CODE_RANK_TOO_LOW' });
    const buyer = await createMember(handle.db);
    await grantCoins(handle.db, {
      memberId: buyer,
      kind: 'paid',
      amount: 30_000,
      reason: 'purchase',
      counterAccount: 'purchase',
      idempotencyKey: randomUUID(),
      lifetimeDays: TEST_RULES.coinLifetimes,
      now: new Date('2026-11-15T00:00:00Z'),
    });
    expect(await redeem(buyer, silver)).toMatchObject({ ok: true });
    const stopped = await code();
    const [row] = await queryRows<{ id: number }>(handle.db, sql`select id from promo_codes where code = ${stopped}`);
    expect(await deactivatePromoCode(handle.db, { id: Number(row!.id) })).toEqual({ ok: true, count: 1 });
    expect(await redeem(member, stopped)).toMatchObject({ code: 'PROMO_CODE_UNKNOWN' });
  });

  it('credits a member exactly once under concurrent redemptions', async () => {
    const member = await createMember(handle.db);
    const c = await code();
    const answers = await Promise.all(Array.from({ length: 6 }, () => redeem(member, c)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok).every((a) => !a.ok && a.code === 'PROMO_CODE_ALREADY_REDEEMED')).toBe(true);
    expect((await getBalance(handle.db, member, NOW)).free).toBe(300);
  });

  it('holds the total cap under concurrent members (cap 3, 10 members → 3)', async () => {
    const c = await code({ maxRedemptions: 3 });
    const members = await Promise.all(Array.from({ length: 10 }, () => createMember(handle.db)));
    const answers = await Promise.all(members.map((m) => redeem(m, c)));
    expect(answers.filter((a) => a.ok)).toHaveLength(3);
    expect(answers.filter((a) => !a.ok && a.code === 'PROMO_CODE_USED_UP')).toHaveLength(7);
    const balances = await Promise.all(members.map((m) => getBalance(handle.db, m, NOW)));
    expect(balances.filter((b) => b.free === 300)).toHaveLength(3);
    const [count] = await queryRows<{ redeemed_count: number }>(
      handle.db,
      sql`select redeemed_count from promo_codes where code = ${c}`,
    );
    expect(Number(count!.redeemed_count)).toBe(3);
  });
});

describe('rate limit', () => {
  it('refuses attempts beyond the limit per member and per address, valid code or not', async () => {
    const member = await createMember(handle.db);
    const limits = { windowSeconds: 600, perMember: 3, perAddress: 100 };
    const address = `192.0.2.${Math.floor(Math.random() * 250)}`;
    const at = new Date();
    const c = await code({ startsAt: new Date(at.getTime() - 60_000), endsAt: new Date(at.getTime() + 3_600_000) });
    const attempt = (m: string, typed: string, max = limits) =>
      redeemPromoCode(handle.db, {
        memberId: m,
        code: typed,
        address,
        lifetimeDays: TEST_RULES.coinLifetimes,
        now: at,
        limits: max,
      });
    for (let i = 0; i < 3; i++)
      expect(await attempt(member, `WRONG${i}CODE`)).toMatchObject({ code: 'PROMO_CODE_UNKNOWN' });
    const limited = await attempt(member, c);
    expect(limited).toMatchObject({ ok: false, code: 'PROMO_CODE_RATE_LIMITED' });
    expect(!limited.ok && Number(limited.details.retryAfterSeconds)).toBeGreaterThan(0);
    // Another member from the same address (3 counted so far; a member refusal counts no address): the 5th is over 4.
    const other = await createMember(handle.db);
    const perAddress = { windowSeconds: 600, perMember: 100, perAddress: 4 };
    expect(await attempt(other, c, perAddress)).toMatchObject({ ok: true });
    expect(await attempt(other, 'WRONGCODE', perAddress)).toMatchObject({ code: 'PROMO_CODE_RATE_LIMITED' });
  });
});

describe('operators', () => {
  it('makes a batch of unique readable codes and exports it as CSV', async () => {
    const batchId = randomUUID();
    const batch = await createPromoBatch(handle.db, { ...terms(), count: 50, createdBy: 'staff', batchId });
    expect(new Set(batch.codes).size).toBe(50);
    for (const c of batch.codes) expect([...c].every((ch) => PROMO_CODE_ALPHABET.includes(ch))).toBe(true);
    expect(batch.codes.join('')).not.toMatch(/[0O1I]/);
    const csv = await promoBatchCsv(handle.db, batchId);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('code,label,coins,starts_at,ends_at,max_redemptions,redeemed_count,active');
    expect(lines).toHaveLength(51);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0]))).toEqual(new Set(batch.codes));
  });

  it('refuses a code that exists already, whatever its case', async () => {
    const c = await code();
    expect(await createPromoCode(handle.db, { ...terms(), code: c.toLowerCase(), createdBy: 'staff' })).toMatchObject({
      ok: false,
      code: 'PROMO_CODE_TAKEN',
    });
  });
});
