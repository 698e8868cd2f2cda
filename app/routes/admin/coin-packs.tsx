// /admin/coin-packs: the coin packs of the coin shop. Each pack's numbers, edited in place; a new pack;
// on sale or stopped. Orders copy a pack's numbers, so an edit never changes a purchase.
import { useEffect, useRef } from 'react';
import { Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/coin-packs';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { coinPacksAction, coinPacksLoader, type CoinPackActionData } from '~/controllers/admin-coin-packs.server';

export const handle = { title: 'コインパック' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return coinPacksLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return coinPacksAction(context.get(shopRequestContext), request);
}

type Pack = Route.ComponentProps['loaderData']['packs'][number];

const input = 'mt-1 block min-h-11 w-full rounded-lg border border-line px-3 text-sm';

function PackFields({ pack, prefix }: { pack?: Pack; prefix: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-4">
      {pack ? (
        <input type="hidden" name="id" value={pack.id} />
      ) : (
        <label className="text-xs font-bold">
          ID（英小文字・数字・-）
          <input name="id" required maxLength={40} pattern="[a-z0-9\-]{1,40}" className={input} />
        </label>
      )}
      <label className={`text-xs font-bold ${pack ? 'sm:col-span-2' : ''}`}>
        名前
        <input name="name" required maxLength={60} defaultValue={pack?.name} className={input} />
      </label>
      <label className="text-xs font-bold">
        価格（円・税込）
        <input name="priceJpy" inputMode="numeric" required defaultValue={pack?.priceJpy} className={input} />
      </label>
      <label className="text-xs font-bold">
        有償コイン
        <input name="paidCoins" inputMode="numeric" required defaultValue={pack?.paidCoins} className={input} />
      </label>
      <label className="text-xs font-bold">
        ボーナス（無償）
        <input name="bonusCoins" inputMode="numeric" defaultValue={pack?.bonusCoins ?? 0} className={input} />
      </label>
      <label className="text-xs font-bold">
        バッジ（人気・おすすめなど）
        <input name="badge" maxLength={10} defaultValue={pack?.badge ?? ''} className={input} />
      </label>
      <label className="text-xs font-bold">
        表示順（小さいほど上）
        <input name="sortOrder" inputMode="numeric" defaultValue={pack?.sortOrder ?? 0} className={input} />
      </label>
      <label className="text-xs font-bold">
        販売開始（日本時間・空欄は制限なし）
        <input type="datetime-local" name="startsAt" defaultValue={pack?.startsAt ?? ''} className={input} />
      </label>
      <label className="text-xs font-bold">
        販売終了（日本時間・空欄は制限なし）
        <input type="datetime-local" name="endsAt" defaultValue={pack?.endsAt ?? ''} className={input} />
      </label>
      <div className="flex flex-col justify-end gap-1 text-sm sm:col-span-2">
        <label className="flex items-center gap-2" htmlFor={`${prefix}-first`}>
          <input
            id={`${prefix}-first`}
            type="checkbox"
            name="firstPurchaseOnly"
            defaultChecked={pack?.firstPurchaseOnly}
            className="size-4"
          />
          初回購入のみ
        </label>
        <label className="flex items-center gap-2" htmlFor={`${prefix}-active`}>
          <input
            id={`${prefix}-active`}
            type="checkbox"
            name="active"
            defaultChecked={pack ? pack.active : true}
            className="size-4"
          />
          販売中
        </label>
      </div>
    </div>
  );
}

export default function CoinPacksPage({ loaderData }: Route.ComponentProps) {
  const { packs } = loaderData;
  const answer = useActionData<CoinPackActionData>();
  const navigation = useNavigation();
  const busy = (form: string) =>
    navigation.state === 'submitting' &&
    (form === 'new' ? navigation.formData?.get('intent') === 'create' : navigation.formData?.get('id') === form);
  const createForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (answer?.form === 'new' && answer.ok) createForm.current?.reset();
  }, [answer]);
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">コインパック</h1>
      <p className="mt-1 text-sm text-muted">
        コインショップで販売するパックです。販売期間（日本時間）を決めると、その期間だけ表示・購入できます。注文は作成時の内容を記録するため、変更しても購入済みの注文は変わりません。1コイン＝1円の有償コインに、ボーナスは無償コインとして付与されます。
      </p>
      <ul className="mt-6 grid gap-3">
        {packs.map((p) => (
          <li key={p.id} className={`rounded-2xl border border-line bg-white p-4`}>
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-bold">
                {p.name} <span className="font-mono text-xs font-normal text-muted">{p.id}</span>
              </p>
              <p className="text-sm">
                ¥{p.priceJpy.toLocaleString('ja-JP')}・有償{p.paidCoins.toLocaleString('ja-JP')}
                {p.bonusCoins ? `＋無償${p.bonusCoins.toLocaleString('ja-JP')}` : ''}
                {p.firstPurchaseOnly ? '・初回のみ' : ''}{' '}
                <span
                  className={`ml-1 rounded px-2 py-0.5 text-xs font-bold ${p.active ? 'bg-green-100 text-green-900' : 'bg-slate-200'}`}
                >
                  {p.active
                    ? p.phase === 'open'
                      ? '販売中'
                      : p.phase === 'before'
                        ? '販売前'
                        : '販売終了'
                    : '販売停止'}
                </span>
                {p.windowText !== '常時' ? <span className="ml-1 text-xs">期間 {p.windowText}</span> : null}
              </p>
            </div>
            <details className="mt-2" open={answer?.form === p.id && Boolean(answer.error)}>
              <summary className="cursor-pointer text-sm font-bold underline">編集する</summary>
              <Form method="post" className="mt-3 grid gap-3">
                <input type="hidden" name="intent" value="save" />
                <ActionAnswer answer={answer} form={p.id} />
                <PackFields pack={p} prefix={`pack-${p.id}`} />
                <div>
                  <Button type="submit" variant="secondary" loading={busy(p.id)}>
                    保存
                  </Button>
                </div>
              </Form>
            </details>
            {answer?.form === p.id && answer.ok ? (
              <div className="mt-2">
                <ActionAnswer answer={answer} form={p.id} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <section aria-labelledby="new-pack" className="mt-8 rounded-2xl border border-line bg-white p-5">
        <h2 id="new-pack" className="text-lg font-bold">
          コインパックを追加する
        </h2>
        <Form method="post" ref={createForm} className="mt-3 grid gap-3">
          <input type="hidden" name="intent" value="create" />
          <ActionAnswer answer={answer} form="new" />
          <PackFields prefix="new" />
          <div>
            <Button type="submit" loading={busy('new')}>
              追加する
            </Button>
          </div>
        </Form>
      </section>
    </div>
  );
}
