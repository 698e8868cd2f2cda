// When the member's page reads their place again (decision 087): browser-safe, shared by the page and the bench.

/**
 * Seconds until the page (or an app) should read the member's place again: often near the front and in the
 * window, rarely far back — a quarter of the estimate, 3 to 30 s — so 10,000 members far back do not read
 * every few seconds while nothing changes for them. Before the start: at the start.
 * @example nextReadSeconds({ state: 'waiting', estimateSeconds: 3600 }) // 30
 */
export function nextReadSeconds(room: { state: string; estimateSeconds: number | null }, secondsToStart = 0): number {
  if (room.state === 'registered') return Math.min(Math.max(secondsToStart, 3), 30);
  if (room.state === 'waiting') return Math.min(Math.max(Math.round((room.estimateSeconds ?? 12) / 4), 3), 30);
  return 5;
}
