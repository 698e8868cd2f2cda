// The admin list page's parts (docs/decisions/067): the filter bar (a GET form with its button, the way
// back to no filters, and the words when a filter could not be read), the table (or the empty state
// when nothing matches) and the paging links. A new list page starts from these.
import type { ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { Button, type ButtonVariant } from '~/components/Button';

/** A filter field's style (a select or an input under its label). */
export const filterFieldClass = 'mt-1 block min-h-11 rounded-lg border border-line bg-white px-3 text-sm';

/**
 * A filter that picks one of a list, or すべて.
 * @example <FilterSelect label="状態" name="status" defaultValue={filter.status} options={statuses} />
 */
export function FilterSelect({
  label,
  name,
  defaultValue,
  options,
}: {
  label: string;
  name: string;
  defaultValue: string | undefined;
  options: readonly { id: string; label: string }[];
}) {
  return (
    <label className="text-xs font-bold">
      {label}
      <select name={name} defaultValue={defaultValue} className={filterFieldClass}>
        <option value="">すべて</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A filter by days: 「<label>（から）」 and 「<label>（まで）」, sent as `from` and `to`.
 * @example <FilterDateRange label="注文日" from={filter.from} to={filter.to} />
 */
export function FilterDateRange({
  label,
  from,
  to,
}: {
  label: string;
  from: string | undefined;
  to: string | undefined;
}) {
  return (
    <>
      <label className="text-xs font-bold">
        {label}（から）
        <input type="date" name="from" defaultValue={from} className={filterFieldClass} />
      </label>
      <label className="text-xs font-bold">
        {label}（まで）
        <input type="date" name="to" defaultValue={to} className={filterFieldClass} />
      </label>
    </>
  );
}

export interface FilterBarProps {
  /** The filter fields, each a label around its input. */
  children: ReactNode;
  /** The button's words: 絞り込む unless told. */
  submitLabel?: string;
  submitVariant?: ButtonVariant;
  /** The list without filters (shows 「条件をクリア」). */
  clearTo?: string;
  /** The words of the way back, 条件をクリア unless told (e.g. 未対応に戻す when the page opens on a filter). */
  clearLabel?: string;
  /** Why the filters were not used, shown as an alert under the bar. */
  filterError?: string | null;
  /** What the list shows instead, after the alert's words; none when null. */
  fallbackNote?: string | null;
  /** The bar spins only while this path loads (any navigation unless told). */
  loadingPath?: string;
}

/**
 * @example
 * <FilterBar clearTo="/admin/orders" filterError={filterError}>
 *   <label className="text-xs font-bold">受付番号<input name="receiptNo" className={filterFieldClass} /></label>
 * </FilterBar>
 */
export function FilterBar({
  children,
  submitLabel = '絞り込む',
  submitVariant = 'secondary',
  clearTo,
  clearLabel = '条件をクリア',
  filterError,
  fallbackNote = '条件なしで表示しています',
  loadingPath,
}: FilterBarProps) {
  const navigation = useNavigation();
  const loading =
    navigation.state === 'loading' && (loadingPath === undefined || navigation.location?.pathname === loadingPath);
  return (
    <>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3 rounded-2xl border border-line bg-white p-4">
        {children}
        <Button type="submit" variant={submitVariant} loading={loading}>
          {submitLabel}
        </Button>
        {clearTo ? (
          <Link to={clearTo} className="py-3 text-sm underline">
            {clearLabel}
          </Link>
        ) : null}
      </Form>
      {filterError ? (
        <p role="alert" className="mt-2 text-sm font-bold text-danger">
          {fallbackNote ? `${filterError}（${fallbackNote}）` : filterError}
        </p>
      ) : null}
    </>
  );
}

/** What nothing matching looks like. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="mt-4 rounded-2xl bg-white p-6 text-center text-sm text-muted">{children}</p>;
}

export interface ListTableProps<Item> {
  items: readonly Item[];
  /** Shown instead of the table when there are no items. */
  empty: ReactNode;
  /** The table's name for screen readers. */
  caption?: string;
  /** The column heads; a head with its own classes as [label, className]. */
  head: readonly (string | readonly [ReactNode, string])[];
  /** One row per item. */
  row: (item: Item) => ReactNode;
  /** The table's least width (it scrolls sideways on a phone), e.g. "min-w-[760px]". */
  minWidth?: string;
  /** The head cells' padding. */
  cellClass?: string;
}

/**
 * @example
 * <ListTable items={orders} empty="条件に合う注文はありません。" caption="注文の一覧" head={['受付番号', …]}
 *   row={(o) => <tr key={o.id}>…</tr>} />
 */
export function ListTable<Item>({
  items,
  empty,
  caption,
  head,
  row,
  minWidth = '',
  cellClass = 'p-3',
}: ListTableProps<Item>) {
  if (items.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    <div className="mt-4 overflow-x-auto rounded-2xl border border-line bg-white">
      <table className={`w-full ${minWidth} text-left text-sm`}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className="bg-slate-50 text-xs">
          <tr>
            {head.map((h, i) =>
              typeof h === 'string' ? (
                <th key={i} scope="col" className={cellClass}>
                  {h}
                </th>
              ) : (
                <th key={i} scope="col" className={`${cellClass} ${h[1]}`}>
                  {h[0]}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  );
}

export interface PageLinksProps {
  /** The current page, from 1. */
  page: number;
  hasNext: boolean;
  /** The link to a page. */
  href: (page: number) => string;
  previousLabel?: string;
  nextLabel?: string;
  /** The number of pages, when the list knows it: shown as 「page / pages」 between the links. */
  pages?: number;
}

/**
 * The previous and next page links (nothing on a single page).
 * @example <PageLinks page={page} hasNext={hasNext} href={(p) => pageHref('/admin/orders', filter, p)} />
 */
export function PageLinks({
  page,
  hasNext,
  href,
  previousLabel = '前のページ',
  nextLabel = '次のページ',
  pages,
}: PageLinksProps) {
  return (
    <nav aria-label="ページ" className="mt-4 flex gap-4 text-sm">
      {page > 1 ? (
        <Link to={href(page - 1)} className="underline">
          {previousLabel}
        </Link>
      ) : null}
      {pages !== undefined ? (
        <span>
          {page} / {pages}
        </span>
      ) : null}
      {hasNext ? (
        <Link to={href(page + 1)} className="underline">
          {nextLabel}
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * A list's page with the same filters: every filter that has a value, and the page.
 * @example pageHref('/admin/orders', { status: 'review', page: 2 }, 3) // '/admin/orders?status=review&page=3'
 */
export function pageHref(path: string, filter: Record<string, unknown>, page: number) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value && key !== 'page') params.set(key, String(value));
  params.set('page', String(page));
  return `${path}?${params.toString()}`;
}
