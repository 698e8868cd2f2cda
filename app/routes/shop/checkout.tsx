// /shop/checkout/{paymentMethod}: the final confirmation before the provider's page.
import type { Route } from './+types/checkout';
import { FeaturePage } from '~/components/FeaturePage';
import { ButtonLink } from '~/components/Button';
import { notFound } from '~/lib/not-found';

export const PAYMENT_METHODS = ['card', 'paypay', 'paidy', 'merpay', 'amazonpay', 'sandbox'] as const;

export const handle = { title: 'お支払い' };

export function loader({ request, params }: Route.LoaderArgs) {
  if (!(PAYMENT_METHODS as readonly string[]).includes(params.paymentMethod)) throw notFound(new URL(request.url).pathname);
  return null;
}

export default function Checkout() {
  return (
    <FeaturePage title="お支払い" emptyTitle="お支払いは準備中です" action={<ButtonLink to="/shop" variant="secondary">コインショップへ戻る</ButtonLink>}>
      コインの販売開始まで今しばらくお待ちください。
    </FeaturePage>
  );
}
