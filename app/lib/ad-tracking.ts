// Ad-tracking parameters in localStorage: stored on arrival, re-added for visitors who lose them.
import { AD_TRACKING_PARAMS, adTrackingParamsIn, adTrackingRedirect } from '#modules/kernel/navigation';

const STORAGE_KEY = 'oripa:ad-tracking';
type Stored = Partial<Record<(typeof AD_TRACKING_PARAMS)[number], string>>;

export function readStoredAdParams(storage: Pick<Storage, 'getItem'> = window.localStorage): Stored {
  try {
    const parsed = JSON.parse(storage.getItem(STORAGE_KEY) ?? '{}') as Record<string, unknown>;
    const stored: Stored = {};
    for (const name of AD_TRACKING_PARAMS) if (typeof parsed[name] === 'string') stored[name] = parsed[name] as string;
    return stored;
  } catch {
    return {};
  }
}

/**
 * Stores the parameters of this address when it carries any (a new campaign replaces the old one),
 * then answers where a visitor without them should go instead, or null.
 * @example const target = trackAdParameters('/', '?utm_source=x', false)
 */
export function trackAdParameters(
  pathname: string,
  search: string,
  signedIn: boolean,
  storage: Storage = window.localStorage,
): string | null {
  const arriving = adTrackingParamsIn(search);
  if (Object.keys(arriving).length > 0) {
    try {
      storage.setItem(STORAGE_KEY, JSON.stringify(arriving));
    } catch {
      // private mode: nothing to keep
    }
    return null;
  }
  return adTrackingRedirect({ pathname, search, signedIn, stored: readStoredAdParams(storage) });
}
