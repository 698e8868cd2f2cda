// The shop's closure on a real database (decision 085, 資金決済法 第20条): announcing refuses a refund period under 60
// days and a second closure; cancelling works only before the sales stop; after the stop draws, checkouts and prize
// conversions are refused SALES_STOPPED; every member with a balance is told once (mailbox and e-mail), however
// often the job runs; a member applies with a validated bank account stored sealed; recording the transfer debits
// exactly the paid coins once, also when two operators record it at the same moment (PostgreSQL), audited.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { addDays } from 'date-fns';
import { useTestDatabase } from '#tests/use-test-database';
import { TEST_RULES, createMemberWithCoins, createPublishedPack } from '#tests/fixtures';
import { testKeyring } from '#tests/shipping';
import { adminAuditLog, coinLedger, gachas, mails, outboundMessages } from '#db/schema';
import { endEveryPackOnSale } from '#modules/gacha';
import { saleWindowsJob } from '#server/jobs/shop-rules';
import { queryRows } from '#db/client';
import {
  announceClosureAsOperator,
  cancelClosureAsOperator,
  commandLineOperator,
  recordClosureRefundPaidAsOperator,
} from '#modules/admin';
import { drawLots } from '#modules/draw';
import { getBalance, checkInvariants } from '#modules/wallet';
import { closureRefundOf, readClosure, readMaintenance, salesStopRefusal } from '#modules/shop';
import { applyForRefund, openRefundAccount, sendClosureNotices } from '#server/closure';

const handle = useTestDatabase('admin-closure', { invariants: 'afterEach' });
const operator = commandLineOperator();
const site = { name: 'テストショップ', origin: 'https://shop.example.jp' };
const keyring = testKeyring();
const NOTICE =
  '当ショップは事業を終了いたします。未使用の有償コインは1コイン1円で払い戻します。お問い合わせはお問い合わせフォームへ。';

/** Moves the live closure's sales stop into the past (a test's clock: the stop came). */
async function stopSalesNow() {
  await handle.db.execute(sql`update shop_closures set sales_stop_at = announced_at where cancelled_at is null`);
}

const account = {
  bankName: 'みずほ銀行',
  branchName: '渋谷支店',
  accountType: '普通',
  accountNumber: '１２３４５６７',
  accountHolder: 'やまだ たろう',
};

describe('the shop closure', () => {
  it('refuses a refund period under 60 days, a sales stop in the past and a second closure; cancels only before the stop', async () => {
    const db = handle.db;
    const now = new Date();
    const short = await announceClosureAsOperator(db, operator, {
      salesStopAt: null,
      refundDeadline: addDays(now, 59),
      notice: NOTICE,
    });
    expect(short).toMatchObject({ ok: false, code: 'CLOSURE_REFUND_PERIOD_TOO_SHORT' });
    const past = await announceClosureAsOperator(db, operator, {
      salesStopAt: addDays(now, -1),
      refundDeadline: addDays(now, 90),
      notice: NOTICE,
    });
    expect(past).toMatchObject({ ok: false, code: 'CLOSURE_SALES_STOP_IN_PAST' });
    expect(await readClosure(db)).toBeNull();

    const done = await announceClosureAsOperator(db, operator, {
      salesStopAt: addDays(now, 7),
      refundDeadline: addDays(now, 90),
      notice: NOTICE,
    });
    expect(done.ok).toBe(true);
    expect(
      await announceClosureAsOperator(db, operator, {
        salesStopAt: null,
        refundDeadline: addDays(now, 90),
        notice: NOTICE,
      }),
    ).toMatchObject({ ok: false, code: 'CLOSURE_ALREADY_ANNOUNCED' });
    // Before the stop nothing is refused yet.
    expect(await salesStopRefusal(db)).toBeNull();
    expect(await cancelClosureAsOperator(db, operator)).toMatchObject({ ok: true });
    expect(await readClosure(db)).toBeNull();
    expect((await readMaintenance(db)).closure).toBeNull();

    // A staff member (not an admin) may not announce.
    const staff = { ...operator, role: 'staff' as const };
    expect(
      await announceClosureAsOperator(db, staff, {
        salesStopAt: null,
        refundDeadline: addDays(now, 90),
        notice: NOTICE,
      }),
    ).toMatchObject({ ok: false, code: 'CLOSURE_ADMIN_ONLY' });

    await announceClosureAsOperator(db, operator, {
      salesStopAt: null,
      refundDeadline: addDays(now, 61),
      notice: NOTICE,
    });
    expect(await cancelClosureAsOperator(db, operator)).toMatchObject({
      ok: false,
      code: 'CLOSURE_SALES_ALREADY_STOPPED',
    });
    const actions = (await db.select({ action: adminAuditLog.action }).from(adminAuditLog)).map((r) => r.action);
    expect(actions.filter((a) => a === 'shop.closure.announce')).toHaveLength(2);
    expect(actions.filter((a) => a === 'shop.closure.cancel')).toHaveLength(1);
    expect(actions).toContain('shop.closure.announce.refused');
    // The next test starts from an open shop (the stopped closure cannot be cancelled through the shop).
    await db.execute(sql`update shop_closures set cancelled_at = now() where cancelled_at is null`);
  });

  it('after the stop refuses draws; tells each member with a balance once; refunds exactly the paid coins once', async () => {
    const db = handle.db;
    const gachaId = await createPublishedPack(db, { lots: 20, price: 100 });
    const alice = await createMemberWithCoins(db, { paid: 5_000, free: 300 });
    const bob = await createMemberWithCoins(db, { free: 200 });
    const carol = await createMemberWithCoins(db, {});
    const first = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: alice,
      gachaId,
      count: 1,
      idempotencyKey: randomUUID(),
    });
    expect(first.ok).toBe(true);
    const aliceBefore = await getBalance(db, alice);

    await announceClosureAsOperator(db, operator, {
      salesStopAt: addDays(new Date(), 3),
      refundDeadline: addDays(new Date(), 90),
      notice: NOTICE,
    });
    // The banner's cache reads the closure with the maintenance switch (one read).
    expect((await readMaintenance(db)).closure).toMatchObject({ refundDeadline: expect.any(Date) });
    await stopSalesNow();
    const drawn = await drawLots(db, {
      decisionDays: TEST_RULES.prizeDecisionDays,
      memberId: alice,
      gachaId,
      count: 1,
      idempotencyKey: randomUUID(),
    });
    expect(drawn).toMatchObject({ ok: false, code: 'SALES_STOPPED' });
    expect((await getBalance(db, alice)).paid).toBe(aliceBefore.paid);
    // The sale-window job then ends every pack still on sale: no page offers a draw the shop refuses, and the
    // pack's seed and log are public as for any ended pack.
    const scheduled = await createPublishedPack(db, { lots: 5, price: 100 });
    await db.update(gachas).set({ status: 'scheduled' }).where(eq(gachas.id, scheduled));
    expect(await saleWindowsJob().handler({ db, now: new Date() } as never)).toMatchObject({
      processed: expect.any(Number),
    });
    const states = await db
      .select({ id: gachas.id, status: gachas.status, revealedAt: gachas.revealedAt })
      .from(gachas)
      .where(inArray(gachas.id, [gachaId, scheduled]));
    expect(states.map((p) => p.status)).toEqual(['ended', 'ended']);
    expect(states.every((p) => p.revealedAt !== null)).toBe(true);
    expect(await endEveryPackOnSale(db)).toBe(0);

    // The notice job, twice (a restart): each member with coins or prizes once, nobody else.
    const sent = await sendClosureNotices(db, site, { limit: 1 });
    expect(sent).toBe(1);
    await sendClosureNotices(db, site, { limit: 100 });
    await sendClosureNotices(db, site, { limit: 100 });
    const closureMails = await db.select().from(mails).where(eq(mails.category, 'shop_closure'));
    expect(closureMails.map((m) => m.memberId).sort()).toEqual([alice, bob].sort());
    const emails = await db.select().from(outboundMessages).where(eq(outboundMessages.template, 'shop-closure'));
    expect(emails.filter((m) => m.memberId === alice)).toHaveLength(1);
    expect(emails.some((m) => m.memberId === carol)).toBe(false);

    // A bad account is refused with Japanese words, nothing written.
    const closure = (await readClosure(db))!;
    const bad = await applyForRefund(db, keyring, closure, alice, { ...account, accountNumber: '12345678' });
    expect(bad).toMatchObject({ ok: false, message: '口座番号は7桁までの数字で入力してください。' });
    expect(await closureRefundOf(db, closure.id, alice)).toBeNull();
    // Bob has only free coins: nothing to refund.
    const nothing = await applyForRefund(db, keyring, closure, bob, account);
    expect(nothing).toMatchObject({ ok: false, refusal: { code: 'REFUND_NOTHING_TO_REFUND' } });

    const applied = await applyForRefund(db, keyring, closure, alice, account);
    if (!applied.ok) throw new Error('apply refused');
    // Sealed at rest, opens only for Alice's place.
    const [stored] = await queryRows<{ sealed_account: string }>(
      db,
      sql`select sealed_account from shop_closure_refunds where id = ${applied.refund.id}`,
    );
    expect(stored!.sealed_account).not.toContain('1234567');
    expect(openRefundAccount(keyring, applied.refund)).toMatchObject({
      accountNumber: '1234567',
      accountHolder: 'ヤマダ タロウ',
    });
    expect(() => openRefundAccount(keyring, { ...applied.refund, memberId: bob })).toThrow();

    const paid = aliceBefore.paid;
    const stale = await recordClosureRefundPaidAsOperator(db, operator, applied.refund.id, {
      reference: 'FURIKOMI-1',
      confirmedCoins: paid + 1,
    });
    expect(stale).toMatchObject({ ok: false, code: 'REFUND_AMOUNT_CHANGED' });

    // Two operators at once (two connections on PostgreSQL): one debit.
    const both = await Promise.all([
      recordClosureRefundPaidAsOperator(db, operator, applied.refund.id, {
        reference: 'FURIKOMI-1',
        confirmedCoins: paid,
      }),
      recordClosureRefundPaidAsOperator(db, operator, applied.refund.id, {
        reference: 'FURIKOMI-1',
        confirmedCoins: paid,
      }),
    ]);
    expect(both.filter((o) => o.ok)).toHaveLength(1);
    expect(both.find((o) => !o.ok)).toMatchObject({ code: 'REFUND_ALREADY_PAID' });
    const after = await getBalance(db, alice);
    expect(after.paid).toBe(0);
    expect(after.free).toBe(aliceBefore.free);
    const debits = await db
      .select({ amount: coinLedger.amount })
      .from(coinLedger)
      .where(and(eq(coinLedger.memberId, alice), eq(coinLedger.reason, 'closure_refund')));
    expect(debits.reduce((s, d) => s + d.amount, 0)).toBe(-paid);
    const refund = (await closureRefundOf(db, closure.id, alice))!;
    expect(refund).toMatchObject({ paidCoins: paid, refundJpy: paid, transferReference: 'FURIKOMI-1' });
    const told = await db
      .select()
      .from(mails)
      .where(and(eq(mails.memberId, alice), eq(mails.category, 'shop_closure')));
    expect(told).toHaveLength(2);
    const audits = await db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'shop.closure.refund.paid'));
    expect(audits).toHaveLength(1);
    expect(await checkInvariants(db)).toEqual([]);
  });
});
