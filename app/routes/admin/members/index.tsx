// /admin/members: find a member by email, nickname (its start), member id or phone number (typed any
// way a Japanese number is written), 50 to a page; each result with its status (held, banned,
// deleted) and joined date, linking to the member's page.
import { Link } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { FilterBar, ListTable, PageLinks, pageHref } from '~/components/admin/ListPage';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { memberSearchLoader } from '~/controllers/admin-members.server';
import { MemberStatusBadges } from '~/components/MemberStatusBadges';

export const handle = { title: '会員' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return memberSearchLoader(context.get(shopRequestContext), request);
}

const BY_LABELS: Record<string, string> = {
  all: '新しく登録した順',
  email: 'メールアドレス（完全一致）',
  phone: '電話番号（完全一致）',
  code: '会員ID（完全一致）とニックネーム（前方一致）',
  text: '内部ID（完全一致）とニックネーム（前方一致）',
};

export default function MemberSearchPage({ loaderData }: Route.ComponentProps) {
  const { q, by, page, hasMore, items } = loaderData;
  return (
    <div className="max-w-6xl">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-black">会員</h1>
        <Link to="/admin/approvals" className="text-sm font-bold underline">
          コイン調整の承認待ち
        </Link>
      </div>
      <FilterBar submitLabel="検索" submitVariant="primary" loadingPath="/admin/members">
        <label className="min-w-72 flex-1 text-xs font-bold">
          メールアドレス・ニックネーム・会員ID・電話番号
          <input
            type="search"
            name="q"
            defaultValue={q}
            maxLength={254}
            placeholder="例：taro@example.jp／たろう／090-1234-5678／K7Q4M-9XZTR"
            className="mt-1 block min-h-11 w-full rounded-lg border border-line px-3 text-sm"
          />
        </label>
      </FilterBar>
      <p className="mt-3 text-xs text-muted">
        {BY_LABELS[by]}で表示しています。メールアドレスと電話番号は完全一致、ニックネームは先頭からの一致です。
      </p>
      <ListTable
        items={items}
        empty="条件に合う会員はいません。"
        head={['ニックネーム・会員ID', 'メールアドレス', '状態', '登録日時']}
        cellClass="px-3 py-2"
        row={(m) => (
          <tr key={m.id} className="border-t border-line align-top">
            <td className="px-3 py-2">
              <Link to={`/admin/members/${encodeURIComponent(m.id)}`} className="font-bold underline">
                {m.name}
              </Link>
              <span className="block font-mono text-xs tracking-wider" data-member-tag={m.code}>
                {m.code}
              </span>
            </td>
            <td className="px-3 py-2 break-all">{m.email}</td>
            <td className="px-3 py-2">
              <MemberStatusBadges member={m} />
            </td>
            <td className="px-3 py-2 whitespace-nowrap">{formatStaffDateTime(m.createdAt)}</td>
          </tr>
        )}
      />
      <PageLinks
        page={page}
        hasNext={hasMore}
        href={(p) => pageHref('/admin/members', { q }, p)}
        previousLabel="前の50件"
        nextLabel="次の50件"
      />
    </div>
  );
}
