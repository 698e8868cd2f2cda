// /shop: the coin shop (members only).
import { FeaturePage } from '~/components/FeaturePage';

export const handle = { title: 'コインショップ' };

export default function Shop() {
  return (
    <FeaturePage title="コインショップ" lead="コインを購入してオリパを引こう" emptyTitle="コインの販売は準備中です">
      クレジットカード・PayPay・Paidy・メルペイ・Amazon Pay でのお支払いに対応予定です。
    </FeaturePage>
  );
}
