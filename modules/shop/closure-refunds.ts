// The 払戻し of a closing shop (decision 085, 資金決済法 第20条): the member's application (the bank account sealed by
// the composition layer), the operator's record of each transfer, which debits exactly the paid coins refunded,
// once, and what the admin page and the report for the accounts read.
import { and, asc, count, eq, inArray, isNotNull, isNull, sql, sum } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { refuse, RefusalError } from '#modules/kernel';
import { debitCoins, getBalance, paidCoinsAtPage, unusedPaidCoinsAt } from '#modules/wallet';
import { notifyMember } from '#modules/mailbox';
import { shopClosureNotices, shopClosureRefunds, shopClosures } from './schema';
import { closureTimeText, type ShopClosure } from './closure';

export const BANK_ACCOUNT_TYPES = ['普通', '当座', '貯蓄'] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

/** Hiragana to katakana, then NFKC (half-width katakana and full-width letters to their usual forms), upper case. */
const kanaName = (text: string) =>
  text
    .replace(/[\u3041-\u3096]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60))
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();

/** The bank account a refund is sent to (全銀 rules: a 7-digit number, the holder in katakana). */
export const refundAccountSchema = z.object({
  bankName: z.string().trim().min(1, '銀行名を入力してください。').max(40, '銀行名は40文字までです。'),
  branchName: z.string().trim().min(1, '支店名を入力してください。').max(40, '支店名は40文字までです。'),
  accountType: z.enum(BANK_ACCOUNT_TYPES, { error: '口座種別（普通・当座・貯蓄）を選んでください。' }),
  accountNumber: z
    .string()
    .transform((t) => t.normalize('NFKC').replace(/[\s-]/g, ''))
    .refine((t) => /^\d{1,7}$/.test(t), '口座番号は7桁までの数字で入力してください。')
    .transform((t) => t.padStart(7, '0')),
  accountHolder: z
    .string()
    .transform(kanaName)
    .refine((t) => t.length > 0, '口座名義（カナ）を入力してください。')
    .refine((t) => t.length <= 60, '口座名義（カナ）は60文字までです。')
    .refine(
      (t) => /^[\u30A1-\u30F6\u30FC A-Z0-9().\-/]+$/.test(t),
      '口座名義はカタカナ（通帳の表記どおり）で入力してください。',
    ),
});
export type RefundAccount = z.output<typeof refundAccountSchema>;

/** Where a member's sealed bank account belongs (the AAD of decision 019: a copy elsewhere does not open). */
export const closureRefundSealContext = (closureId: number, memberId: string) =>
  `closure-refund:${closureId}:${memberId}`;

/** The account number as staff lists and the member's page show it: the last three digits. */
export const maskedAccountNumber = (accountNumber: string) => `****${accountNumber.slice(-3)}`;

/** A refund application as stored (the bank account still sealed). */
export interface ClosureRefund {
  id: string;
  closureId: number;
  memberId: string;
  sealedAccount: string;
  appliedAt: Date;
  paidCoins: number | null;
  refundJpy: number | null;
  paidAt: Date | null;
  transferReference: string | null;
  paidBy: string | null;
}

const refundOf = (row: typeof shopClosureRefunds.$inferSelect): ClosureRefund => ({
  id: row.id,
  closureId: row.closureId,
  memberId: row.memberId,
  sealedAccount: row.sealedAccount,
  appliedAt: row.appliedAt,
  paidCoins: row.paidCoins,
  refundJpy: row.refundJpy,
  paidAt: row.paidAt,
  transferReference: row.transferReference,
  paidBy: row.paidBy,
});

/**
 * The member's own application for this closure, or null. Only ever by the member's own id.
 * @example const mine = await closureRefundOf(db, closure.id, member.id)
 */
export async function closureRefundOf(
  db: Database,
  closureId: number,
  memberId: string,
): Promise<ClosureRefund | null> {
  const [row] = await db
    .select()
    .from(shopClosureRefunds)
    .where(and(eq(shopClosureRefunds.closureId, closureId), eq(shopClosureRefunds.memberId, memberId)));
  return row ? refundOf(row) : null;
}

/**
 * One application by its id (staff), or null.
 * @example const refund = await closureRefundById(db, id)
 */
export async function closureRefundById(db: Database, id: string): Promise<ClosureRefund | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(shopClosureRefunds).where(eq(shopClosureRefunds.id, id));
  return row ? refundOf(row) : null;
}

/**
 * A member applies (or, before the transfer, changes the account): from the notice until the refund deadline,
 * while they hold paid coins. The account arrives sealed for `closureRefundSealContext` (the composition layer
 * seals it with the address keyring). Answers the application and whether it was new.
 * @example await applyForClosureRefund(tx, { closure, memberId, sealedAccount, keyId })
 */
export async function applyForClosureRefund(
  tx: Database,
  input: { closure: ShopClosure; memberId: string; sealedAccount: string; keyId: string },
  now = new Date(),
): Promise<{ refund: ClosureRefund; created: boolean }> {
  const { closure } = input;
  if (now.getTime() > closure.refundDeadline.getTime())
    throw new RefusalError(refuse('REFUND_PERIOD_OVER', { refundDeadline: closure.refundDeadline.toISOString() }));
  const existing = await tx
    .select()
    .from(shopClosureRefunds)
    .where(and(eq(shopClosureRefunds.closureId, closure.id), eq(shopClosureRefunds.memberId, input.memberId)))
    .for('update');
  const before = existing[0];
  if (before?.paidAt) throw new RefusalError(refuse('REFUND_ALREADY_PAID', { paidAt: before.paidAt.toISOString() }));
  if (!before) {
    const balance = await getBalance(tx, input.memberId, now);
    if (balance.paid <= 0) throw new RefusalError(refuse('REFUND_NOTHING_TO_REFUND'));
  }
  const [row] = await tx
    .insert(shopClosureRefunds)
    .values({
      closureId: closure.id,
      memberId: input.memberId,
      sealedAccount: input.sealedAccount,
      keyId: input.keyId,
      appliedAt: now,
    })
    .onConflictDoUpdate({
      target: [shopClosureRefunds.closureId, shopClosureRefunds.memberId],
      set: { sealedAccount: input.sealedAccount, keyId: input.keyId },
      setWhere: isNull(shopClosureRefunds.paidAt),
    })
    .returning();
  if (!row) throw new RefusalError(refuse('REFUND_ALREADY_PAID'));
  return { refund: refundOf(row), created: !before };
}

/** The transfer's reference as staff type it (the bank's 受付番号 or the batch file's name). */
export const refundPaidSchema = z.object({
  reference: z
    .string()
    .trim()
    .min(1, '振込の参照番号（受付番号など）を入力してください。')
    .max(100, '参照番号は100文字までです。'),
  confirmedCoins: z.coerce
    .number({ error: '確認した払戻し額を読み取れませんでした。画面を再読み込みしてください。' })
    .int()
    .positive('確認した払戻し額を読み取れませんでした。画面を再読み込みしてください。'),
});
export type RefundPaid = z.output<typeof refundPaidSchema>;

/**
 * Records a refund as transferred, in the caller's transaction (the admin module audits it): under the
 * application's row lock, only after the sales stop, exactly once; the member's paid coins — which must still be
 * the amount the operator confirmed and transferred — are debited (reason `closure_refund`, key
 * `closure-refund:<id>`, one entry per grant), and the member is told in the mailbox. Two operators recording the
 * same refund at once: the second waits for the first's lock and is refused REFUND_ALREADY_PAID.
 * @example const { refund } = await recordClosureRefundPaid(tx, { refundId, reference: '振込0001', confirmedCoins: 5000 }, 'ops@example.jp')
 */
export async function recordClosureRefundPaid(
  tx: Database,
  input: { refundId: string } & RefundPaid,
  paidBy: string,
  now = new Date(),
): Promise<{ refund: ClosureRefund; before: ClosureRefund }> {
  if (!/^[0-9a-f-]{36}$/i.test(input.refundId)) throw new RefusalError(refuse('REFUND_NOT_FOUND'));
  const [locked] = await tx
    .select()
    .from(shopClosureRefunds)
    .where(eq(shopClosureRefunds.id, input.refundId))
    .for('update');
  if (!locked) throw new RefusalError(refuse('REFUND_NOT_FOUND'));
  if (locked.paidAt)
    throw new RefusalError(
      refuse('REFUND_ALREADY_PAID', {
        paidAt: locked.paidAt.toISOString(),
        reference: locked.transferReference,
        paidCoins: locked.paidCoins,
      }),
    );
  const [closure] = await tx.select().from(shopClosures).where(eq(shopClosures.id, locked.closureId));
  if (!closure || closure.cancelledAt) throw new RefusalError(refuse('CLOSURE_NOT_FOUND'));
  if (now.getTime() < closure.salesStopAt.getTime())
    throw new RefusalError(refuse('REFUND_BEFORE_SALES_STOP', { salesStopAt: closure.salesStopAt.toISOString() }));
  const balance = await getBalance(tx, locked.memberId, now);
  if (balance.paid <= 0) throw new RefusalError(refuse('REFUND_NOTHING_TO_REFUND'));
  if (balance.paid !== input.confirmedCoins)
    throw new RefusalError(refuse('REFUND_AMOUNT_CHANGED', { paid: balance.paid, confirmed: input.confirmedCoins }));
  const debited = await debitCoins(tx, {
    memberId: locked.memberId,
    kind: 'paid',
    amount: balance.paid,
    reason: 'closure_refund',
    counterAccount: 'closure_refund',
    idempotencyKey: `closure-refund:${locked.id}`,
    ref: locked.id,
    memo: input.reference,
    now,
  });
  // The wallet lock came after the balance read: a spend in between is impossible after the sales stop, but a
  // late credit or reversal is not; the debit's own check keeps the balance whole.
  if (!debited.ok || debited.replay)
    throw new RefusalError(refuse('REFUND_AMOUNT_CHANGED', { paid: balance.paid, confirmed: input.confirmedCoins }));
  const [row] = await tx
    .update(shopClosureRefunds)
    .set({
      paidCoins: balance.paid,
      refundJpy: balance.paid,
      paidAt: now,
      transferReference: input.reference,
      paidBy,
    })
    .where(eq(shopClosureRefunds.id, locked.id))
    .returning();
  await notifyMember(tx, {
    memberId: locked.memberId,
    category: 'shop_closure',
    dedupeKey: `closure-refund:${locked.id}`,
    subject: '払戻しのお振込みが完了しました',
    body: [
      `未使用の有償コイン ${balance.paid.toLocaleString('ja-JP')}枚分、${balance.paid.toLocaleString('ja-JP')}円をご登録の口座へお振込みしました。`,
      `お振込みの記録日時：${closureTimeText(now)}（日本時間）`,
      '払い戻した有償コインは残高から差し引きました。ご利用ありがとうございました。',
    ].join('\n'),
  });
  return { refund: refundOf(row!), before: refundOf(locked) };
}

// ---------------------------------------------------------------------------------------------
// What the admin page and the report read.

/** The closure's figures now: members told, applications, transfers and their yen, and what is still unused. */
export interface ClosureSummary {
  notified: number;
  applied: number;
  paid: number;
  paidJpy: number;
}

/** @example const { notified, applied, paid, paidJpy } = await closureSummary(db, closure.id) */
export async function closureSummary(db: Database, closureId: number): Promise<ClosureSummary> {
  const [notices] = await db
    .select({ n: count() })
    .from(shopClosureNotices)
    .where(eq(shopClosureNotices.closureId, closureId));
  const [refunds] = await db
    .select({
      applied: count(),
      paid: count(shopClosureRefunds.paidAt),
      paidJpy: sum(shopClosureRefunds.refundJpy),
    })
    .from(shopClosureRefunds)
    .where(eq(shopClosureRefunds.closureId, closureId));
  return {
    notified: Number(notices?.n ?? 0),
    applied: Number(refunds?.applied ?? 0),
    paid: Number(refunds?.paid ?? 0),
    paidJpy: Number(refunds?.paidJpy ?? 0),
  };
}

/**
 * Applications in the order they came, the ones still to transfer first (staff's list), a page at a time.
 * @example const page = await listClosureRefunds(db, closure.id, { limit: 50, offset: 0 })
 */
export async function listClosureRefunds(
  db: Database,
  closureId: number,
  page: { limit: number; offset: number },
): Promise<ClosureRefund[]> {
  const rows = await db
    .select()
    .from(shopClosureRefunds)
    .where(eq(shopClosureRefunds.closureId, closureId))
    .orderBy(
      sql`${shopClosureRefunds.paidAt} is not null`,
      asc(shopClosureRefunds.appliedAt),
      asc(shopClosureRefunds.id),
    )
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(refundOf);
}

/** The report's columns (one line per member who held paid coins at the sales stop or holds some now). */
export const CLOSURE_REPORT_COLUMNS = [
  'member_id',
  'paid_coins_at_sales_stop',
  'unused_paid_coins_now',
  'refundable_jpy',
  'applied_at',
  'paid_at',
  'refunded_coins',
  'refunded_jpy',
  'transfer_reference',
];

type ReportCell = string | number;
const iso = (value: Date | null) => (value ? value.toISOString() : '');

/**
 * A page of the report after `afterMemberId`: every member whose paid coins at the sales stop or now are above
 * zero, with their application and transfer. Reads member pages of the wallet until `limit` lines are found or
 * the members end, so a short page means the end.
 * @example const lines = await closureReportPage(db, closure, '', 5000)
 */
export async function closureReportPage(
  db: Database,
  closure: ShopClosure,
  afterMemberId: string,
  limit: number,
): Promise<{ key: string; cells: ReportCell[] }[]> {
  const lines: { key: string; cells: ReportCell[] }[] = [];
  let after: string | null = afterMemberId;
  while (after !== null && lines.length < limit) {
    const { rows, last } = await paidCoinsAtPage(db, { at: closure.salesStopAt, afterMemberId: after, limit });
    const holders = rows.filter((r) => r.paidAt > 0 || r.paidNow > 0);
    const refunds = new Map<string, ClosureRefund>();
    if (holders.length > 0) {
      const found = await db
        .select()
        .from(shopClosureRefunds)
        .where(
          and(
            eq(shopClosureRefunds.closureId, closure.id),
            inArray(
              shopClosureRefunds.memberId,
              holders.map((h) => h.memberId),
            ),
          ),
        );
      for (const r of found) refunds.set(r.memberId, refundOf(r));
    }
    for (const h of holders) {
      if (lines.length >= limit) break;
      const refund = refunds.get(h.memberId);
      lines.push({
        key: h.memberId,
        cells: [
          h.memberId,
          h.paidAt,
          h.paidNow,
          h.paidNow,
          iso(refund?.appliedAt ?? null),
          iso(refund?.paidAt ?? null),
          refund?.paidCoins ?? 0,
          refund?.refundJpy ?? 0,
          refund?.transferReference ?? '',
        ],
      });
    }
    // A page that ended inside the member list keeps its place at the last line written.
    after = lines.length >= limit ? null : last;
  }
  return lines;
}

/**
 * The report's closing lines: 基準日（販売停止）の未使用残高, what is unused now and refundable, what was refunded,
 * and the applications.
 * @example const totals = await closureReportTotals(db, closure)
 */
export async function closureReportTotals(db: Database, closure: ShopClosure): Promise<ReportCell[][]> {
  const atStop = await unusedPaidCoinsAt(db, closure.salesStopAt);
  const now = await unusedPaidCoinsAt(db, new Date());
  const summary = await closureSummary(db, closure.id);
  const [unpaid] = await db
    .select({ n: count() })
    .from(shopClosureRefunds)
    .where(and(eq(shopClosureRefunds.closureId, closure.id), isNull(shopClosureRefunds.paidAt)));
  const [paidCoins] = await db
    .select({ coins: sum(shopClosureRefunds.paidCoins) })
    .from(shopClosureRefunds)
    .where(and(eq(shopClosureRefunds.closureId, closure.id), isNotNull(shopClosureRefunds.paidAt)));
  return [
    ['# total', 'sales_stop_at', closure.salesStopAt.toISOString()],
    ['# total', 'refund_deadline', closure.refundDeadline.toISOString()],
    ['# total', 'unused_paid_coins_at_sales_stop (基準日の未使用残高, JPY)', atStop],
    ['# total', 'unused_paid_coins_now (JPY)', now],
    ['# total', 'refunded_coins', Number(paidCoins?.coins ?? 0)],
    ['# total', 'refunded_jpy', summary.paidJpy],
    ['# total', 'applications', summary.applied],
    ['# total', 'applications_paid', summary.paid],
    ['# total', 'applications_unpaid', Number(unpaid?.n ?? 0)],
    ['# total', 'members_notified', summary.notified],
  ];
}
