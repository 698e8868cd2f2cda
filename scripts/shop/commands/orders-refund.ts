// orders:refund: refund a whole order at its provider; the order's coins that are left are taken back.
import { refundOrder } from '#modules/payments';
import { UsageError } from '../args';
import type { ShopCommand } from '../command';

export const ordersRefund: ShopCommand = {
  name: 'orders:refund',
  usage: '<orderId> --reason "理由"                  全額返金（コインも取り消し）',
  options: { reason: { type: 'string' } },
  needsGateway: true,
  async run({ db, out, gateway, paymentRules }, { values, positionals: [orderId] }) {
    const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
    if (!orderId || !reason) throw new UsageError('注文ID と --reason を指定してください。');
    if (!gateway || !paymentRules) throw new UsageError('決済事業者の設定を読み込めませんでした。');
    // A refusal (unknown order, not refundable) is worded by runAdminCommand from server/refusals.ts.
    const result = await refundOrder(db, gateway, orderId, reason, paymentRules);
    out(JSON.stringify(result.order));
  },
};
