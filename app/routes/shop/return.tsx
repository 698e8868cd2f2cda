// /shop/backfrom{paidy,merpay,paypay,purchase,amazonpay}: where payment providers send the member back.
import { FeaturePage } from '~/components/FeaturePage';
import { ButtonLink } from '~/components/Button';

export const handle = { title: 'お支払い結果' };

export default function ShopReturn() {
  return (
    <FeaturePage title="お支払い結果" emptyTitle="確認できるお支払いはありません" action={<ButtonLink to="/shop">コインショップへ</ButtonLink>}>
      お支払いの手続き中にこのページが表示された場合は、コインショップの購入履歴をご確認ください。
    </FeaturePage>
  );
}
