// The member page's building blocks: a section card, a compact table, and each section's own paging
// (a cursor per section in the address, the other sections' cursors kept).
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { Route } from './+types/member';

export type MemberData = Route.ComponentProps['loaderData'];

export const n = (value: number) => value.toLocaleString('ja-JP');

/**
 * @example <Section id="wallet" title="コイン残高">…</Section>
 */
export function Section({
  id,
  title,
  children,
  wide,
}: {
  id: string;
  title: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <section
      aria-labelledby={id}
      className={`min-w-0 rounded-2xl border border-line bg-white p-4 ${wide ? 'lg:col-span-2' : ''}`}
    >
      <h2 id={id} className="text-base font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * @example <Table head={['日時', '理由']}>{rows}</Table>
 */
export function Table({ head, children }: { head: string[]; children: ReactNode }) {
  if (Array.isArray(children) && children.length === 0) return null;
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full text-left text-xs">
        <thead className="text-muted">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="py-1 pr-3 font-bold whitespace-nowrap">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export const cell = 'border-t border-line py-1.5 pr-3 align-top';

/**
 * This page with one section's cursor changed (the others kept), and whether a section's cursor is set.
 * @example const { pageWith } = useSectionPaging(); <Link to={pageWith('prizes', 'kept')} />
 */
export function useSectionPaging() {
  const location = useLocation();
  const pageWith = (name: string, value: string | number | null) => {
    const params = new URLSearchParams(location.search);
    if (value === null) params.delete(name);
    else params.set(name, String(value));
    if (name === 'prizes') params.delete('prizesAfter');
    const search = params.toString();
    return `${location.pathname}${search ? `?${search}` : ''}#${name === 'prizesAfter' ? 'prizes' : name}`;
  };
  const cursorSet = (name: string) => new URLSearchParams(location.search).has(name);
  return { pageWith, cursorSet };
}

/**
 * A section's paging: back to the newest, and on to older records (nothing on a single page).
 * @example <SectionPager name="ledger" next={d.ledger.next} />
 */
export function SectionPager({ name, next }: { name: string; next: string | number | null | undefined }) {
  const { pageWith, cursorSet } = useSectionPaging();
  const atFirst = !cursorSet(name);
  if (!next && atFirst) return null;
  return (
    <nav aria-label="ページ" className="mt-2 flex gap-4 text-xs">
      {!atFirst ? (
        <Link to={pageWith(name, null)} className="underline">
          最新に戻る
        </Link>
      ) : null}
      {next ? (
        <Link to={pageWith(name, next)} className="underline">
          さらに古い記録
        </Link>
      ) : null}
    </nav>
  );
}
