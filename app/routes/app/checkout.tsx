// /app/checkout/{paidy,merpay,paypay,stripe,linelink,amazonpay}: checkout inside the native app.
import type { Route } from './+types/checkout';
import { FeaturePage } from '~/components/FeaturePage';
import { notFound } from '~/lib/not-found';

export const APP_CHECKOUT_METHODS = ['paidy', 'merpay', 'paypay', 'stripe', 'linelink', 'amazonpay'] as const;

export const handle = { title: 'アプリ決済' };

export function loader({ request, params }: Route.LoaderArgs) {
  if (!(APP_CHECKOUT_METHODS as readonly string[]).includes(params.paymentMethod)) throw notFound(new URL(request.url).pathname);
  return null;
}

export default function AppCheckout() {
  return (
    <FeaturePage title="アプリ決済" emptyTitle="アプリからのお支払いは準備中です">
      アプリでのコイン購入は近日対応予定です。アプリに戻ってお待ちください。
    </FeaturePage>
  );
}
