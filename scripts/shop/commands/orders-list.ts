// orders:list: orders newest first; those in review wait for an operator.
import { orderStatuses, type OrderStatus } from '#modules/payments';
import { integerOption, UsageError } from '../args';
import { findMember } from '../find-member';
import { listOrdersForOperator } from '#modules/payments';
import type { ShopCommand } from '../command';

export const ordersList: ShopCommand = {
  name: 'orders:list',
  usage: '[--status review|pending|paid|…] [--member <id|email>] [--count N]   注文の一覧（新しい順）',
  options: { status: { type: 'string' }, member: { type: 'string' }, count: { type: 'string' } },
  async run({ db, out }, { values }) {
    const status = values.status;
    if (status !== undefined && !(orderStatuses as readonly unknown[]).includes(status))
      throw new UsageError(`--status は ${orderStatuses.join(', ')} のいずれかです。`);
    const limit = integerOption(values, 'count', { min: 1, max: 1000, fallback: 50 });
    const member = typeof values.member === 'string' ? await findMember(db, values.member) : null;
    const rows = await listOrdersForOperator(db, {
      status: status as OrderStatus | undefined,
      memberId: member?.id,
      limit,
    });
    for (const row of rows) {
      out(
        JSON.stringify({
          id: row.id,
          receiptNo: row.receiptNo,
          member: row.memberId,
          status: row.status,
          method: row.method,
          amountJpy: row.amountJpy,
          paidCoins: row.paidCoins,
          bonusCoins: row.bonusCoins + row.rankBonusCoins,
          failureReason: row.failureReason,
          unrecoveredCoins: row.unrecoveredCoins,
          createdAt: row.createdAt.toISOString(),
          creditedAt: row.creditedAt?.toISOString() ?? null,
        }),
      );
    }
  },
};
