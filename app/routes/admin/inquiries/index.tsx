// /admin/inquiries: the inquiry desk's list. Open inquiries first (新規, 対応中, 返信待ち), newest first;
// the count of each status; filters by status, category, assignee, and a reference number, email
// address or words of the subject.
import { Link } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { InquiryFilters, InquiryTable } from '~/components/admin/inquiries/InquiryList';
import { PageLinks } from '~/components/admin/ListPage';
import { inquiryListLoader } from '~/controllers/admin-inquiries.server';

export const handle = { title: 'お問い合わせ' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return inquiryListLoader(context.get(shopRequestContext), request);
}

export default function InquiryListPage({ loaderData }: Route.ComponentProps) {
  const { list, filter, filterError, statuses, categories, staff, members } = loaderData;
  const linkWith = (changes: Record<string, string>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...filter, page: '', ...changes }))
      if (value) params.set(key, String(value));
    const query = params.toString();
    return query ? `/admin/inquiries?${query}` : '/admin/inquiries';
  };
  const open = list.counts.new + list.counts.in_progress + list.counts.waiting;

  return (
    <div className="max-w-6xl">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-black">お問い合わせ</h1>
        <Link to="/admin/inquiries/templates" className="text-sm font-bold underline">
          回答テンプレート
        </Link>
      </div>
      <p className="mt-1 text-sm text-muted">
        未完了のお問い合わせが先頭、新しい順です。お問い合わせを開いた記録は監査ログに残ります。
      </p>

      <nav aria-label="状態で絞り込む" className="mt-4 flex flex-wrap gap-2 text-sm">
        <Link
          to={linkWith({ status: '' })}
          aria-current={filter.status === '' ? 'page' : undefined}
          className={`rounded-full border px-3 py-1.5 font-bold ${filter.status === '' ? 'border-ink bg-ink text-white' : 'border-line bg-white'}`}
        >
          すべて（未完了 {open.toLocaleString('ja-JP')}）
        </Link>
        {statuses.map((s) => (
          <Link
            key={s.id}
            to={linkWith({ status: s.id })}
            aria-current={filter.status === s.id ? 'page' : undefined}
            className={`rounded-full border px-3 py-1.5 font-bold ${filter.status === s.id ? 'border-ink bg-ink text-white' : 'border-line bg-white'}`}
          >
            {s.label} <span data-testid={`count-${s.id}`}>{list.counts[s.id].toLocaleString('ja-JP')}</span>
          </Link>
        ))}
      </nav>

      <InquiryFilters
        filter={filter}
        filterError={filterError}
        statuses={statuses}
        categories={categories}
        staff={staff}
      />
      <InquiryTable items={list.items} members={members} />
      <PageLinks page={list.page} hasNext={list.hasNext} href={(page) => linkWith({ page: String(page) })} />
    </div>
  );
}
