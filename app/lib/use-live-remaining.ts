// Live remaining counts of a pack, and its new wins for the winners feed: server-sent events from
// /api/v1/gachas/{id}/events (one stream per page for both).
import { useEffect, useRef, useState } from 'react';
import type { WinnerFeedEntry } from '#modules/draw';
import { winOf } from '~/components/winners/feed';

export interface LiveRemaining {
  remaining: number;
  soldOut: boolean;
  tiers: Record<string, number>;
  /** True while the stream is connected. */
  live: boolean;
}

/**
 * Starts from the server-rendered counts and follows the stream; the browser reconnects by itself.
 * `onWin` receives the pack's new top-tier wins (`win` events) from the same stream.
 * @example const live = useLiveRemaining(pack.id, { remaining: pack.remainingLots, soldOut: false, tiers }, feed.add)
 */
export function useLiveRemaining(
  gachaId: string,
  initial: Omit<LiveRemaining, 'live'>,
  onWin?: (entry: WinnerFeedEntry) => void,
  /** The page's render time: the stream first sends the wins since then (none is missed). */
  since?: string,
): LiveRemaining {
  const [state, setState] = useState<LiveRemaining>({ ...initial, live: false });
  const winHandler = useRef(onWin);
  winHandler.current = onWin;
  useEffect(() => {
    setState({ ...initial, live: false });
    if (typeof EventSource === 'undefined') return;
    const query = since ? `?since=${encodeURIComponent(since)}` : '';
    const source = new EventSource(`/api/v1/gachas/${encodeURIComponent(gachaId)}/events${query}`);
    source.addEventListener('open', () => setState((s) => ({ ...s, live: true })));
    source.addEventListener('error', () => setState((s) => ({ ...s, live: false })));
    source.addEventListener('remaining', (event) => {
      try {
        const data = JSON.parse((event as MessageEvent<string>).data) as {
          remaining: number;
          soldOut: boolean;
          tiers: { tierId: string; remaining: number }[];
        };
        setState({
          remaining: data.remaining,
          soldOut: data.soldOut,
          tiers: Object.fromEntries(data.tiers.map((t) => [t.tierId, t.remaining])),
          live: true,
        });
      } catch {
        // A malformed event is ignored; the next one replaces it.
      }
    });
    source.addEventListener('win', (event) => {
      const entry = winOf(event);
      if (entry) winHandler.current?.(entry);
    });
    return () => source.close();
    // The initial counts only seed the state; a new pack id restarts the stream.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [gachaId]);
  return state;
}
