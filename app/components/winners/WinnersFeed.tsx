// 「みんなの当選履歴」: recent top-tier wins, server-rendered, then live (server-sent events). Identical wins
// are one row with their count (「×5」) and the list takes only the room of its rows (decision 059); a
// screen reader hears at most one new win a minute (polite), never a stream of them.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { WinnerFeedEntry } from '#modules/draw';
import { PrLabel } from '~/components/PrLabel';
import { Image } from '~/components/Image';
import { AppLink } from '~/components/AppLink';
import { TIER_CHIP } from '~/components/gacha/labels';
import { FEED_READ, FEED_ROWS, announcementOf, collapseWins, mergeWins, timeAgo, winOf } from './feed';

/** A screen reader hears a new win at most this often. */
const ANNOUNCE_EVERY_MS = 60_000;
/** 「3分前」 is refreshed this often. */
const CLOCK_MS = 30_000;

/**
 * The feed's entries: the server's first ones, then `add` for each live one.
 * @example const feed = useWinners(loaderData.wins, loaderData.renderedAt)
 */
export function useWinners(initial: WinnerFeedEntry[], renderedAt: string) {
  const [entries, setEntries] = useState(initial);
  const [now, setNow] = useState(() => Date.parse(renderedAt));
  const [announcement, setAnnouncement] = useState('');
  const lastAnnounced = useRef(0);
  useEffect(() => setEntries(initial), [initial]);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), CLOCK_MS);
    return () => clearInterval(timer);
  }, []);
  const add = useCallback((fresh: WinnerFeedEntry, withPack: boolean) => {
    // Enough entries kept to fill the rows once repeats are collapsed.
    setEntries((shown) => mergeWins(shown, [fresh], FEED_READ));
    setNow(Date.now());
    if (Date.now() - lastAnnounced.current >= ANNOUNCE_EVERY_MS) {
      lastAnnounced.current = Date.now();
      setAnnouncement(announcementOf(fresh, withPack));
    }
  }, []);
  return { entries, now, announcement, add };
}

/**
 * The shop-wide stream of the home page: GET /api/v1/winners/events (the browser reconnects by itself),
 * from `since` (the page's render time) so no win between the render and the stream is missed.
 * @example useShopWinsStream((entry) => feed.add(entry, true), loaderData.renderedAt)
 */
export function useShopWinsStream(onWin: (entry: WinnerFeedEntry) => void, since?: string): { live: boolean } {
  const handler = useRef(onWin);
  handler.current = onWin;
  // True once the stream has opened (its first event): from then on every new win arrives here.
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    // ?since: the wins between the page's render and the stream's opening come first.
    const source = new EventSource(`/api/v1/winners/events${since ? `?since=${encodeURIComponent(since)}` : ''}`);
    source.addEventListener('ready', () => setLive(true));
    source.addEventListener('error', () => setLive(false));
    source.addEventListener('win', (event) => {
      const entry = winOf(event);
      if (entry) handler.current(entry);
    });
    return () => source.close();
    // The render time only seeds the first catch-up; the browser's reconnects repeat it (deduped by id).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return { live };
}

/**
 * The home page's feed with its live state inside: a win, the stream's opening or the clock re-renders the
 * feed alone, never the page around it (a whole home page re-rendered was a long task on a slow phone).
 * @example <ShopWinnersFeed wins={loaderData.wins} renderedAt={loaderData.renderedAt} />
 */
export function ShopWinnersFeed({ wins, renderedAt }: { wins: WinnerFeedEntry[]; renderedAt: string }) {
  const feed = useWinners(wins, renderedAt);
  const stream = useShopWinsStream((entry) => feed.add(entry, true), renderedAt);
  return (
    <WinnersFeed entries={feed.entries} now={feed.now} announcement={feed.announcement} withPack live={stream.live} />
  );
}

export function WinnersFeed({
  entries,
  now,
  announcement,
  withPack,
  live,
  id = 'winners',
}: {
  entries: WinnerFeedEntry[];
  now: number;
  announcement: string;
  /** The home page names each pack (linked); a pack's own page does not. */
  withPack: boolean;
  /** Whether the live stream is open (useShopWinsStream), shown as data-live for whoever watches the page. */
  live?: boolean;
  id?: string;
}) {
  const rows = collapseWins(entries, FEED_ROWS);
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-2"
      data-testid="winners-feed"
      data-live={live === undefined ? undefined : live ? 'on' : 'off'}
    >
      <h2 id={id} className="text-lg font-black">
        みんなの当選履歴
      </h2>
      <div className="rounded-2xl bg-white shadow-sm">
        {rows.length === 0 ? (
          <p className="p-4 text-sm text-muted">まだ上位賞の当選はありません。当たりが出るとここに表示されます。</p>
        ) : (
          <ol className="divide-y divide-line">
            {rows.map((entry) => (
              <li key={entry.key} className="flex h-14 items-center gap-3 px-3" data-testid="winner-row">
                <CardThumb src={entry.imagePath} />
                <p className="min-w-0 flex-1 text-xs leading-snug">
                  <span className="flex items-center gap-1.5">
                    <span
                      className={`shrink-0 rounded-full px-1.5 py-0.5 text-xs font-black leading-none ${TIER_CHIP[entry.effect] ?? TIER_CHIP.normal}`}
                    >
                      {entry.tierLabel}
                    </span>
                    <b className="truncate text-sm">{entry.cardName}</b>
                    {entry.count > 1 && (
                      <b className="shrink-0 text-sm text-primary-ink" data-testid="winner-count">
                        <span aria-hidden="true">×{entry.count}</span>
                        <span className="sr-only">（{entry.count}枚）</span>
                      </b>
                    )}
                  </span>
                  <span className="block truncate text-muted">
                    {entry.sponsored && <PrLabel />}
                    <span data-testid="winner-name">{entry.name}</span>さん
                    {withPack ? (
                      <>
                        {' ・ '}
                        <AppLink
                          to={`/gacha/${entry.genreId}/${entry.gachaId}`}
                          className="font-bold text-primary-ink underline"
                        >
                          {entry.gachaTitle}
                        </AppLink>
                      </>
                    ) : null}
                  </span>
                </p>
                <time dateTime={entry.wonAt} className="shrink-0 text-xs text-muted">
                  {timeAgo(entry.wonAt, now)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </div>
      <p className="sr-only" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </section>
  );
}

/** A card's small picture in a list row (decorative: the row names the card). */
export function CardThumb({ src }: { src: string }) {
  return <Image src={src} alt="" width={32} height={45} className="h-[45px] w-8 shrink-0 rounded object-cover" />;
}
