// お知らせ: the notices inside their window, important first. The home page shows the first few; /notices all.
import { AppLink } from './AppLink';
import { formatMemberDate } from '#modules/kernel/dates';

export interface NoticeListItem {
  uid: string;
  title: string;
  important: boolean;
  /** When the notice begins (or was published): the date shown. */
  date: string | null;
}

export function NoticeList({ notices, heading = 'h2' }: { notices: NoticeListItem[]; heading?: 'h1' | 'h2' }) {
  const Heading = heading;
  return (
    <section aria-labelledby="notices-heading" className="rounded-2xl bg-white p-4 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <Heading id="notices-heading" className={heading === 'h1' ? 'text-xl font-black' : 'text-base font-black'}>
          お知らせ
        </Heading>
        {heading === 'h2' ? (
          <AppLink to="/notices" className="py-1 text-sm text-primary-ink underline-offset-2 hover:underline">
            すべて見る
          </AppLink>
        ) : null}
      </div>
      {notices.length === 0 ? (
        <p className="mt-3 text-sm text-muted">現在お知らせはありません。</p>
      ) : (
        <ul className="mt-2 divide-y divide-line">
          {notices.map((notice) => (
            <li key={notice.uid}>
              <AppLink
                to={`/notices/${notice.uid}`}
                className="flex flex-col gap-0.5 py-3 sm:flex-row sm:items-baseline sm:gap-3"
              >
                <span className="flex shrink-0 items-center gap-2 text-xs text-muted">
                  {notice.date ? <time dateTime={notice.date}>{formatMemberDate(notice.date)}</time> : null}
                  {notice.important ? (
                    <span className="rounded bg-primary px-1.5 py-0.5 text-xs font-bold text-white">重要</span>
                  ) : null}
                </span>
                <span className="text-sm font-bold underline-offset-2 hover:underline">{notice.title}</span>
              </AppLink>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A notice document as the list shows it. */
export function noticeListItem(notice: {
  uid: string;
  publishedAt: string | null;
  data: { title: string; important?: boolean; startsAt?: string | null };
}): NoticeListItem {
  return {
    uid: notice.uid,
    title: notice.data.title,
    important: !!notice.data.important,
    date: notice.data.startsAt ?? notice.publishedAt,
  };
}
