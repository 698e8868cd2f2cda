// /app/checkout/{paidy,merpay,paypay,stripe,amazonpay,linelink}: the native app's checkout in a web
// view, signed in by a one-time token (?ott=…). Exempt from the members redirect (specification
// section 4): a web view without a session is asked to reopen the page from the app. The payment
// methods show the same final confirmation as the web and return to /app/return; linelink links a
// LINE account and goes back to the app.
import { data } from 'react-router';
import type { Route } from './+types/checkout';
import { shopRequestContext } from '#server/context';
import { notFound } from '~/lib/not-found';
import { checkoutAction, checkoutLoader } from '~/controllers/checkout.server';
import { appReturnUrl, consumeAppHandoff } from '~/controllers/app-handoff.server';
import { lineLinkLoader } from '~/controllers/line-link.server';
import { CheckoutConfirmation } from '~/components/shop/CheckoutConfirmation';
import { EmptyState, PageHeading } from '~/components/PageFrame';
import type { CheckoutActionData, CheckoutLoaderData } from '~/components/shop/types';
import { APP_CHECKOUT_NAMES } from '#modules/payments/methods';

export const handle = { title: 'アプリでのお手続き' };

type AppCheckoutData =
  | { kind: 'checkout'; checkout: CheckoutLoaderData; backHref: string }
  | { kind: 'message'; title: string; message: string; backHref: string };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const name = params.paymentMethod;
  if (!(APP_CHECKOUT_NAMES as readonly string[]).includes(name)) throw notFound(new URL(request.url).pathname);
  const shop = context.get(shopRequestContext);
  const backHref = appReturnUrl(shop.services.config.APP_RETURN_URL, { status: 'canceled' });
  const handoff = await consumeAppHandoff(shop, request);
  if (handoff.kind !== 'none' || !shop.member) {
    const messages: Record<typeof handoff.kind, string> = {
      invalid:
        'このリンクは有効期限が切れているか、すでに使われています。アプリに戻って、もう一度お手続きを始めてください。',
      limited:
        '短時間に何度も試されたため、しばらくお待ちください。1分ほどたってから、アプリでもう一度お手続きを始めてください。',
      'not-app': 'このリンクはアプリ専用です。アプリを開いて、アプリからお手続きを始めてください。',
      'other-member': '別のアカウントでログインしています。アプリからお手続きを始め直してください。',
      none: 'ログイン情報を確認できませんでした。アプリに戻って、もう一度お手続きを始めてください。',
    };
    const message = messages[handoff.kind];
    const status = { invalid: 401, limited: 429, 'not-app': 403, 'other-member': 409, none: 200 }[handoff.kind];
    return data<AppCheckoutData>(
      { kind: 'message', backHref, title: 'アプリから開き直してください', message },
      { status, headers: { 'Cache-Control': 'no-store' } },
    );
  }
  if (name === 'linelink') return lineLinkLoader(shop, request, backHref);
  const result = await checkoutLoader(shop, request, name, 'app');
  return data<AppCheckoutData>(
    { kind: 'checkout', checkout: result.data, backHref },
    { status: result.init?.status ?? 200, headers: { 'Cache-Control': 'no-store' } },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (params.paymentMethod === 'linelink') throw notFound(new URL(request.url).pathname);
  return checkoutAction(context.get(shopRequestContext), request, params.paymentMethod, 'app');
}

export default function AppCheckout({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.kind === 'message') {
    return (
      <div className="mx-auto flex max-w-xl flex-col gap-4">
        <PageHeading title={loaderData.title} />
        <EmptyState
          title={loaderData.title}
          action={
            <a className="font-bold text-primary-ink underline" href={loaderData.backHref}>
              アプリに戻る
            </a>
          }
        >
          {loaderData.message}
        </EmptyState>
      </div>
    );
  }
  return (
    <CheckoutConfirmation
      data={loaderData.checkout}
      actionData={actionData as CheckoutActionData | undefined}
      backHref={loaderData.backHref}
      backLabel="アプリに戻る"
    />
  );
}
