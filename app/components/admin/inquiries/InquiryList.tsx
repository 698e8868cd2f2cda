// The inquiry desk's list: its filter form and its table, on the admin list page's parts (decision 067).
import { Link } from 'react-router';
import { FilterBar, FilterSelect, ListTable, filterFieldClass } from '~/components/admin/ListPage';
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
  filterError,
  statuses,
  categories,
  staff,
}: Pick<InquiryListPage, 'filter' | 'filterError' | 'statuses' | 'categories' | 'staff'>) {
  const assignees = [
    { id: 'me', label: '自分' },
    { id: 'none', label: '未割り当て' },
    ...staff.map((s) => ({ id: s.id, label: s.name })),
  ];
  return (
    <FilterBar clearTo="/admin/inquiries" filterError={filterError}>
      <FilterSelect label="状態" name="status" defaultValue={filter.status} options={statuses} />
      <FilterSelect label="種類" name="category" defaultValue={filter.category} options={categories} />
      <FilterSelect label="担当者" name="assignee" defaultValue={filter.assignee} options={assignees} />
      <label className="text-xs font-bold">
        受付番号・メールアドレス・件名
        <input
          name="q"
          type="search"
          defaultValue={filter.q}
          placeholder="Q-20261124-8K3F"
          className={`${filterFieldClass} w-64`}
        />
      </label>
    </FilterBar>
  );
}

/** The inquiries, or the empty state when none matches. */
export function InquiryTable({
  items,
  members,
}: {
  items: InquiryListPage['list']['items'];
  members: InquiryListPage['members'];
}) {
  return (
    <ListTable
      items={items}
      empty="条件に合うお問い合わせはありません。"
      caption="お問い合わせの一覧"
      head={['受付番号・件名', '状態', '種類', 'お客様', '担当者', '受付・更新']}
      minWidth="min-w-[820px]"
      row={(item) => (
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
      )}
    />
  );
}
