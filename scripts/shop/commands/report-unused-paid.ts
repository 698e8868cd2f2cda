// report:unused-paid: 資金決済法 — unused paid coins at a base date (3/31 or 9/30; default the latest).
import { baseDateBefore, unusedPaidBalanceReport } from '#modules/payments';
import { UsageError } from '../args';
import type { ShopCommand } from '../command';

export const reportUnusedPaid: ShopCommand = {
  name: 'report:unused-paid',
  usage: '[--date 2027-03-31]                   資金決済法 基準日の未使用残高',
  options: { date: { type: 'string' } },
  async run({ db, out }, { values }) {
    const date = typeof values.date === 'string' ? values.date : baseDateBefore(new Date());
    if (!/^\d{4}-(03-31|09-30)$/.test(date))
      throw new UsageError('--date は基準日（YYYY-03-31 または YYYY-09-30）です。');
    out(JSON.stringify(await unusedPaidBalanceReport(db, date)));
  },
};
