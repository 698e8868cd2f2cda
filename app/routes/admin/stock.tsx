// /admin/stock: the physical cards behind the packs' prizes. How many are on the shelf, how many are
// promised (to unsold lots, to prizes not yet shipped, to substitutes), and how many a new pack or a
// substitute may take. Cards are received here (入庫) and counted (棚卸し); publishing a pack reserves them.
import { useEffect, useRef } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/stock';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { FormAnswer } from '~/components/admin/fields';
import { stockPageAction, stockPageLoader, type StockActionData } from '~/controllers/admin-stock.server';

export const handle = { title: '在庫' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return stockPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return stockPageAction(context.get(shopRequestContext), request);
}

const input = 'mt-1 block min-h-11 w-full rounded-lg border border-line px-3 text-sm';
const n = (value: number) => value.toLocaleString('ja-JP');

export default function StockPage({ loaderData }: Route.ComponentProps) {
  const { items, filter, page, hasNext } = loaderData;
  const answer = useActionData<StockActionData>();
  const navigation = useNavigation();
  // A receipt recorded empties its form for the next card.
  const receiveForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (answer?.form === 'receive' && answer.ok) receiveForm.current?.reset();
  }, [answer]);
  const busy = (intent: string, id?: string) =>
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === intent &&
    (id === undefined || navigation.formData?.get('stockCardId') === id);
  const pageLink = (to: number) =>
    `/admin/stock?${new URLSearchParams({ ...(filter.query ? { query: filter.query } : {}), ...(filter.shortOnly ? { shortOnly: 'true' } : {}), page: String(to) }).toString()}`;

  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-black">在庫</h1>
      <p className="mt-1 text-sm text-muted">
        ガチャを公開すると、各賞のカードが口数分「引当」されます。引当は、売れ残りの口・未発送の獲得商品・代わりに送るカードの分です。
        新しいガチャや欠品時の代わりに使えるのは「使える数」（在庫 − 引当）だけです。
      </p>

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_22rem]">
        <section aria-labelledby="stock-list">
          <h2 id="stock-list" className="sr-only">
            在庫カードの一覧
          </h2>
          <Form method="get" className="flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4">
            <label className="min-w-56 flex-1 text-xs font-bold">
              カード名・セット・番号
              <input name="query" defaultValue={filter.query} className={input} />
            </label>
            <label className="flex min-h-11 items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="shortOnly"
                value="true"
                defaultChecked={filter.shortOnly}
                className="size-4"
              />
              使える数が0のカードだけ
            </label>
            <Button type="submit" variant="secondary" loading={navigation.state === 'loading'}>
              検索
            </Button>
          </Form>

          {items.length === 0 ? (
            <p className="mt-4 rounded-2xl bg-white p-6 text-center text-sm text-muted">
              {filter.query || filter.shortOnly
                ? '条件に合うカードはありません。'
                : 'まだ入庫されたカードはありません。'}
            </p>
          ) : (
            <ul className="mt-4 grid gap-2">
              {items.map((card) => (
                <li key={card.id} className="rounded-xl border border-line bg-white px-4 py-3">
                  <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
                    <p className="min-w-0 font-bold">
                      {card.cardName}{' '}
                      <span className="text-xs font-normal text-muted">
                        {[card.cardSet, card.cardNumber, card.cardGrade].filter(Boolean).join('・')} 参考価値{' '}
                        {n(card.valueCoins)}コイン
                      </span>
                    </p>
                    <dl className="flex gap-4 text-sm">
                      <div className="flex items-baseline gap-1">
                        <dt className="text-xs text-muted">在庫</dt>
                        <dd className="font-black">{n(card.onHand)}</dd>
                      </div>
                      <div className="flex items-baseline gap-1">
                        <dt className="text-xs text-muted">引当</dt>
                        <dd className="font-black">{n(card.reserved)}</dd>
                      </div>
                      <div
                        className={`flex items-baseline gap-1 rounded px-1.5 ${card.available <= 0 ? 'bg-red-50 text-danger' : 'bg-green-50 text-green-800'}`}
                      >
                        <dt className="text-xs">使える数</dt>
                        <dd className="font-black">{n(card.available)}</dd>
                      </div>
                    </dl>
                  </div>
                  <details className="mt-1">
                    <summary className="cursor-pointer text-sm font-bold underline">棚卸し（実在庫を入力）</summary>
                    <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-[8rem_1fr_auto] sm:items-end">
                      <input type="hidden" name="intent" value="adjust" />
                      <input type="hidden" name="stockCardId" value={card.id} />
                      <div className="sm:col-span-3">
                        <FormAnswer answer={answer} form={card.id} />
                      </div>
                      <label className="text-xs font-bold">
                        実在庫（枚）
                        <input
                          name="onHand"
                          inputMode="numeric"
                          defaultValue={card.onHand}
                          required
                          className={input}
                        />
                      </label>
                      <label className="text-xs font-bold">
                        理由（監査ログに残ります）
                        <input name="note" required maxLength={500} className={input} />
                      </label>
                      <Button type="submit" variant="secondary" loading={busy('adjust', card.id)}>
                        保存
                      </Button>
                    </Form>
                  </details>
                </li>
              ))}
            </ul>
          )}
          <nav aria-label="ページ" className="mt-4 flex gap-4 text-sm">
            {page > 1 ? (
              <Link to={pageLink(page - 1)} className="underline">
                前のページ
              </Link>
            ) : null}
            {hasNext ? (
              <Link to={pageLink(page + 1)} className="underline">
                次のページ
              </Link>
            ) : null}
          </nav>
        </section>

        <section
          aria-labelledby="receive"
          className="h-fit rounded-2xl border border-line bg-white p-5 lg:sticky lg:top-6"
        >
          <h2 id="receive" className="text-lg font-bold">
            入庫する
          </h2>
          <p className="mt-1 text-xs text-muted">
            同じカード名・セット・番号・グレードのカードは同じ在庫に加算されます。参考価値は欠品時の代わりのカード選びに使います。
          </p>
          <Form method="post" ref={receiveForm} className="mt-3 grid gap-3">
            <input type="hidden" name="intent" value="receive" />
            <FormAnswer answer={answer} form="receive" />
            <label className="text-xs font-bold">
              カード名
              <input name="cardName" required maxLength={120} className={input} />
            </label>
            <div className="grid grid-cols-2 gap-3">
              <label className="text-xs font-bold">
                セット（弾）
                <input name="cardSet" maxLength={60} className={input} />
              </label>
              <label className="text-xs font-bold">
                カード番号
                <input name="cardNumber" maxLength={30} className={input} />
              </label>
            </div>
            <label className="text-xs font-bold">
              グレード（例: PSA10）
              <input name="cardGrade" maxLength={20} className={input} />
            </label>
            <div className="grid grid-cols-2 gap-3">
              <label className="text-xs font-bold">
                枚数
                <input name="count" inputMode="numeric" required className={input} />
              </label>
              <label className="text-xs font-bold">
                参考価値（コイン）
                <input name="valueCoins" inputMode="numeric" required className={input} />
              </label>
            </div>
            <label className="text-xs font-bold">
              メモ（仕入れ先など・任意）
              <input name="note" maxLength={500} className={input} />
            </label>
            <Button type="submit" loading={busy('receive')}>
              入庫する
            </Button>
          </Form>
        </section>
      </div>
    </div>
  );
}
