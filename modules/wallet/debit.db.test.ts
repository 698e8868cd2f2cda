// debitCoins (an operator's negative adjustment, decision 026): one kind only, soonest-expiring free
// coins first, one ledger entry per grant, never below zero (expired coins do not count), and
// idempotent on its key (a repeat takes nothing; the key for another debit is refused).
// getBalance, read in one statement (issue 32): the balance by kind, grants past their date counting for
// nothing before the expiry job writes them off, and what expires within EXPIRING_SOON_DAYS with the
// soonest date, at several moments of one member's grants; a member with nothing holds zero.
import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { addDays } from 'date-fns';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { coinGrants, coinLedger } from '#db/schema';
import { debitCoins, EXPIRING_SOON_DAYS, getBalance, grantCoins, IdempotencyKeyConflict } from '#modules/wallet';

const handle = useTestDatabase('wallet-debit');

const grant = (memberId: string, kind: 'paid' | 'free', amount: number, key: string, expiresAt: Date) =>
  grantCoins(handle.db, {
    memberId,
    kind,
    amount,
    reason: 'operator_grant',
    counterAccount: 'promotion',
    idempotencyKey: key,
    expiresAt,
    lifetimeDays: TEST_RULES.coinLifetimes,
  });

const debit = (memberId: string, kind: 'paid' | 'free', amount: number, key: string) =>
  debitCoins(handle.db, {
    memberId,
    kind,
    amount,
    reason: 'adjustment',
    counterAccount: 'adjustment',
    idempotencyKey: key,
    memo: '回収',
  });

describe('debitCoins', () => {
  it('takes one kind, soonest-expiring grant first, once per key, never below zero', async () => {
    const member = await createMember(handle.db);
    const now = new Date();
    await grant(member, 'free', 100, `${member}:late`, addDays(now, 60));
    await grant(member, 'free', 50, `${member}:soon`, addDays(now, 5));
    await grant(member, 'paid', 500, `${member}:paid`, addDays(now, 100));

    expect(await debit(member, 'free', 151, `${member}:d0`)).toMatchObject({
      ok: false,
      code: 'INSUFFICIENT_COINS',
      details: { balance: 150 },
    });
    expect(await debit(member, 'free', 80, `${member}:d1`)).toEqual({ ok: true, replay: false, paid: 500, free: 70 });
    expect(await debit(member, 'free', 80, `${member}:d1`)).toEqual({ ok: true, replay: true, paid: 500, free: 70 });
    await expect(debit(member, 'free', 81, `${member}:d1`)).rejects.toBeInstanceOf(IdempotencyKeyConflict);
    const entries = await handle.db
      .select({ amount: coinLedger.amount, memo: coinLedger.memo, seq: coinLedger.seq })
      .from(coinLedger)
      .where(and(eq(coinLedger.memberId, member), eq(coinLedger.idemKey, `${member}:d1`)))
      .orderBy(asc(coinLedger.seq));
    expect(entries).toEqual([
      { amount: -50, memo: '回収', seq: 0 },
      { amount: -30, memo: '回収', seq: 1 },
    ]);
    expect(await getBalance(handle.db, member)).toMatchObject({ paid: 500, free: 70 });
  });

  it('does not count coins past their date, and answers short without a wallet', async () => {
    const member = await createMember(handle.db);
    expect(await debit(member, 'paid', 1, `${member}:none`)).toMatchObject({ code: 'INSUFFICIENT_COINS' });
    await grant(member, 'free', 40, `${member}:g`, addDays(new Date(), 1));
    await handle.db
      .update(coinGrants)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(coinGrants.memberId, member));
    expect(await debit(member, 'free', 1, `${member}:late`)).toMatchObject({
      code: 'INSUFFICIENT_COINS',
      details: { balance: 0 },
    });
    expect((await getBalance(handle.db, member)).free).toBe(0);
  });
});

describe('getBalance', () => {
  it('counts each kind, leaves out what is past its date, and names what expires soon', async () => {
    const member = await createMember(handle.db);
    const now = new Date();
    const soonFree = addDays(now, 5);
    const laterFree = addDays(now, EXPIRING_SOON_DAYS + 20);
    const paidEnd = addDays(now, EXPIRING_SOON_DAYS + 70);
    await grant(member, 'free', 50, `${member}:soon`, soonFree);
    await grant(member, 'free', 100, `${member}:later`, laterFree);
    await grant(member, 'paid', 500, `${member}:paid`, paidEnd);

    // Today: everything counts; the 50 free coins expire within EXPIRING_SOON_DAYS.
    expect(await getBalance(handle.db, member, now)).toEqual({
      paid: 500,
      free: 150,
      total: 650,
      expiringSoon: { amount: 50, firstExpiresAt: soonFree.toISOString() },
    });
    // Ten days on, before any expiry job: the 50 are past their date and count for nothing; the next
    // grant is still further away than EXPIRING_SOON_DAYS.
    expect(await getBalance(handle.db, member, addDays(now, 10))).toEqual({
      paid: 500,
      free: 100,
      total: 600,
      expiringSoon: { amount: 0, firstExpiresAt: null },
    });
    // Closer to the later grants: both kinds expire soon, the free coins first.
    expect(await getBalance(handle.db, member, addDays(now, EXPIRING_SOON_DAYS + 60))).toEqual({
      paid: 500,
      free: 0,
      total: 500,
      expiringSoon: { amount: 500, firstExpiresAt: paidEnd.toISOString() },
    });
    expect(await getBalance(handle.db, member, addDays(now, 25))).toEqual({
      paid: 500,
      free: 100,
      total: 600,
      expiringSoon: { amount: 100, firstExpiresAt: laterFree.toISOString() },
    });
    // After every date: nothing left.
    expect(await getBalance(handle.db, member, addDays(paidEnd, 1))).toMatchObject({ paid: 0, free: 0, total: 0 });
  });

  it('answers zero for a member who never held a coin', async () => {
    const member = await createMember(handle.db);
    expect(await getBalance(handle.db, member)).toEqual({
      paid: 0,
      free: 0,
      total: 0,
      expiringSoon: { amount: 0, firstExpiresAt: null },
    });
  });
});
