// The winners feed's pure rules: 「3分前」 and merging live entries into the list shown.
import type { WinnerFeedEntry } from '#modules/draw';

/** Rows the feed shows; its height is reserved for this many, so a new win moves nothing below it. */
export const FEED_ROWS = 5;

/**
 * How long ago, as the feed says it.
 * @example timeAgo('2026-11-24T10:00:00Z', new Date('2026-11-24T10:03:10Z')) === '3分前'
 */
export function timeAgo(at: string, now: Date | number): string {
  const seconds = Math.max(0, Math.floor((Number(now) - Date.parse(at)) / 1000));
  if (seconds < 60) return 'たった今';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}分前`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}時間前`;
  return `${Math.floor(seconds / 86_400)}日前`;
}

/**
 * New entries first, each once (the stream may repeat one after a reconnect), newest first, at most `max`.
 * @example mergeWins(shown, [fresh], 5)[0] === fresh
 */
export function mergeWins(shown: readonly WinnerFeedEntry[], fresh: readonly WinnerFeedEntry[], max: number) {
  const byId = new Map<string, WinnerFeedEntry>();
  for (const entry of [...fresh, ...shown]) if (!byId.has(entry.id)) byId.set(entry.id, entry);
  return [...byId.values()]
    .sort((a, b) => Date.parse(b.wonAt) - Date.parse(a.wonAt) || Number(b.id) - Number(a.id))
    .slice(0, max);
}

/** The line a screen reader hears for a new win (at most one announcement per interval). */
export const announcementOf = (entry: WinnerFeedEntry, withPack: boolean) =>
  `${entry.name}さんが${withPack ? `「${entry.gachaTitle}」で` : ''}${entry.tierLabel}「${entry.cardName}」を獲得しました`;

/** A `win` event's entry, or null when it is not one (a malformed event is ignored). */
export function winOf(event: Event): WinnerFeedEntry | null {
  try {
    const entry = JSON.parse((event as MessageEvent<string>).data) as WinnerFeedEntry;
    return typeof entry?.id === 'string' && typeof entry.cardName === 'string' ? entry : null;
  } catch {
    return null;
  }
}
