// /shop/checkout/paidy/widget?order=…: Paidy has no hosted page; its checkout (paidy.js) runs on ours.
// Everything it is given comes from the member's own pending order in the database — never from the
// address — and `order.order_ref` is our order id, which is how the payment is proven ours later
// (modules/payments/providers/paidy.md). When Paidy closes, the member goes to /shop/backfrompaidy.
import { useEffect, useRef, useState } from 'react';
import { data } from 'react-router';
import type { Route } from './+types/paidy-widget';
import { shopRequestContext } from '#server/context';
import { PageHeading, EmptyState } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { formatYen } from '~/lib/numbers';
import { getOrder } from '#modules/payments';

export const handle = { title: 'ペイディでお支払い' };

/** Paidy's script: the only outside script the shop loads, and only on this page (CSP allows it when Paidy is configured). */
export const PAIDY_SCRIPT_URL = 'https://apps.paidy.com/';

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = context.get(shopRequestContext);
  const orderId = new URL(request.url).searchParams.get('order') ?? '';
  const publicKey = shop.services.config.PAIDY_PUBLIC_KEY;
  const order =
    shop.member && /^[0-9a-f-]{36}$/i.test(orderId) ? await getOrder(shop.services.db, shop.member.id, orderId) : null;
  if (!order || order.method !== 'paidy') {
    return data(
      { state: 'missing' as const, message: 'ご注文が見つかりません。コインショップからやり直してください。' },
      { status: 404 },
    );
  }
  const returnPath = order.channel === 'app' ? '/app/return' : '/shop/backfrompaidy';
  if (!publicKey) {
    return data(
      {
        state: 'missing' as const,
        message: 'ペイディでのお支払いは現在ご利用いただけません。別のお支払い方法をお選びください。',
      },
      { status: 404 },
    );
  }
  if (order.status !== 'pending') {
    return data(
      { state: 'missing' as const, message: 'このお支払いはすでに終了しています。購入履歴をご確認ください。' },
      { status: 409 },
    );
  }
  return {
    state: 'ready' as const,
    publicKey,
    storeName: shop.services.config.SITE_NAME,
    email: shop.member!.email,
    order: { id: order.id, amountJpy: order.amountJpy, packName: order.packName },
    returnUrl: `${returnPath}?order=${order.id}`,
  };
}

interface PaidyHandler {
  launch(payload: unknown): void;
}
declare global {
  interface Window {
    Paidy?: {
      configure(options: {
        api_key: string;
        closed: (callback: { id?: string; status: string }) => void;
      }): PaidyHandler;
    };
  }
}

export default function PaidyWidget({ loaderData }: Route.ComponentProps) {
  const [state, setState] = useState<'loading' | 'ready' | 'open' | 'error'>('loading');
  const handler = useRef<PaidyHandler | null>(null);
  useEffect(() => {
    if (loaderData.state !== 'ready') return;
    const { publicKey, returnUrl } = loaderData;
    const script = document.createElement('script');
    script.src = PAIDY_SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      if (!window.Paidy) return setState('error');
      handler.current = window.Paidy.configure({
        api_key: publicKey,
        closed: (callback) => {
          // authorized / rejected: the return page asks Paidy (and captures); closed: the member canceled.
          const next =
            callback.status === 'closed' || !callback.id
              ? `${returnUrl}&canceled=1`
              : `${returnUrl}&payment_id=${encodeURIComponent(callback.id)}&status=${encodeURIComponent(callback.status)}`;
          window.location.assign(next);
        },
      });
      setState('ready');
    };
    script.onerror = () => setState('error');
    document.head.appendChild(script);
    return () => script.remove();
  }, [loaderData]);

  if (loaderData.state !== 'ready') {
    return (
      <div className="mx-auto flex max-w-xl flex-col gap-4">
        <PageHeading title="ペイディでお支払い" />
        <EmptyState
          title={loaderData.message}
          action={
            <ButtonLink to="/mypage?tab=purchases" variant="secondary">
              購入履歴を見る
            </ButtonLink>
          }
        />
      </div>
    );
  }
  const { order, storeName, email } = loaderData;
  const launch = () => {
    if (!handler.current) return;
    setState('open');
    handler.current.launch({
      amount: order.amountJpy,
      currency: 'JPY',
      store_name: storeName,
      buyer: { email },
      order: {
        items: [{ id: order.id, title: order.packName, quantity: 1, unit_price: order.amountJpy }],
        order_ref: order.id,
      },
      description: order.packName,
    });
  };
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4">
      <PageHeading
        title="ペイディでお支払い"
        lead="あと払いペイディの画面が開きます。メールアドレスと携帯電話番号でお支払いいただけます。"
      />
      <section className="rounded-2xl bg-white p-4 shadow-sm" aria-live="polite">
        <p className="text-sm text-neutral-600">{order.packName}</p>
        <p className="text-3xl font-bold" data-testid="paidy-amount">
          {formatYen(order.amountJpy)}
        </p>
        {state === 'error' && (
          <p role="alert" className="mt-2 text-sm font-bold text-red-700">
            ペイディを読み込めませんでした。通信環境をご確認のうえ、ページを再読み込みしてください。
          </p>
        )}
      </section>
      <Button onClick={launch} loading={state === 'loading' || state === 'open'} disabled={state !== 'ready'} fullWidth>
        {state === 'loading'
          ? 'ペイディを読み込み中…'
          : state === 'open'
            ? 'ペイディで手続き中…'
            : 'ペイディでお支払い'}
      </Button>
      <noscript>
        <p className="text-sm text-red-700">ペイディでのお支払いにはJavaScriptを有効にしてください。</p>
      </noscript>
    </div>
  );
}
