// The winners feed's pure rules: 「3分前」, merging live entries into the list shown, and collapsing repeats
// (five identical 「A賞 雷光のフェネック SR・匿名さん」 wins are one row 「×5」, decision 059).
import type { WinnerFeedEntry } from '#modules/draw';

/** Rows the feed shows at most; it takes only the room of the rows it has. */
export const FEED_ROWS = 5;
/** Entries the pages read to fill FEED_ROWS rows once repeats are collapsed (the feed API's largest page). */
export const FEED_READ = 50;
/** Identical wins this close together (each to the next) are one row. */
export const REPEAT_WINDOW_MS = 10 * 60_000;

/** A row of the feed: the newest of its identical wins, and how many they are. */
export interface WinnerFeedRow extends WinnerFeedEntry {
  count: number;
  /** The row's wins, newest first (the stream's repeats are recognised by these). */
  ids: string[];
  /** The oldest win's time (a repeat joins the row when it is within REPEAT_WINDOW_MS of the row). */
  oldestAt: string;
  /** A stable React key: the id of the row's oldest win. */
  key: string;
}

/** What a reader sees of a win: the same pack, tier, card, name and 「PR」 read as a repeat. */
const lookOf = (entry: WinnerFeedEntry) =>
  [entry.gachaId, entry.tierLabel, entry.cardName, entry.name, entry.sponsored ? 'PR' : ''].join('\u0000');

const newestFirst = (a: WinnerFeedEntry, b: WinnerFeedEntry) =>
  Date.parse(b.wonAt) - Date.parse(a.wonAt) || Number(b.id) - Number(a.id);

/**
 * The feed's rows: identical wins (same pack, tier, card and name) within REPEAT_WINDOW_MS of each other
 * become one row with their count, at the place of the newest; newest row first, at most `max` rows.
 * @example collapseWins([a1, a2, a3, b], 5).map((r) => r.count) // [3, 1]
 */
export function collapseWins(entries: readonly WinnerFeedEntry[], max: number): WinnerFeedRow[] {
  const rows: WinnerFeedRow[] = [];
  const seen = new Set<string>();
  const open = new Map<string, WinnerFeedRow>();
  for (const entry of [...entries].sort(newestFirst)) {
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    const look = lookOf(entry);
    const row = open.get(look);
    if (row && Date.parse(row.oldestAt) - Date.parse(entry.wonAt) <= REPEAT_WINDOW_MS) {
      row.count += 1;
      row.ids.push(entry.id);
      row.oldestAt = entry.wonAt;
      row.key = entry.id;
      continue;
    }
    const fresh: WinnerFeedRow = { ...entry, count: 1, ids: [entry.id], oldestAt: entry.wonAt, key: entry.id };
    rows.push(fresh);
    open.set(look, fresh);
  }
  return rows.slice(0, max);
}

/**
 * The entries behind the first `max` rows: what a page sends, so the browser collapses them the same way.
 * @example shownWins(page.items, FEED_ROWS)
 */
export function shownWins(entries: readonly WinnerFeedEntry[], max: number): WinnerFeedEntry[] {
  const ids = new Set(collapseWins(entries, max).flatMap((row) => row.ids));
  return entries.filter((entry) => ids.has(entry.id));
}

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
  `${entry.sponsored ? '【PR】' : ''}${entry.name}さんが${withPack ? `「${entry.gachaTitle}」で` : ''}${entry.tierLabel}「${entry.cardName}」を獲得しました`;

/** A `win` event's entry, or null when it is not one (a malformed event is ignored). */
export function winOf(event: Event): WinnerFeedEntry | null {
  try {
    const entry = JSON.parse((event as MessageEvent<string>).data) as WinnerFeedEntry;
    return typeof entry?.id === 'string' && typeof entry.cardName === 'string' ? entry : null;
  } catch {
    return null;
  }
}
