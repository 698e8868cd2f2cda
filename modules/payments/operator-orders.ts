// The operators' view of orders (the admin area's /admin/orders): a filtered, paged list with the
// count of orders waiting in review, and one order with the provider's events as they arrived.
// Reading only; refunds go through the admin module's audited refundOrderAsOperator.
import { and, asc, count, desc, eq, gt, gte, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { isUuid, refineWindow, saleWindowFields } from '#modules/kernel';
import { orderStatuses, paymentEvents, paymentOrders } from './schema';

const jstDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: '日付は 2027-05-10 の形で入力してください。' })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00+09:00`)), { error: '日付を確認してください。' })
  .optional()
  .or(z.literal('').transform(() => undefined));

/** The order list's filters (the page's query string); dates are the order's JST day. */
export const orderListFilterSchema = z.object({
  status: z
    .enum(orderStatuses, { error: '状態を選び直してください。' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  method: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v) => v || undefined),
  memberId: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
  receiptNo: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v) => v || undefined),
  from: jstDate,
  to: jstDate,
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type OrderListFilter = z.output<typeof orderListFilterSchema>;

export const ORDER_LIST_PAGE_SIZE = 50;

type OrderRow = typeof paymentOrders.$inferSelect;

/** The start of a JST day as an instant. */
const jstDayStart = (day: string) => new Date(`${day}T00:00:00+09:00`);

/**
 * Orders newest first, filtered by status, method, member, receipt number and JST day; with how many
 * orders wait in review (whatever the filters: the queue an operator must empty).
 * @example const { items, reviewCount } = await listOrdersForDesk(db, orderListFilterSchema.parse({ status: 'review' }))
 */
export async function listOrdersForDesk(
  db: Database,
  filter: OrderListFilter,
): Promise<{ items: OrderRow[]; page: number; hasNext: boolean; reviewCount: number }> {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(paymentOrders.status, filter.status));
  if (filter.method) where.push(eq(paymentOrders.method, filter.method));
  if (filter.memberId) where.push(eq(paymentOrders.memberId, filter.memberId));
  if (filter.receiptNo) where.push(eq(paymentOrders.receiptNo, filter.receiptNo.toUpperCase()));
  if (filter.from) where.push(gte(paymentOrders.createdAt, jstDayStart(filter.from)));
  if (filter.to) where.push(lt(paymentOrders.createdAt, new Date(jstDayStart(filter.to).getTime() + 86_400_000)));
  const rows = await db
    .select()
    .from(paymentOrders)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(paymentOrders.createdAt), desc(paymentOrders.id))
    .limit(ORDER_LIST_PAGE_SIZE + 1)
    .offset((filter.page - 1) * ORDER_LIST_PAGE_SIZE);
  const [review] = await db.select({ n: count() }).from(paymentOrders).where(eq(paymentOrders.status, 'review'));
  return {
    items: rows.slice(0, ORDER_LIST_PAGE_SIZE),
    page: filter.page,
    hasNext: rows.length > ORDER_LIST_PAGE_SIZE,
    reviewCount: Number(review?.n ?? 0),
  };
}

/** A provider's event as the order's page lists it (the payload stays in the database). */
export interface OrderEventView {
  id: number;
  provider: string;
  type: string;
  eventId: string;
  receivedAt: string;
  processedAt: string | null;
  outcome: string | null;
  attempts: number;
  lastError: string | null;
}

/**
 * One order and the provider's events for it, oldest first; null when there is no such order.
 * @example const shown = await orderForOperator(db, orderId)
 */
export async function orderForOperator(
  db: Database,
  orderId: string,
): Promise<{ order: OrderRow; events: OrderEventView[] } | null> {
  if (!isUuid(orderId)) return null;
  const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
  if (!order) return null;
  const events = await db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.orderId, orderId))
    .orderBy(asc(paymentEvents.receivedAt), asc(paymentEvents.id))
    .limit(200);
  return {
    order,
    events: events.map((e) => ({
      id: e.id,
      provider: e.provider,
      type: e.type,
      eventId: e.eventId,
      receivedAt: e.receivedAt.toISOString(),
      processedAt: e.processedAt?.toISOString() ?? null,
      outcome: e.outcome,
      attempts: e.attempts,
      lastError: e.lastError,
    })),
  };
}

const wholeNumber = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label}を入力してください。` })
    .int({ error: `${label}は整数で入力してください。` })
    .min(min, { error: `${label}は${min.toLocaleString('ja-JP')}以上です。` })
    .max(max, { error: `${label}は${max.toLocaleString('ja-JP')}までです。` });

/**
 * A coin pack as the admin form writes it (the command line's coinpacks:set checks the same limits).
 * Orders copy a pack's numbers when they are made, so saving never changes a purchase.
 */
export const coinPackFormSchema = z
  .object({
    id: z
      .string({ error: 'IDを入力してください。' })
      .trim()
      .regex(/^[a-z0-9-]{1,40}$/, { error: 'IDは半角英小文字・数字・ハイフン（40文字まで）で入力してください。' }),
    name: z
      .string({ error: '名前を入力してください。' })
      .trim()
      .min(1, { error: '名前を入力してください。' })
      .max(60, { error: '名前は60文字以内で入力してください。' }),
    priceJpy: wholeNumber('価格（円）', 1, 10_000_000),
    paidCoins: wholeNumber('有償コイン', 1, 10_000_000),
    bonusCoins: wholeNumber('ボーナスコイン', 0, 10_000_000),
    sortOrder: wholeNumber('表示順', 0, 10_000_000),
    badge: z
      .string()
      .trim()
      .max(10, { error: 'バッジは10文字以内で入力してください。' })
      .optional()
      .transform((v) => v || null),
    firstPurchaseOnly: z
      .string()
      .optional()
      .transform((v) => v === 'on'),
    active: z
      .string()
      .optional()
      .transform((v) => v === 'on'),
    // Optional sale window in Japan time (docs/decisions/031): on sale only inside it.
    ...saleWindowFields,
  })
  .superRefine(refineWindow);

/**
 * Up to `limit` orders after order `afterId`, in id order (keyset: the CSV export streams them).
 * @example const rows = await ordersExportBatch(db, '', 5000)
 */
export async function ordersExportBatch(db: Database, afterId: string, limit: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(paymentOrders)
    .where(afterId ? gt(paymentOrders.id, afterId) : undefined)
    .orderBy(asc(paymentOrders.id))
    .limit(limit);
}
