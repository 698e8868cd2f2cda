// orders:refund: refund a whole order at its provider; the order's coins that are left are taken back.
import { refundOrderAsOperator } from '#modules/admin';
import { UsageError } from '../args';
import { settled, type ShopCommand } from '../command';

export const ordersRefund: ShopCommand = {
  name: 'orders:refund',
  usage: '<orderId> --reason "理由"                  全額返金（コインも取り消し）',
  options: { reason: { type: 'string' } },
  needsGateway: true,
  async run({ db, out, operator, gateway, paymentRules }, { values, positionals: [orderId] }) {
    const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
    if (!orderId || !reason) throw new UsageError('注文ID と --reason を指定してください。');
    if (!gateway || !paymentRules) throw new UsageError('決済事業者の設定を読み込めませんでした。');
    // A refusal (unknown order, not refundable) is worded by runAdminCommand from modules/refusals.
    const order = settled(await refundOrderAsOperator(db, operator, { gateway, rules: paymentRules, orderId, reason }));
    out(JSON.stringify(order));
  },
};
