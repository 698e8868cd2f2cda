// Analytics events for a tag manager: pushed to window.dataLayer (nothing is sent unless the
// operator installs a tag that reads it). Shapes follow the specification's data (section 3).

export interface GachaEvent {
  event: 'gacha';
  user_id: string;
  gacha_id: string;
  /** The member reached the pack from the top page. */
  from_top: boolean;
  /** The member reached the pack from a genre's pack list. */
  from_gacha: boolean;
}

type Origin = { from_top: boolean; from_gacha: boolean };
const ORIGIN_KEY = 'oripa.gacha-origin';

/**
 * Where a pack was opened from, remembered per pack for the draw that may follow.
 * @example rememberGachaOrigin('stellar-pokemon-001', '/')
 */
export function rememberGachaOrigin(gachaId: string, previousPath: string | null | undefined) {
  if (!previousPath) return;
  const origin: Origin = { from_top: previousPath === '/', from_gacha: /^\/gacha\/[^/]+\/?$/.test(previousPath) };
  try {
    const all = JSON.parse(sessionStorage.getItem(ORIGIN_KEY) ?? '{}') as Record<string, Origin>;
    all[gachaId] = origin;
    sessionStorage.setItem(ORIGIN_KEY, JSON.stringify(all));
  } catch {
    // Storage may be unavailable (private mode): the event then says neither.
  }
}

/** @example gachaEvent('m1', 'stellar-pokemon-001') // { event: 'gacha', …, from_top: true, from_gacha: false } */
export function gachaEvent(userId: string, gachaId: string): GachaEvent {
  let origin: Origin = { from_top: false, from_gacha: false };
  try {
    origin = (JSON.parse(sessionStorage.getItem(ORIGIN_KEY) ?? '{}') as Record<string, Origin>)[gachaId] ?? origin;
  } catch {
    // as above
  }
  return { event: 'gacha', user_id: userId, gacha_id: gachaId, ...origin };
}

/** Pushes an event for the tag manager. */
export function track(event: { event: string }) {
  const w = window as unknown as { dataLayer?: unknown[] };
  (w.dataLayer ??= []).push(event);
}
