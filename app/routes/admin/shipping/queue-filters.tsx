// The desk queue's filters: the status chips with each status's count (and the overdue count), and
// the filter bar by status, member and 発送予定日.
import { Link } from 'react-router';
import type { Route } from './+types/index';
import { FilterBar, FilterDateRange, FilterSelect, filterFieldClass } from '~/components/admin/ListPage';

type QueueData = Route.ComponentProps['loaderData'];

/**
 * @example <QueueStatusNav filter={filter} statuses={statuses} counts={queue.counts} />
 */
export function QueueStatusNav({
  filter,
  statuses,
  counts,
}: Pick<QueueData, 'filter' | 'statuses'> & { counts: QueueData['queue']['counts'] }) {
  const filterLink = (status: string) => {
    const params = new URLSearchParams();
    if (status) params.set('status', status);
    if (filter.memberId) params.set('memberId', filter.memberId);
    if (filter.from) params.set('from', filter.from);
    if (filter.to) params.set('to', filter.to);
    const query = params.toString();
    return query ? `/admin/shipping?${query}` : '/admin/shipping';
  };
  const openCount = counts.requested + counts.preparing;
  return (
    <nav aria-label="状態で絞り込む" className="mt-4 flex flex-wrap gap-2 text-sm">
      <Link
        to={filterLink('')}
        aria-current={filter.status === '' ? 'page' : undefined}
        className={`rounded-full border px-3 py-1.5 font-bold ${filter.status === '' ? 'border-ink bg-ink text-white' : 'border-line bg-white'}`}
      >
        すべて（未発送 {openCount.toLocaleString('ja-JP')}）
      </Link>
      {statuses.map((s) => (
        <Link
          key={s.id}
          to={filterLink(s.id)}
          aria-current={filter.status === s.id ? 'page' : undefined}
          className={`rounded-full border px-3 py-1.5 font-bold ${filter.status === s.id ? 'border-ink bg-ink text-white' : 'border-line bg-white'}`}
        >
          {s.label} {counts[s.id as keyof typeof counts].toLocaleString('ja-JP')}
        </Link>
      ))}
      <span
        className={`rounded-full px-3 py-1.5 font-bold ${counts.overdue > 0 ? 'bg-red-600 text-white' : 'bg-slate-100 text-muted'}`}
      >
        期限超過 {counts.overdue.toLocaleString('ja-JP')}
      </span>
    </nav>
  );
}

/**
 * @example <QueueFilterBar filter={filter} filterError={filterError} statuses={statuses} />
 */
export function QueueFilterBar({
  filter,
  filterError,
  statuses,
}: Pick<QueueData, 'filter' | 'filterError' | 'statuses'>) {
  return (
    <FilterBar clearTo="/admin/shipping" filterError={filterError}>
      <FilterSelect label="状態" name="status" defaultValue={filter.status} options={statuses} />
      <label className="text-xs font-bold">
        会員（会員ID・メールアドレス）
        <input name="memberId" defaultValue={filter.memberId} className={`${filterFieldClass} w-56`} />
      </label>
      <FilterDateRange label="発送予定日" from={filter.from} to={filter.to} />
    </FilterBar>
  );
}
