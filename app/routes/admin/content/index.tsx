// /admin/content: pages, special pages and notices of the built-in store (docs/decisions/040), with
// type and status filters (the admin list page's parts, decision 067); a new document starts as a draft and opens in the editor.
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { ActionAnswer } from '~/components/admin/ActionAnswer';
import { inputClass } from '~/components/admin/fields';
import { FilterBar, FilterSelect, ListTable, PageLinks, pageHref } from '~/components/admin/ListPage';
import { contentListAction, contentListLoader, type ContentActionData } from '~/controllers/admin-content.server';

export const handle = { title: 'ページ・お知らせ' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return contentListLoader(context.get(shopRequestContext), request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return contentListAction(context.get(shopRequestContext), request);
}

const statusClass: Record<string, string> = {
  published: 'bg-green-100 text-green-900',
  draft: 'bg-slate-200',
  scheduled: 'bg-amber-100 text-amber-900',
  unpublished: 'bg-slate-200',
};

export default function ContentList({ loaderData }: Route.ComponentProps) {
  const { documents, filter, types, statuses, page, pages, total } = loaderData;
  const answer = useActionData<ContentActionData>();
  const navigation = useNavigation();
  const typeOptions = types.map((t) => ({ id: t.value, label: t.label }));
  const statusOptions = statuses.map((s) => ({ id: s.value, label: s.label }));
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">ページ・お知らせ</h1>
      <p className="mt-1 text-sm text-muted">
        保存するたびに新しい版になります。公開した版だけがサイトに表示されます。
      </p>
      <FilterBar loadingPath="/admin/content">
        <FilterSelect label="種類" name="type" defaultValue={filter.type} options={typeOptions} />
        <FilterSelect label="状態" name="status" defaultValue={filter.status} options={statusOptions} />
      </FilterBar>
      <p className="mt-3 text-sm">{total}件</p>
      <ListTable
        items={documents}
        empty="該当するページはありません。"
        caption="ページ・お知らせの一覧"
        head={['状態', '種類', 'タイトル・URL', '版・更新']}
        minWidth="min-w-[720px]"
        row={(d) => (
          <tr key={d.id} className="border-t border-line align-top" data-testid="admin-content">
            <td className="p-3">
              <span className={`rounded px-2 py-0.5 text-xs font-bold ${statusClass[d.status] ?? ''}`}>
                {d.statusLabel}
              </span>
            </td>
            <td className="p-3 text-xs">{d.typeLabel}</td>
            <td className="p-3">
              <Link to={`/admin/content/${d.id}`} className="font-bold underline">
                {d.title || '（無題）'}
              </Link>
              <span className="block font-mono text-xs">/{d.uid}</span>
            </td>
            <td className="p-3 text-xs text-muted">
              最新 版{d.currentVersion}・公開中 {d.publishedVersion ? `版${d.publishedVersion}` : 'なし'}
              {d.scheduledAt ? `・予約 ${d.scheduledAt}` : ''}・更新 {d.updatedAt}
            </td>
          </tr>
        )}
      />
      {pages > 1 ? (
        <PageLinks
          page={page}
          pages={pages}
          hasNext={page < pages}
          href={(p) => pageHref('/admin/content', filter, p)}
          previousLabel="前へ"
          nextLabel="次へ"
        />
      ) : null}
      <section aria-labelledby="new-content" className="mt-8 rounded-2xl border border-line bg-white p-5">
        <h2 id="new-content" className="text-lg font-bold">
          新しく作る
        </h2>
        <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-3">
          <ActionAnswer answer={answer} form="new" />
          <label className="text-xs font-bold">
            種類
            <select name="type" required defaultValue="page" className={inputClass}>
              {types.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
          <label className="text-xs font-bold">
            URL（例：guide/faq。お知らせは /notices/ のあと、例：2026-winter）
            <input name="uid" required maxLength={330} className={inputClass} />
          </label>
          <label className="text-xs font-bold">
            タイトル
            <input name="title" required maxLength={120} className={inputClass} />
          </label>
          <div>
            <Button type="submit" loading={navigation.state === 'submitting' && navigation.formMethod === 'POST'}>
              下書きを作る
            </Button>
          </div>
        </Form>
      </section>
    </div>
  );
}
