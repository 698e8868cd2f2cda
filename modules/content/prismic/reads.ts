// The Prismic source's answers, read from a copy of the documents (copy.ts): pages, banners and notices in
// their windows, in the order the pages show them.
import { isWithinWindow } from '#modules/kernel';
import type { ContentDocument, ContentSource, HomeBanner, NoticeData, PageData } from '../source';
import type { Snapshot } from './copy';

const windowOf = (data: { startsAt?: string | null; endsAt?: string | null }) => ({
  startsAt: data.startsAt ? new Date(data.startsAt) : null,
  endsAt: data.endsAt ? new Date(data.endsAt) : null,
});
const shownSince = (notice: ContentDocument<NoticeData>) =>
  Date.parse(notice.data.startsAt ?? notice.publishedAt ?? '') || 0;

/** The special page or page with this uid (special first), among `types`. */
export function pageIn(
  copy: Snapshot,
  uid: string,
  types: readonly ('page' | 'special')[],
): ContentDocument<PageData> | null {
  for (const type of ['special', 'page'] as const) {
    const page = types.includes(type) ? copy.pages.get(`${type}/${uid}`) : undefined;
    if (page) return page;
  }
  return null;
}

export function pagesIn(copy: Snapshot | null): Awaited<ReturnType<ContentSource['listPages']>> {
  return [...(copy?.pages.values() ?? [])]
    .map(({ uid, type, url, publishedAt }) => ({ uid, type, url, publishedAt }))
    .sort((a, b) => a.uid.localeCompare(b.uid) || a.type.localeCompare(b.type));
}

/** The active banners in their window at `now`, in their order. */
export function bannersIn(copy: Snapshot | null, now: Date): HomeBanner[] {
  return (copy?.banners ?? [])
    .filter((banner) => banner.data.active && isWithinWindow(windowOf(banner.data), now))
    .sort((a, b) => a.data.order - b.data.order || a.uid.localeCompare(b.uid))
    .map(({ uid, data }) => ({
      uid,
      title: data.title,
      image: data.image,
      link: data.link,
      order: data.order,
      alt: data.alt,
      ...(data.period ? { period: data.period } : {}),
    }));
}

/** The notices in their window at `now`: important first, then the newest shown. */
export function noticesIn(copy: Snapshot | null, now: Date): ContentDocument<NoticeData>[] {
  return [...(copy?.notices.values() ?? [])]
    .filter((notice) => isWithinWindow(windowOf(notice.data), now))
    .sort(
      (a, b) =>
        Number(b.data.important === true) - Number(a.data.important === true) ||
        shownSince(b) - shownSince(a) ||
        a.uid.localeCompare(b.uid),
    );
}
