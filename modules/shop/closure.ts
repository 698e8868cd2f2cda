// The shop's closure (decision 085, 資金決済法 第20条): the announcement (the public notice, the sales stop, the
// refund deadline at least 60 days after the notice), the exact sales-stop check of the money paths, the notice
// to every member with a balance (once each), the members' 払戻し applications and the operator's record of
// each transfer, which debits exactly the paid coins refunded, and the report for the accounts.
import { and, asc, count, eq, inArray, isNotNull, isNull, sql, sum } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Database } from '#db/client';
import { jstText, refuse, RefusalError, type Refusal } from '#modules/kernel';
import { debitCoins, getBalance, holdPaidCoinExpiry, paidCoinsAtPage, unusedPaidCoinsAt } from '#modules/wallet';
import { notifyMember } from '#modules/mailbox';
import { queueMail, type SiteIdentity } from '#modules/messaging';
import { memberContactOf } from '#modules/identity';
import { shopClosureNotices, shopClosureRefunds, shopClosures } from './schema';

/** The refusal of a sale (a draw, a checkout, a prize conversion) once the sales stop has come. */
export const SALES_STOPPED_REFUSAL_CODES = ['SALES_STOPPED'] as const;
export type SalesStoppedRefusalCode = (typeof SALES_STOPPED_REFUSAL_CODES)[number];

/** What announcing, cancelling, applying and recording a refund can refuse. */
export const CLOSURE_REFUSAL_CODES = [
  'CLOSURE_ALREADY_ANNOUNCED',
  'CLOSURE_REFUND_PERIOD_TOO_SHORT',
  'CLOSURE_SALES_STOP_IN_PAST',
  'CLOSURE_DEADLINE_BEFORE_SALES_STOP',
  'CLOSURE_NOT_FOUND',
  'CLOSURE_SALES_ALREADY_STOPPED',
  'CLOSURE_ADMIN_ONLY',
  'CLOSURE_CONFIRMATION_MISSING',
  'REFUND_PERIOD_OVER',
  'REFUND_NOTHING_TO_REFUND',
  'REFUND_ALREADY_PAID',
  'REFUND_NOT_FOUND',
  'REFUND_BEFORE_SALES_STOP',
  'REFUND_AMOUNT_CHANGED',
] as const;
export type ClosureRefusalCode = (typeof CLOSURE_REFUSAL_CODES)[number];

/** 資金決済法 第20条 and its order: the refund application period is at least 60 days from the public notice. */
export const CLOSURE_MIN_REFUND_DAYS = 60;
/** A sales stop a little in the past is "now" (the form's minute, a slow click); older is refused. */
const SALES_STOP_GRACE_MS = 5 * 60_000;
export const CLOSURE_NOTICE_MAX_LENGTH = 4_000;
/** The words an operator types in the confirmation before announcing (decision 052's guardrail). */
export const CLOSURE_CONFIRMATION_WORDS = '閉店する';

/** A live (not cancelled) closure. */
export interface ShopClosure {
  id: number;
  announcedAt: Date;
  salesStopAt: Date;
  refundDeadline: Date;
  notice: string;
  announcedBy: string;
}

/** Where a closure stands at an instant: announced (sales go on), sales stopped, refund period over. */
export type ClosurePhase = 'announced' | 'sales_stopped' | 'refunds_over';

/** @example closurePhase(closure, new Date()) // 'sales_stopped' */
export function closurePhase(closure: Pick<ShopClosure, 'salesStopAt' | 'refundDeadline'>, now: Date): ClosurePhase {
  if (now.getTime() > closure.refundDeadline.getTime()) return 'refunds_over';
  if (now.getTime() >= closure.salesStopAt.getTime()) return 'sales_stopped';
  return 'announced';
}

/** A time in Japan time as members read it (`2027/01/05 15:00`). */
export const closureTimeText = (date: Date | string) => jstText(date);

const optionalJst = (label: string) =>
  z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === '') return null;
      const date = parseJst(text);
      if (!date) {
        ctx.addIssue({ code: 'custom', message: `${label}は「2027-01-05 15:00」の形（日本時間）で入力してください。` });
        return z.NEVER;
      }
      return date;
    });

/** Japan time without an offset (the form's datetime-local), or ISO with one. */
function parseJst(text: string): Date | null {
  const local = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/.test(text);
  const time = Date.parse(local ? `${text.replace(' ', 'T')}+09:00` : text);
  if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const day = new Date(time + 9 * 3600_000).toISOString().slice(0, 10);
  return local && day !== text.slice(0, 10) ? null : new Date(time);
}

/** The announcement as typed (the admin form and `closure:announce`): an empty sales stop is "now". */
export const closureAnnouncementSchema = z.object({
  salesStopAt: optionalJst('販売停止の日時'),
  refundDeadline: optionalJst('払戻しの申出期限').refine((d) => d !== null, '払戻しの申出期限を入力してください。'),
  notice: z
    .string()
    .trim()
    .min(20, '公告文は20文字以上で書いてください（閉店の理由・払戻しの方法・問い合わせ先など）。')
    .max(CLOSURE_NOTICE_MAX_LENGTH, `公告文は${CLOSURE_NOTICE_MAX_LENGTH.toLocaleString('ja-JP')}文字までです。`),
});
export type ClosureAnnouncementInput = z.input<typeof closureAnnouncementSchema>;
export interface ClosureAnnouncement {
  salesStopAt: Date | null;
  refundDeadline: Date;
  notice: string;
}

/**
 * What announcing would refuse, before anything is written (the confirmation asks this first): a sales stop in
 * the past, a deadline less than 60 days after now (the notice), a deadline before the sales stop.
 * @example closureAnnouncementRefusal({ salesStopAt: null, refundDeadline: addDays(now, 30), notice }, now)?.code // 'CLOSURE_REFUND_PERIOD_TOO_SHORT'
 */
export function closureAnnouncementRefusal(
  input: ClosureAnnouncement,
  now: Date,
): Refusal<ClosureRefusalCode> | null {
  const salesStopAt = input.salesStopAt ?? now;
  if (salesStopAt.getTime() < now.getTime() - SALES_STOP_GRACE_MS)
    return refuse('CLOSURE_SALES_STOP_IN_PAST', { salesStopAt: salesStopAt.toISOString() });
  const earliest = new Date(now.getTime() + CLOSURE_MIN_REFUND_DAYS * 86_400_000);
  if (input.refundDeadline.getTime() < earliest.getTime())
    return refuse('CLOSURE_REFUND_PERIOD_TOO_SHORT', {
      refundDeadline: input.refundDeadline.toISOString(),
      earliest: earliest.toISOString(),
      days: CLOSURE_MIN_REFUND_DAYS,
    });
  if (input.refundDeadline.getTime() <= salesStopAt.getTime())
    return refuse('CLOSURE_DEADLINE_BEFORE_SALES_STOP', {
      salesStopAt: salesStopAt.toISOString(),
      refundDeadline: input.refundDeadline.toISOString(),
    });
  return null;
}

const closureOf = (row: typeof shopClosures.$inferSelect): ShopClosure => ({
  id: row.id,
  announcedAt: row.announcedAt,
  salesStopAt: row.salesStopAt,
  refundDeadline: row.refundDeadline,
  notice: row.notice,
  announcedBy: row.announcedBy,
});

/**
 * The live closure, or null for an open shop (one read of a partial unique index).
 * @example const closure = await readClosure(db); if (closure && closurePhase(closure, now) !== 'announced') …
 */
export async function readClosure(db: Database): Promise<ShopClosure | null> {
  const [row] = await db.select().from(shopClosures).where(isNull(shopClosures.cancelledAt)).limit(1);
  return row ? closureOf(row) : null;
}

/**
 * The exact check of a money path, inside the caller's transaction: SALES_STOPPED (with the stop and the refund
 * deadline) once a live closure's sales stop has come, else null. The draw does the same in its SQL.
 * @example const stopped = await salesStopRefusal(tx); if (stopped) throw new RefusalError(stopped)
 */
export async function salesStopRefusal(tx: Database): Promise<Refusal<SalesStoppedRefusalCode> | null> {
  const [row] = await queryRows<{ stopped: boolean; details: Record<string, unknown> }>(
    tx,
    sql`select shop_sales_stopped() as stopped, shop_closure_details() as details`,
  );
  return row?.stopped ? refuse('SALES_STOPPED', row.details) : null;
}

/**
 * Announces the closure in the caller's transaction (the admin module's announceClosureAsOperator audits it):
 * one live closure at most; paid coins with coins left are kept from expiring before the refund deadline.
 * @example const closure = await announceClosure(tx, { salesStopAt, refundDeadline, notice }, 'ops@example.jp')
 */
export async function announceClosure(
  tx: Database,
  input: ClosureAnnouncement,
  announcedBy: string,
  now = new Date(),
): Promise<ShopClosure> {
  const invalid = closureAnnouncementRefusal(input, now);
  if (invalid) throw new RefusalError(invalid);
  const salesStopAt = input.salesStopAt && input.salesStopAt.getTime() > now.getTime() ? input.salesStopAt : now;
  const [row] = await tx
    .insert(shopClosures)
    .values({
      announcedAt: now,
      salesStopAt,
      refundDeadline: input.refundDeadline,
      notice: input.notice,
      announcedBy,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new RefusalError(refuse('CLOSURE_ALREADY_ANNOUNCED'));
  await holdPaidCoinExpiry(tx, input.refundDeadline);
  return closureOf(row);
}

/**
 * Cancels the live closure, only before its sales stop (after it, members may have been refused sales and the
 * refunds have begun). The closure row stays, with who cancelled it and when.
 * @example const cancelled = await cancelClosure(tx, 'ops@example.jp')
 */
export async function cancelClosure(tx: Database, cancelledBy: string, now = new Date()): Promise<ShopClosure> {
  const [row] = await tx.select().from(shopClosures).where(isNull(shopClosures.cancelledAt)).for('update');
  if (!row) throw new RefusalError(refuse('CLOSURE_NOT_FOUND'));
  if (now.getTime() >= row.salesStopAt.getTime())
    throw new RefusalError(refuse('CLOSURE_SALES_ALREADY_STOPPED', { salesStopAt: row.salesStopAt.toISOString() }));
  await tx
    .update(shopClosures)
    .set({ cancelledAt: now, cancelledBy })
    .where(eq(shopClosures.id, row.id));
  return closureOf(row);
}

// ---------------------------------------------------------------------------------------------
// The notice to every member with a balance.

/** A member to be told, with what they hold. */
export interface ClosureHolder {
  memberId: string;
  paid: number;
  free: number;
  /** Prizes in their box (undecided or kept for shipping). */
  prizes: number;
}

/** The member's page where they apply, and the public notice. */
export const CLOSURE_REFUND_PATH = '/mypage/refund';
export const CLOSURE_NOTICE_PATH = '/closure';

/** The mailbox mail's words (the e-mail says the same through the `shop-closure` template). */
export function closureNoticeText(closure: ShopClosure, holder: ClosureHolder): { subject: string; body: string } {
  const lines = [
    `当ショップは${closureTimeText(closure.salesStopAt)}（日本時間）をもってコインの販売とガチャを終了します。`,
    `お知らせ時点の残高：有償コイン ${holder.paid.toLocaleString('ja-JP')}枚・無償コイン ${holder.free.toLocaleString('ja-JP')}枚・保管中のカード ${holder.prizes.toLocaleString('ja-JP')}枚`,
    holder.paid > 0
      ? `未使用の有償コインは1コイン1円で払い戻します（いまの残高で ${holder.paid.toLocaleString('ja-JP')}円）。払戻しの額は、販売終了後にお振込みする時点の未使用の有償コインです。`
      : '有償コインの残高はありません。',
    '無償コイン（ボーナス・プレゼントなど）は払戻しの対象ではありません。',
    `払戻しの申出期限：${closureTimeText(closure.refundDeadline)}（日本時間）`,
    `お申し込み方法：ログインして ${CLOSURE_REFUND_PATH} （マイページ →「払戻しのお申し込み」）で、振込先の口座をご登録ください。期限を過ぎるとお申し込みいただけません。`,
    holder.prizes > 0
      ? '保管中のカードは、期限までに発送をお申し込みください。販売終了後はカードをコインに交換できません。'
      : '',
    `公告の全文：${CLOSURE_NOTICE_PATH}`,
  ];
  return { subject: '閉店と払戻しのお知らせ', body: lines.filter((l) => l !== '').join('\n') };
}

/**
 * The members already told of this closure (the notice job skips them).
 * @example const told = await notifiedMembersOf(db, closure.id)
 */
export async function notifiedMembersOf(db: Database, closureId: number): Promise<Set<string>> {
  const rows = await db
    .select({ memberId: shopClosureNotices.memberId })
    .from(shopClosureNotices)
    .where(eq(shopClosureNotices.closureId, closureId));
  return new Set(rows.map((r) => r.memberId));
}

/**
 * Tells one member of the closure, in the caller's transaction, exactly once: the notice row, a mailbox mail and
 * an e-mail to their address (a legal notice: sent whatever their mail preferences say) are written together or
 * not at all. Answers false when the member was already told (nothing written).
 * @example await db.transaction((tx) => notifyClosureMember(tx, site, closure, { memberId, paid: 500, free: 20, prizes: 1 }))
 */
export async function notifyClosureMember(
  tx: Database,
  site: SiteIdentity,
  closure: ShopClosure,
  holder: ClosureHolder,
  now = new Date(),
): Promise<boolean> {
  const [row] = await tx
    .insert(shopClosureNotices)
    .values({
      closureId: closure.id,
      memberId: holder.memberId,
      paidCoins: holder.paid,
      freeCoins: holder.free,
      keptPrizes: holder.prizes,
      notifiedAt: now,
    })
    .onConflictDoNothing()
    .returning({ memberId: shopClosureNotices.memberId });
  if (!row) return false;
  const { subject, body } = closureNoticeText(closure, holder);
  await notifyMember(tx, {
    memberId: holder.memberId,
    category: 'shop_closure',
    dedupeKey: `shop-closure:${closure.id}`,
    subject,
    body,
    email: false,
  });
  const contact = await memberContactOf(tx, holder.memberId);
  if (contact?.email && !contact.deleted)
    await queueMail(tx, site, {
      to: contact.email,
      template: 'shop-closure',
      memberId: holder.memberId,
      vars: {
        paid: holder.paid.toLocaleString('ja-JP'),
        free: holder.free.toLocaleString('ja-JP'),
        refundJpy: holder.paid.toLocaleString('ja-JP'),
        prizes: holder.prizes.toLocaleString('ja-JP'),
        salesStop: closureTimeText(closure.salesStopAt),
        deadline: closureTimeText(closure.refundDeadline),
        url: `${site.origin}${CLOSURE_REFUND_PATH}`,
        noticeUrl: `${site.origin}${CLOSURE_NOTICE_PATH}`,
      },
    });
  return true;
}

// ---------------------------------------------------------------------------------------------
// 払戻し: the member's application and the operator's record of the transfer.

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
  bankName: z
    .string()
    .trim()
    .min(1, '銀行名を入力してください。')
    .max(40, '銀行名は40文字までです。'),
  branchName: z
    .string()
    .trim()
    .min(1, '支店名を入力してください。')
    .max(40, '支店名は40文字までです。'),
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
export async function closureRefundOf(db: Database, closureId: number, memberId: string): Promise<ClosureRefund | null> {
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
  if (before?.paidAt)
    throw new RefusalError(refuse('REFUND_ALREADY_PAID', { paidAt: before.paidAt.toISOString() }));
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
    .orderBy(sql`${shopClosureRefunds.paidAt} is not null`, asc(shopClosureRefunds.appliedAt), asc(shopClosureRefunds.id))
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
