// /admin/reports/unused-paid: 資金決済法's figure at a base date (3/31 or 9/30, JST): the unused paid-coin
// balance, against the ¥10,000,000 threshold above which a report and a deposit of half are due. The
// same computation as the command line's report:unused-paid.
import { data } from 'react-router';
import type { ShopRequest } from '#server/context';
import { requireOperator } from '~/controllers/admin.server';
import { baseDateBefore, unusedPaidBalanceReport } from '#modules/payments';

/** The base dates on or before `now`, newest first (the last three years). */
function recentBaseDates(now: Date): string[] {
  const dates: string[] = [];
  let at = baseDateBefore(now);
  for (let i = 0; i < 6; i++) {
    dates.push(at);
    // The day before a base date lies in the previous half-year.
    at = baseDateBefore(new Date(`${at}T00:00:00+09:00`));
  }
  return dates;
}

export async function unusedPaidReportLoader(shop: ShopRequest, request: Request) {
  await requireOperator(shop, request, 'orders:read');
  const dates = recentBaseDates(new Date());
  const asked = new URL(request.url).searchParams.get('date');
  if (asked && !/^\d{4}-(03-31|09-30)$/.test(asked))
    throw data('基準日は 3月31日 または 9月30日（例: 2027-03-31）で指定してください。', { status: 400 });
  const baseDate = asked ?? dates[0]!;
  return { dates, report: await unusedPaidBalanceReport(shop.services.db, baseDate) };
}
