// /admin's dashboard: the shop's figures of the last 30 Japan-time days, read only from the rollups the
// dashboard job keeps (docs/decisions/028) plus small indexed counts; each section only for staff who
// hold its permission.
import { TZDate } from '@date-fns/tz';
import { format, subDays } from 'date-fns';
import type { Database } from '#db/client';
import type { Operator } from '#modules/admin';
import { drawDailyFigures, drawRollupsFoldedTo, foldedLotsByPack } from '#modules/draw';
import { packTitles } from '#modules/gacha';
import { newMemberDailyFigures } from '#modules/identity';
import { salesDailyFigures, unusedPaidSnapshotFor } from '#modules/payments';
import { PAYMENT_METHOD_INFO, isPaymentMethod } from '#modules/payments/methods';
import { listShippingQueue, shippingQueueFilterSchema } from '#modules/shipping';

/** Days on the dashboard's charts, today (JST) included. */
export const DASHBOARD_DAYS = 30;
/** Packs on the sell-through chart. */
export const TOP_PACKS = 10;

export interface DashboardDay {
  day: string;
  value: number;
}

export interface Dashboard {
  /** Draws, sales and sign-ups are folded up to this instant (ISO), null before the first fold. */
  foldedTo: string | null;
  days: { from: string; to: string };
  sales: {
    byDay: DashboardDay[];
    byMethod: { label: string; orders: number; amountJpy: number }[];
    total: number;
  } | null;
  unusedPaid: {
    baseDate: string;
    unusedPaidCoins: number;
    thresholdJpy: number;
    exceedsThreshold: boolean;
    computedAt: string;
  } | null;
  /** null when the staff member lacks orders:read; `missing` when the job has not computed it yet. */
  unusedPaidMissing: boolean;
  draws: { draws: DashboardDay[]; lots: DashboardDay[] } | null;
  members: { active: DashboardDay[]; newMembers: DashboardDay[] } | null;
  sellThrough: { title: string; sold: number; total: number; percent: number }[] | null;
  shipping: { open: number; overdue: number } | null;
}

const jstDay = (at: Date) => format(new TZDate(at, 'Asia/Tokyo'), 'yyyy-MM-dd');

/**
 * The dashboard for this operator: sections they may not read are null.
 * @example const dashboard = await loadDashboard(db, operator, new Date())
 */
export async function loadDashboard(db: Database, operator: Operator, now: Date): Promise<Dashboard> {
  const to = jstDay(now);
  const from = jstDay(subDays(new TZDate(now, 'Asia/Tokyo'), DASHBOARD_DAYS - 1));
  const may = (permission: Parameters<Operator['permissions']['has']>[0]) => operator.permissions.has(permission);
  const money = may('orders:read');
  const reports = may('reports:read');

  // One after another: PGlite has one connection, and each read is a few rows of a rollup.
  const foldedTo = await drawRollupsFoldedTo(db);
  let sales: Dashboard['sales'] = null;
  let unusedPaid: Dashboard['unusedPaid'] = null;
  if (money) {
    const rows = await salesDailyFigures(db, from, to);
    const perDay = new Map<string, number>();
    const perMethod = new Map<string, { orders: number; amountJpy: number }>();
    for (const r of rows) {
      perDay.set(r.day, (perDay.get(r.day) ?? 0) + r.amountJpy);
      const m = perMethod.get(r.method) ?? { orders: 0, amountJpy: 0 };
      perMethod.set(r.method, { orders: m.orders + r.orders, amountJpy: m.amountJpy + r.amountJpy });
    }
    const days = dayList(from, DASHBOARD_DAYS);
    sales = {
      byDay: days.map((day) => ({ day, value: perDay.get(day) ?? 0 })),
      byMethod: [...perMethod]
        .map(([method, m]) => ({ label: isPaymentMethod(method) ? PAYMENT_METHOD_INFO[method].label : method, ...m }))
        .sort((a, b) => b.amountJpy - a.amountJpy),
      total: rows.reduce((sum, r) => sum + r.amountJpy, 0),
    };
    const snapshot = await unusedPaidSnapshotFor(db, now);
    unusedPaid = snapshot && {
      baseDate: snapshot.baseDate,
      unusedPaidCoins: snapshot.unusedPaidCoins,
      thresholdJpy: snapshot.thresholdJpy,
      exceedsThreshold: snapshot.exceedsThreshold,
      computedAt: snapshot.computedAt,
    };
  }
  let draws: Dashboard['draws'] = null;
  let members: Dashboard['members'] = null;
  let sellThrough: Dashboard['sellThrough'] = null;
  if (reports) {
    const drawDays = await drawDailyFigures(db, from, to);
    draws = {
      draws: drawDays.map((d) => ({ day: d.day, value: d.draws })),
      lots: drawDays.map((d) => ({ day: d.day, value: d.lots })),
    };
    const signUps = await newMemberDailyFigures(db, from, to);
    members = {
      active: drawDays.map((d) => ({ day: d.day, value: d.activeMembers })),
      newMembers: signUps.map((d) => ({ day: d.day, value: d.newMembers })),
    };
    const sold = await foldedLotsByPack(db);
    const packs = await packTitles(db, [...sold.keys()]);
    sellThrough = [...sold]
      .flatMap(([id, lots]) => {
        const pack = packs.get(id);
        if (!pack || pack.totalLots <= 0) return [];
        const soldLots = Math.min(lots, pack.totalLots);
        return [
          {
            title: pack.title,
            sold: soldLots,
            total: pack.totalLots,
            percent: Math.round((soldLots * 1000) / pack.totalLots) / 10,
          },
        ];
      })
      .sort((a, b) => b.percent - a.percent || b.sold - a.sold)
      .slice(0, TOP_PACKS);
  }
  let shipping: Dashboard['shipping'] = null;
  if (may('shipping:read')) {
    const queue = await listShippingQueue(db, operator, shippingQueueFilterSchema.parse({}), now);
    if (queue.ok)
      shipping = {
        open: queue.queue.counts.requested + queue.queue.counts.preparing,
        overdue: queue.queue.counts.overdue,
      };
  }
  return {
    foldedTo: foldedTo?.toISOString() ?? null,
    days: { from, to },
    sales,
    unusedPaid,
    unusedPaidMissing: money && !unusedPaid,
    draws,
    members,
    sellThrough,
    shipping,
  };
}

/** `count` consecutive days from `first` (YYYY-MM-DD), as YYYY-MM-DD. */
function dayList(first: string, count: number): string[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}
