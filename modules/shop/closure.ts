// The shop's closure (decision 085, 資金決済法 第20条): the announcement (the public notice, the sales stop, the
// refund deadline at least 60 days after the notice), the exact sales-stop check of the money paths, the notice
// to every member with a balance (once each), the members' 払戻し applications and the operator's record of
// each transfer, which debits exactly the paid coins refunded, and the report for the accounts.
import { eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Database } from '#db/client';
import { jstText, refuse, RefusalError, type Refusal } from '#modules/kernel';
import { holdPaidCoinExpiry } from '#modules/wallet';
import { notifyMember } from '#modules/mailbox';
import { queueMail, type SiteIdentity } from '#modules/messaging';
import { memberContactOf, renewStatementLink, restrictionsOf, statementLinkPath } from '#modules/identity';
import { shopClosureNotices, shopClosures } from './schema';

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
export function closureAnnouncementRefusal(input: ClosureAnnouncement, now: Date): Refusal<ClosureRefusalCode> | null {
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
 * How long a banned member's statement link must live for them to apply for a 払戻し: while a live closure takes
 * applications, its refund deadline and a day; else null (a ban has no session, so the link is their only way to
 * /standing/<token>'s application; decision 085). The ban, the resent link and an upheld appeal pass it on.
 * @example const { token } = await openRestriction(tx, { …, linkUntil: await refundLinkUntil(tx) })
 */
export async function refundLinkUntil(db: Database, now = new Date()): Promise<Date | null> {
  const closure = await readClosure(db);
  if (!closure || closurePhase(closure, now) === 'refunds_over') return null;
  return refundLinkEnd(closure);
}

const refundLinkEnd = (closure: Pick<ShopClosure, 'refundDeadline'>) =>
  new Date(closure.refundDeadline.getTime() + 86_400_000);

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
  await tx.update(shopClosures).set({ cancelledAt: now, cancelledBy }).where(eq(shopClosures.id, row.id));
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

/** How a member applies: signed in on their page, or (a banned member, who has no session) by the mailed link. */
const howToApply = (byLink: boolean) =>
  byLink
    ? 'ご利用を停止しているため、ログインはできません。メールでお送りしたリンク（あなただけのリンクです。ほかの人に渡さないでください）から、振込先の口座をご登録ください。'
    : 'ログインして、振込先の口座をご登録ください。';

/**
 * The mailbox mail's words (the e-mail says the same through the `shop-closure` template); `byLink` for a banned
 * member, whose e-mail carries their statement link instead of the sign-in page.
 */
export function closureNoticeText(
  closure: ShopClosure,
  holder: ClosureHolder,
  byLink = false,
): { subject: string; body: string } {
  const lines = [
    `当ショップは${closureTimeText(closure.salesStopAt)}（日本時間）をもってコインの販売とガチャを終了します。`,
    `お知らせ時点の残高：有償コイン ${holder.paid.toLocaleString('ja-JP')}枚・無償コイン ${holder.free.toLocaleString('ja-JP')}枚・保管中のカード ${holder.prizes.toLocaleString('ja-JP')}枚`,
    holder.paid > 0
      ? `未使用の有償コインは1コイン1円で払い戻します（いまの残高で ${holder.paid.toLocaleString('ja-JP')}円）。払戻しの額は、販売終了後にお振込みする時点の未使用の有償コインです。`
      : '有償コインの残高はありません。',
    '無償コイン（ボーナス・プレゼントなど）は払戻しの対象ではありません。',
    `払戻しの申出期限：${closureTimeText(closure.refundDeadline)}（日本時間）`,
    byLink
      ? `お申し込み方法：${howToApply(true)}期限を過ぎるとお申し込みいただけません。`
      : `お申し込み方法：ログインして ${CLOSURE_REFUND_PATH} （マイページ →「払戻しのお申し込み」）で、振込先の口座をご登録ください。期限を過ぎるとお申し込みいただけません。`,
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
 * not at all. A banned member (no session) gets a fresh statement link living until the refund deadline and a
 * day, where they apply; the old link stops working. Answers false when the member was already told.
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
  const ban = (await restrictionsOf(tx, holder.memberId, now)).find((r) => r.kind === 'ban' && r.inForce);
  const token = ban ? await renewStatementLink(tx, ban.id, now, refundLinkEnd(closure)) : null;
  const { subject, body } = closureNoticeText(closure, holder, token !== null);
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
        how: howToApply(token !== null),
        url: `${site.origin}${token ? statementLinkPath(token) : CLOSURE_REFUND_PATH}`,
        noticeUrl: `${site.origin}${CLOSURE_NOTICE_PATH}`,
      },
    });
  return true;
}

/**
 * The banner's two lines every page shows once a closure is announced (written here, so the words stay out of the
 * pages' JavaScript).
 * @example closureBannerLines({ salesStopAt, refundDeadline }).headline // '閉店のお知らせ：2027/01/31 23:59（日本時間）をもって…'
 */
export function closureBannerLines(
  closure: { salesStopAt: Date; refundDeadline: Date },
  now = new Date(),
): { headline: string; detail: string } {
  const stop = closureTimeText(closure.salesStopAt);
  return {
    headline:
      closure.salesStopAt.getTime() <= now.getTime()
        ? `閉店のお知らせ：${stop}（日本時間）をもって販売を終了しました。`
        : `閉店のお知らせ：${stop}（日本時間）をもってコインの販売とガチャを終了します。`,
    detail: `未使用の有償コインは1コイン1円で払い戻します。申出期限：${closureTimeText(closure.refundDeadline)}（日本時間）`,
  };
}
