// /admin/content: pages, special pages and notices of the built-in store (docs/decisions/040), with
// type and status filters; a new document starts as a draft and opens in the editor.
import { Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { FormAnswer, inputClass } from '~/components/admin/fields';
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
  const query = (p: number) => {
    const params = new URLSearchParams();
    if (filter.type) params.set('type', filter.type);
    if (filter.status) params.set('status', filter.status);
    params.set('page', String(p));
    return `?${params.toString()}`;
  };
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-black">ページ・お知らせ</h1>
      <p className="mt-1 text-sm text-muted">
        保存するたびに新しい版になります。公開した版だけがサイトに表示されます。
      </p>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <label className="text-xs font-bold">
          種類
          <select name="type" defaultValue={filter.type} className={inputClass}>
            <option value="">すべて</option>
            {types.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-bold">
          状態
          <select name="status" defaultValue={filter.status} className={inputClass}>
            <option value="">すべて</option>
            {statuses.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="secondary">
          絞り込む
        </Button>
      </Form>
      <p className="mt-3 text-sm">{total}件</p>
      {documents.length === 0 ? <p className="mt-3 text-sm">該当するページはありません。</p> : null}
      <ul className="mt-3 grid gap-2">
        {documents.map((d) => (
          <li key={d.id} className="rounded-xl border border-line bg-white p-3" data-testid="admin-content">
            <div className="flex flex-wrap items-center gap-2">
              <span className={`rounded px-2 py-0.5 text-xs font-bold ${statusClass[d.status] ?? ''}`}>
                {d.statusLabel}
              </span>
              <span className="text-xs">{d.typeLabel}</span>
              <Link to={`/admin/content/${d.id}`} className="font-bold underline">
                {d.title || '（無題）'}
              </Link>
              <span className="font-mono text-xs">/{d.uid}</span>
            </div>
            <p className="mt-1 text-xs text-muted">
              最新 版{d.currentVersion}・公開中 {d.publishedVersion ? `版${d.publishedVersion}` : 'なし'}
              {d.scheduledAt ? `・予約 ${d.scheduledAt}` : ''}・更新 {d.updatedAt}
            </p>
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <nav aria-label="ページ送り" className="mt-3 flex gap-3 text-sm">
          {page > 1 ? <Link to={query(page - 1)}>前へ</Link> : null}
          <span>
            {page} / {pages}
          </span>
          {page < pages ? <Link to={query(page + 1)}>次へ</Link> : null}
        </nav>
      ) : null}
      <section aria-labelledby="new-content" className="mt-8 rounded-2xl border border-line bg-white p-5">
        <h2 id="new-content" className="text-lg font-bold">
          新しく作る
        </h2>
        <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-3">
          <FormAnswer answer={answer} form="new" />
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
