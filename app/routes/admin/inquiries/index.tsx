// /admin/inquiries: the inquiry desk's list. Open inquiries first (新規, 対応中, 返信待ち), newest first;
// the count of each status; filters by status, category, assignee, and a reference number, email
// address or words of the subject.
import { Form, Link, useNavigation } from 'react-router';
import type { Route } from './+types/index';
import { shopRequestContext } from '#server/context';
import { Button } from '~/components/Button';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import { inquiryListLoader } from '~/controllers/admin-inquiries.server';

export const handle = { title: 'お問い合わせ' };

export async function loader({ request, context }: Route.LoaderArgs) {
  return inquiryListLoader(context.get(shopRequestContext), request);
}

/** The status badges' colours. */
const INQUIRY_STATUS_STYLE: Record<string, string> = {
  new: 'bg-red-100 text-red-900',
  in_progress: 'bg-amber-100 text-amber-900',
  waiting: 'bg-sky-100 text-sky-900',
  closed: 'bg-slate-200 text-slate-700',
};

export default function InquiryListPage({ loaderData }: Route.ComponentProps) {
  const { list, filter, filterError, statuses, categories, staff, members } = loaderData;
  const navigation = useNavigation();
  const linkWith = (changes: Record<string, string>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...filter, page: '', ...changes }))
      if (value) params.set(key, String(value));
    const query = params.toString();
    return query ? `/admin/inquiries?${query}` : '/admin/inquiries';
  };
  const open = list.counts.new + list.counts.in_progress + list.counts.waiting;
  const select = 'mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm';

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

      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4">
        <label className="text-xs font-bold">
          状態
          <select name="status" defaultValue={filter.status} className={select}>
            <option value="">すべて</option>
            {statuses.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-bold">
          種類
          <select name="category" defaultValue={filter.category} className={select}>
            <option value="">すべて</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-bold">
          担当者
          <select name="assignee" defaultValue={filter.assignee} className={select}>
            <option value="">すべて</option>
            <option value="me">自分</option>
            <option value="none">未割り当て</option>
            {staff.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs font-bold">
          受付番号・メールアドレス・件名
          <input
            name="q"
            type="search"
            defaultValue={filter.q}
            placeholder="Q-20261124-8K3F"
            className="mt-1 block min-h-11 w-64 rounded-lg border border-line px-3 text-sm"
          />
        </label>
        <Button type="submit" variant="secondary" loading={navigation.state === 'loading'}>
          絞り込む
        </Button>
        <Link to="/admin/inquiries" className="py-3 text-sm underline">
          条件をクリア
        </Link>
      </Form>
      {filterError ? (
        <p role="alert" className="mt-2 text-sm font-bold text-danger">
          {filterError}（条件なしで表示しています）
        </p>
      ) : null}

      {list.items.length === 0 ? (
        <p className="mt-4 rounded-2xl bg-white p-6 text-center text-sm text-muted">
          条件に合うお問い合わせはありません。
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-2xl border border-line bg-white">
          <table className="w-full min-w-[820px] text-left text-sm">
            <caption className="sr-only">お問い合わせの一覧</caption>
            <thead className="bg-slate-50 text-xs">
              <tr>
                <th scope="col" className="p-3">
                  受付番号・件名
                </th>
                <th scope="col" className="p-3">
                  状態
                </th>
                <th scope="col" className="p-3">
                  種類
                </th>
                <th scope="col" className="p-3">
                  お客様
                </th>
                <th scope="col" className="p-3">
                  担当者
                </th>
                <th scope="col" className="p-3">
                  受付・更新
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((item) => (
                <tr key={item.id} className="border-t border-line align-top">
                  <td className="p-3">
                    <Link to={`/admin/inquiries/${item.id}`} className="font-mono font-bold underline">
                      {item.reference}
                    </Link>
                    <span className="block max-w-72 truncate" title={item.subject}>
                      {item.subject}
                    </span>
                    <span className="text-xs text-muted">
                      {item.messages}件のやりとり・
                      {item.lastAuthor === 'inquirer' ? 'お客様が最後' : 'スタッフが最後'}
                    </span>
                  </td>
                  <td className="p-3">
                    <span
                      className={`rounded px-2 py-0.5 text-xs font-bold ${INQUIRY_STATUS_STYLE[item.status] ?? ''}`}
                    >
                      {item.statusLabel}
                    </span>
                  </td>
                  <td className="p-3 text-xs">{item.categoryLabel}</td>
                  <td className="p-3 text-xs">
                    <span className="block max-w-56 truncate" title={item.email}>
                      {item.email}
                    </span>
                    {item.memberId ? (
                      <MemberTag tag={members[item.memberId]} memberId={item.memberId} />
                    ) : (
                      <span className="text-muted">ゲスト</span>
                    )}
                  </td>
                  <td className="p-3 text-xs">{item.assigneeName ?? '—'}</td>
                  <td className="p-3 text-xs">
                    {formatStaffDateTime(item.createdAt)}
                    <span className="block text-muted">{formatStaffDateTime(item.updatedAt)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <nav aria-label="ページ" className="mt-4 flex gap-4 text-sm">
        {list.page > 1 ? (
          <Link to={linkWith({ page: String(list.page - 1) })} className="underline">
            前のページ
          </Link>
        ) : null}
        {list.hasNext ? (
          <Link to={linkWith({ page: String(list.page + 1) })} className="underline">
            次のページ
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
