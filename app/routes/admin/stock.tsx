// /admin/stock: the physical cards behind the packs' prizes. How many are on the shelf, how many are
// promised (to unsold lots, to prizes not yet shipped, to substitutes), and how many a new pack or a
// substitute may take. Cards are received here (入庫) and counted (棚卸し); publishing a pack reserves them.
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/stock';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ReceiveForm } from '~/components/admin/stock/ReceiveForm';
import { StockCard } from '~/components/admin/stock/StockCard';
import { input } from '~/components/admin/stock/style';
import { stockPageAction, stockPageLoader, type StockActionData } from '~/controllers/admin-stock.server';

export const handle = { title: '在庫' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return stockPageLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return stockPageAction(context.get(shopRequestContext), request);
}

export default function StockPage({ loaderData }: Route.ComponentProps) {
  const { items, filter, page, hasNext } = loaderData;
  const answer = useActionData<StockActionData>();
  const navigation = useNavigation();
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
                <StockCard key={card.id} card={card} answer={answer} busy={busy} />
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
        <ReceiveForm answer={answer} busy={busy} />
      </div>
    </div>
  );
}
