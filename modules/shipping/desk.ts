// The fulfilment desk's operations (issue 12, items 10–12): the queue, a request with its address (each
// view audited), preparing (one or a batch), shipping (one, or a CSV file all or nothing), delivered,
// returned and what follows (re-ship or convert), the shop's cancel, and the internal note. Every change
// goes through runAdminAction ('shipping:write'): the change and its audit entry commit together.
// Here: what the desk's actions share (the audit's picture, the lock) and the queue; reading requests with
// their addresses: desk-reading.ts; the moves: desk-moves.ts.
import { and, asc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '#db/client';
import { auditTextDigest, type AuditRecord, type Operator } from '#modules/admin';
import { refuse, RefusalError, type Refusal } from '#modules/kernel';
import type { JstDate } from './business-days';
import type { CarrierCode } from './carriers';
import { lockRequest } from './request-changes';
import { shippingRequestItems, shippingRequests, shippingStatuses, type ShippingStatus } from './schema';

export type RequestRow = typeof shippingRequests.$inferSelect;

/** The audit entry's picture of a request: what an action changes, never the address. */
export const auditState = (row: RequestRow) => ({
  status: row.status,
  carrier: row.carrier,
  trackingNumber: row.trackingNumber,
  // The desk's note as a digest: staff may quote the member there (decision 053).
  internalNote: auditTextDigest(row.internalNote),
});

export const auditOf = (action: string, before: RequestRow, after: RequestRow): AuditRecord => ({
  action,
  target: { type: 'shipping_request', id: before.id },
  before: auditState(before),
  after: auditState(after),
});

export type DeskRefusal = Refusal<string>;
export type DeskOutcome<T> = Promise<{ ok: true; value: T } | DeskRefusal>;

export async function lockOrRefuse(tx: Database, requestId: string): Promise<RequestRow> {
  const row = await lockRequest(tx, requestId);
  if (!row) throw new RefusalError(refuse('SHIPPING_REQUEST_NOT_FOUND', { requestId }));
  return row;
}

// ── The queue ────────────────────────────────────────────────────────────────────────────────────

const dateField = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: '日付は 2027-05-10 の形で入力してください。' })
  .optional()
  .or(z.literal('').transform(() => undefined));

/** The queue's filters (the desk page's query string and any API alike); dates are 発送予定日 (JST). */
export const shippingQueueFilterSchema = z.object({
  status: z
    .enum(shippingStatuses, { error: '状態を選び直してください。' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  memberId: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
  from: dateField,
  to: dateField,
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type ShippingQueueFilter = z.input<typeof shippingQueueFilterSchema>;

export interface ShippingQueueItem {
  id: string;
  memberId: string;
  status: ShippingStatus;
  requestedAt: string;
  promisedDate: JstDate;
  /** Not shipped and its promised day is over. */
  overdue: boolean;
  itemCount: number;
  feeCoins: number;
  carrier: CarrierCode | null;
  trackingNumber: string | null;
  internalNote: string | null;
}

export interface ShippingQueue {
  items: ShippingQueueItem[];
  /** Requests per status (the member and date filters applied, the status filter not), and the overdue ones. */
  counts: Record<ShippingStatus | 'overdue', number>;
  page: number;
  hasNext: boolean;
}

export const SHIPPING_QUEUE_PAGE_SIZE = 50;

/**
 * The desk's queue: overdue requests first, then by promised date (then oldest request first);
 * filtered by status, member and promised date; with the count of each status. Needs 'shipping:read'.
 * @example const queue = await listShippingQueue(db, operator, shippingQueueFilterSchema.parse({ status: 'requested' }))
 */
export async function listShippingQueue(
  db: Database,
  operator: Operator,
  filter: z.output<typeof shippingQueueFilterSchema>,
  now = new Date(),
): Promise<{ ok: true; queue: ShippingQueue } | DeskRefusal> {
  if (!operator.permissions.has('shipping:read')) return refuse('PERMISSION_DENIED', { permission: 'shipping:read' });
  const at = now.toISOString();
  const open = sql`${shippingRequests.status} in ('requested', 'preparing')`;
  const overdue = sql`(${open} and ${shippingRequests.shipDeadline} <= ${at}::timestamptz)`;
  const common: SQL[] = [];
  if (filter.memberId) common.push(eq(shippingRequests.memberId, filter.memberId));
  if (filter.from) common.push(gte(shippingRequests.promisedDate, filter.from));
  if (filter.to) common.push(lte(shippingRequests.promisedDate, filter.to));
  const where = [...common, ...(filter.status ? [eq(shippingRequests.status, filter.status)] : [])];
  const offset = (filter.page - 1) * SHIPPING_QUEUE_PAGE_SIZE;
  const rows = await db
    .select({
      row: shippingRequests,
      overdue: sql<boolean>`${overdue}`,
      itemCount: sql<number>`(select count(*)::int from ${shippingRequestItems} i where i.request_id = ${shippingRequests.id})`,
    })
    .from(shippingRequests)
    .where(where.length ? and(...where) : undefined)
    .orderBy(
      sql`case when ${overdue} then 0 else 1 end`,
      asc(shippingRequests.promisedDate),
      asc(shippingRequests.requestedAt),
      asc(shippingRequests.id),
    )
    .limit(SHIPPING_QUEUE_PAGE_SIZE + 1)
    .offset(offset);
  const tallies = await db
    .select({
      status: shippingRequests.status,
      n: sql<number>`count(*)::int`,
      overdue: sql<number>`(count(*) filter (where ${overdue}))::int`,
    })
    .from(shippingRequests)
    .where(common.length ? and(...common) : undefined)
    .groupBy(shippingRequests.status);
  const counts = Object.fromEntries([...shippingStatuses, 'overdue'].map((s) => [s, 0])) as ShippingQueue['counts'];
  for (const t of tallies) {
    counts[t.status] = Number(t.n);
    counts.overdue += Number(t.overdue);
  }
  return {
    ok: true,
    queue: {
      items: rows.slice(0, SHIPPING_QUEUE_PAGE_SIZE).map(({ row, overdue: late, itemCount }) => ({
        id: row.id,
        memberId: row.memberId,
        status: row.status,
        requestedAt: row.requestedAt.toISOString(),
        promisedDate: row.promisedDate,
        overdue: Boolean(late),
        itemCount: Number(itemCount),
        feeCoins: row.feeCoins,
        carrier: (row.carrier as CarrierCode | null) ?? null,
        trackingNumber: row.trackingNumber,
        internalNote: row.internalNote,
      })),
      counts,
      page: filter.page,
      hasNext: rows.length > SHIPPING_QUEUE_PAGE_SIZE,
    },
  };
}
