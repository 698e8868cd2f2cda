// debitCoins (an operator's negative adjustment, decision 026): one kind only, soonest-expiring free
// coins first, one ledger entry per grant, never below zero (expired coins do not count), and
// idempotent on its key (a repeat takes nothing; the key for another debit is refused).
import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { addDays } from 'date-fns';
import { useTestDatabase } from '#tests/use-test-database';
import { createMember, TEST_RULES } from '#tests/fixtures';
import { coinGrants, coinLedger } from '#db/schema';
import { debitCoins, getBalance, grantCoins, IdempotencyKeyConflict } from '#modules/wallet';

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
