// The inquiry desk's list: its filter form and its table.
import { Form, Link, useNavigation } from 'react-router';
import { Button } from '~/components/Button';
import { MemberTag } from '~/components/admin/MemberTag';
import { formatStaffDateTime } from '#modules/kernel/dates';
import type { inquiryListLoader } from '~/controllers/admin-inquiries.server';

/** What the inquiry list's loader gives the page. */
export type InquiryListPage = Awaited<ReturnType<typeof inquiryListLoader>>;

/** The status badges' colours. */
const INQUIRY_STATUS_STYLE: Record<string, string> = {
  new: 'bg-red-100 text-red-900',
  in_progress: 'bg-amber-100 text-amber-900',
  waiting: 'bg-sky-100 text-sky-900',
  closed: 'bg-slate-200 text-slate-700',
};

/** Filters by status, category, assignee, and a reference number, email address or words of the subject. */
export function InquiryFilters({
  filter,
  statuses,
  categories,
  staff,
}: Pick<InquiryListPage, 'filter' | 'statuses' | 'categories' | 'staff'>) {
  const navigation = useNavigation();
  const select = 'mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm';
  return (
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
  );
}

export function InquiryTable({
  items,
  members,
}: {
  items: InquiryListPage['list']['items'];
  members: InquiryListPage['members'];
}) {
  return (
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
          {items.map((item) => (
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
                <span className={`rounded px-2 py-0.5 text-xs font-bold ${INQUIRY_STATUS_STYLE[item.status] ?? ''}`}>
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
  );
}
