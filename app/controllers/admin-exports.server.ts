// The admin area's CSV exports (/admin/exports/<kind>.csv): members, orders, draws, the coin ledger and
// shipping requests. Each is streamed: the response body pulls one keyset batch from the database when
// the client is ready for more, so a million rows never sit in memory. Each export is recorded in the
// audit log (who exported which list, when) before the first byte; cells that a spreadsheet would run
// as formulas are escaped.
import { stringify } from 'csv-stringify/sync';
import { data } from 'react-router';
import type { Database } from '#db/client';
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { runAdminAction, type AdminPermission, type Operator } from '#modules/admin';
import { drawsExportBatch } from '#modules/draw';
import { membersExportBatch } from '#modules/identity';
import { ordersExportBatch } from '#modules/payments';
import { shippingExportBatch } from '#modules/shipping';
import { ledgerExportBatch } from '#modules/wallet';
import { CLOSURE_REPORT_COLUMNS, closureReportPage, closureReportTotals, readClosure } from '#modules/shop';

/** Rows fetched per database round trip. */
export const EXPORT_BATCH_ROWS = 5_000;

type Cell = string | number | boolean | null | undefined;
const iso = (value: Date | null | undefined) => (value ? value.toISOString() : '');

/** One list: who may export it, its columns, and how to fetch the batch after a key. */
interface ExportKind<K extends string | number> {
  permission: AdminPermission;
  label: string;
  columns: string[];
  start: K;
  batch(db: Database, after: K, limit: number): Promise<{ key: K; cells: Cell[] }[]>;
  /** Lines after the last batch (the closure report's totals). */
  trailer?(db: Database): Promise<Cell[][]>;
}

const kind = <K extends string | number>(definition: ExportKind<K>) => definition as unknown as ExportKind<string>;

export const EXPORT_KINDS = {
  members: kind({
    permission: 'members:read',
    label: '会員',
    columns: [
      'member_id',
      'nickname',
      'email',
      'email_verified',
      'phone',
      'role',
      'banned',
      'deleted_at',
      'created_at',
    ],
    start: '',
    batch: async (db, after: string, limit) =>
      (await membersExportBatch(db, after, limit)).map((m) => ({
        key: m.id,
        cells: [
          m.id,
          m.name,
          m.email,
          m.emailVerified,
          m.phoneNumber,
          m.role,
          Boolean(m.banned),
          iso(m.deletedAt),
          iso(m.createdAt),
        ],
      })),
  }),
  orders: kind({
    permission: 'orders:read',
    label: '注文',
    columns: [
      'order_id',
      'receipt_no',
      'member_id',
      'status',
      'method',
      'amount_jpy',
      'paid_coins',
      'bonus_coins',
      'rank_bonus_coins',
      'refunded_jpy',
      'created_at',
      'credited_at',
    ],
    start: '',
    batch: async (db, after: string, limit) =>
      (await ordersExportBatch(db, after, limit)).map((o) => ({
        key: o.id,
        cells: [
          o.id,
          o.receiptNo,
          o.memberId,
          o.status,
          o.method,
          o.amountJpy,
          o.paidCoins,
          o.bonusCoins,
          o.rankBonusCoins,
          o.refundedJpy,
          iso(o.createdAt),
          iso(o.creditedAt),
        ],
      })),
  }),
  draws: kind({
    permission: 'members:read',
    label: 'ガチャ履歴',
    columns: ['draw_id', 'member_id', 'gacha_id', 'count', 'cost_coins', 'status', 'last_one', 'created_at'],
    start: '',
    batch: async (db, after: string, limit) =>
      (await drawsExportBatch(db, after, limit)).map((d) => ({
        key: d.id,
        cells: [d.id, d.memberId, d.gachaId, d.count, d.cost, d.status, d.lastOne, iso(d.createdAt)],
      })),
  }),
  ledger: kind({
    permission: 'members:read',
    label: 'コイン台帳',
    columns: [
      'entry_id',
      'created_at',
      'member_id',
      'kind',
      'amount',
      'reason',
      'counter_account',
      'ref',
      'paid_after',
      'free_after',
    ],
    start: 0,
    batch: async (db, after: number, limit) =>
      (await ledgerExportBatch(db, after, limit)).map((e) => ({
        key: e.id,
        cells: [
          e.id,
          iso(e.createdAt),
          e.memberId,
          e.kind,
          e.amount,
          e.reason,
          e.counterAccount,
          e.ref,
          e.paidAfter,
          e.freeAfter,
        ],
      })),
  }),
  shipping: kind({
    permission: 'shipping:read',
    label: '発送依頼',
    columns: [
      'request_id',
      'member_id',
      'status',
      'requested_at',
      'promised_date',
      'items',
      'fee_coins',
      'carrier',
      'tracking_number',
      'shipped_at',
      'delivered_at',
      'compensation_coins',
    ],
    start: '',
    batch: async (db, after: string, limit) =>
      (await shippingExportBatch(db, after, limit)).map((r) => ({
        key: r.id,
        cells: [
          r.id,
          r.memberId,
          r.status,
          iso(r.requestedAt),
          r.promisedDate,
          Number(r.items),
          r.feeCoins,
          r.carrier,
          r.trackingNumber,
          iso(r.shippedAt),
          iso(r.deliveredAt),
          r.compensationCoins,
        ],
      })),
  }),
  // The closure's report for the accounts (decision 085): per member, the unused paid coins at the sales stop and
  // now, the yen refundable, the application and the transfer; then the totals (基準日の未使用残高).
  closure: kind({
    permission: 'reports:read',
    label: '閉店・払戻し',
    columns: CLOSURE_REPORT_COLUMNS,
    start: '',
    batch: async (db, after: string, limit) => {
      const closure = await readClosure(db);
      return closure ? closureReportPage(db, closure, after, limit) : [];
    },
    trailer: async (db) => {
      const closure = await readClosure(db);
      return closure ? closureReportTotals(db, closure) : [];
    },
  }),
} as const;
export type ExportKindName = keyof typeof EXPORT_KINDS;

const encoder = new TextEncoder();
const csvOf = (rows: Cell[][]) =>
  stringify(rows, { record_delimiter: 'windows', escape_formulas: true, cast: { boolean: (b) => (b ? '1' : '0') } });

/**
 * The list as a byte stream: a BOM and the header, then one batch per pull until the list ends.
 * @example new Response(exportStream(db, EXPORT_KINDS.ledger))
 */
export function exportStream(db: Database, list: ExportKind<string>, batchRows = EXPORT_BATCH_ROWS) {
  let after = list.start;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${csvOf([list.columns])}`));
      },
      async pull(controller) {
        if (done) return;
        const rows = await list.batch(db, after, batchRows);
        if (rows.length > 0) {
          after = rows[rows.length - 1]!.key;
          controller.enqueue(encoder.encode(csvOf(rows.map((r) => r.cells))));
        }
        if (rows.length < batchRows) {
          done = true;
          if (list.trailer) controller.enqueue(encoder.encode(csvOf(await list.trailer(db))));
          controller.close();
        }
      },
    },
    // One batch waits in the queue at most: the database is read as fast as the client takes the rows.
    { highWaterMark: 1 },
  );
}

/** Records who exported which list, in the audit log, before the first row leaves. */
async function recordExport(db: Database, operator: Operator, name: ExportKindName) {
  const list = EXPORT_KINDS[name];
  return runAdminAction(db, operator, list.permission, async () => ({
    value: null,
    audit: { action: `export.${name}`, target: { type: 'export', id: name } },
  }));
}

export async function exportLoader(shop: ShopRequest, request: Request, name: string) {
  if (!Object.hasOwn(EXPORT_KINDS, name)) throw data('このCSVはありません。', { status: 404 });
  const kindName = name as ExportKindName;
  const list = EXPORT_KINDS[kindName];
  const operator = await requireOperator(shop, request, list.permission);
  const recorded = await recordExport(shop.services.db, operator, kindName);
  if (!recorded.ok) throw data('この操作を行う権限がありません。', { status: 403 });
  const day = new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
  return new Response(exportStream(shop.services.db, list), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${kindName}-${day}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
