// /mypage/shipping/:requestId: one shipping request as its member follows it: the status, the
// 発送予定日 (kept, or compensated when missed), the carrier's tracking link, each step with its time,
// the cards and the address as sent. While 受付済み, the member may cancel (asks first). The contact
// link opens the form with this request chosen, so the shipping desk sees the inquiry on the request.
import { useState } from 'react';
import { Form, useNavigation } from 'react-router';
import type { Route } from './+types/request';
import { shopRequestContext } from '#server/context';
import { PageHeading } from '~/components/PageFrame';
import { Button, ButtonLink } from '~/components/Button';
import { ShippingCards } from '~/components/shop/ShippingCards';
import { Sheet } from '~/components/Sheet';
import { formatMemberDateTime } from '#modules/kernel/dates';
import { formatCoins } from '~/lib/numbers';
import { shippingRequestAction, shippingRequestLoader } from '~/controllers/shipping-pages.server';

export const handle = { title: '発送状況の詳細' };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return shippingRequestLoader(context.get(shopRequestContext), request, params.requestId);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return shippingRequestAction(context.get(shopRequestContext), request, params.requestId);
}

export default function ShippingRequestPage({ loaderData, actionData }: Route.ComponentProps) {
  const { request: r, done } = loaderData;
  const navigation = useNavigation();
  const [confirming, setConfirming] = useState(false);
  const busy = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST';
  const error = (actionData as { error?: string } | undefined)?.error;
  return (
    <div className="flex flex-col gap-4 pb-8">
      <PageHeading title="発送状況" />
      {done === 'requested' ? (
        <p role="status" className="rounded-xl bg-green-50 p-3 text-sm font-bold text-green-800">
          発送のお申し込みを受け付けました。確認メールをお送りしました。
        </p>
      ) : null}
      {done === 'canceled' ? (
        <p role="status" className="rounded-xl bg-green-50 p-3 text-sm font-bold text-green-800">
          お申し込みをキャンセルしました。カードは獲得商品（保管中）に戻りました。
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-bold text-danger">
          {error}
        </p>
      ) : null}
      <section aria-labelledby="status" className="rounded-2xl bg-white p-4 shadow-sm">
        <h2 id="status" className="text-xl font-black">
          {r.statusLabel}
        </h2>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
          <dt className="text-muted">発送予定日</dt>
          <dd className="text-right font-bold">{r.promisedDate.replaceAll('-', '/')}</dd>
          {r.carrierName ? (
            <>
              <dt className="text-muted">配送業者</dt>
              <dd className="text-right">{r.carrierName}</dd>
              <dt className="text-muted">お問い合わせ番号</dt>
              <dd className="text-right font-mono">{r.trackingNumber}</dd>
            </>
          ) : null}
          <dt className="text-muted">発送手数料</dt>
          <dd className="text-right">{r.feeCoins === 0 ? '無料' : `${formatCoins(r.feeCoins)}コイン`}</dd>
        </dl>
        {r.late ? (
          <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm">
            発送予定日を過ぎてしまい、申し訳ありません。
            {r.compensatedAt
              ? `お詫びとして${formatCoins(r.compensationCoins)}コイン（無償）をお送りしました。`
              : 'お詫びのコインをお送りします。'}
          </p>
        ) : null}
        {r.trackingUrl ? (
          <ButtonLink to={r.trackingUrl} target="_blank" rel="noopener noreferrer" fullWidth className="mt-4">
            {r.carrierName}の配送状況を見る
          </ButtonLink>
        ) : null}
      </section>
      <section aria-labelledby="timeline" className="rounded-2xl bg-white p-4 shadow-sm">
        <h2 id="timeline" className="text-base font-bold">
          これまでの流れ
        </h2>
        <ol className="mt-3 flex flex-col gap-3 border-l-2 border-line pl-4">
          {r.events.map((e, index) => (
            <li key={`${e.at}-${index}`} className="text-sm">
              <span className="block font-bold">{e.statusLabel}</span>
              <span className="block text-xs text-muted">{formatMemberDateTime(e.at)}</span>
              {e.note ? <span className="block text-xs">{e.note}</span> : null}
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="items" className="rounded-2xl bg-white p-4 shadow-sm">
        <h2 id="items" className="text-base font-bold">
          カード（{r.items.length}枚）
        </h2>
        <ShippingCards items={r.items} />
      </section>
      <section aria-labelledby="address" className="rounded-2xl bg-white p-4 shadow-sm">
        <h2 id="address" className="text-base font-bold">
          お届け先
        </h2>
        <p className="mt-2 text-sm leading-relaxed">
          {r.address.name} 様
          <br />〒{r.address.postalCode.slice(0, 3)}-{r.address.postalCode.slice(3)} {r.address.prefecture}
          {r.address.city}
          {r.address.town} {r.address.building ?? ''}
        </p>
      </section>
      {r.cancelable ? (
        <Button variant="secondary" fullWidth onClick={() => setConfirming(true)}>
          お申し込みをキャンセルする
        </Button>
      ) : null}
      <ButtonLink
        to={`/contact?category=shipping&related=${encodeURIComponent(`shipping_request:${r.id}`)}`}
        variant="plain"
        fullWidth
      >
        この発送についてお問い合わせ
      </ButtonLink>
      <ButtonLink to="/mypage/shipping" variant="plain" fullWidth>
        発送状況の一覧へ
      </ButtonLink>
      {confirming ? (
        <Sheet title="お申し込みをキャンセルしますか？" onClose={() => setConfirming(false)} busy={busy}>
          <p className="text-sm leading-relaxed">
            {r.items.length}枚のカードは獲得商品（保管中）に戻ります。
            {r.feeCoins > 0 ? `発送手数料${formatCoins(r.feeCoins)}コインはお返しします。` : ''}
          </p>
          <Form method="post" className="mt-4 flex flex-col gap-2">
            <input type="hidden" name="intent" value="cancel" />
            <Button type="submit" variant="danger" fullWidth loading={busy}>
              キャンセルする
            </Button>
            <Button variant="plain" fullWidth onClick={() => setConfirming(false)} disabled={busy}>
              やめる
            </Button>
          </Form>
        </Sheet>
      ) : null}
    </div>
  );
}
