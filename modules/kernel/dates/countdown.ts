// The specification's countdown (section 9) on its own, without the date library: pages that only tick
// a timer (the farm) load these few lines instead of the whole of ./shop-dates.

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * Countdown text of a remaining time in milliseconds. `clock`: `m:ss` under one hour, `h:mm:ss` from one
 * hour up (hours are not folded into days: `26:03:09`). `ja`: `4分05秒` / `1時間00分00秒`. Rounded UP to
 * whole seconds, so a running timer never shows `0:00` while time remains and reaches `''` exactly when
 * time runs out. `''` when nothing remains or the input is not a number.
 * @example formatCountdownMs(3_600_000) // '1:00:00'
 * @example formatCountdownMs(245_000, 'ja') // '4分05秒'
 */
export function formatCountdownMs(remaining: number, style: 'clock' | 'ja' = 'clock'): string {
  if (!Number.isFinite(remaining) || remaining <= 0) return '';
  const total = Math.ceil(remaining / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (style === 'ja') {
    return hours > 0 ? `${hours}時間${pad2(minutes)}分${pad2(seconds)}秒` : `${minutes}分${pad2(seconds)}秒`;
  }
  return hours > 0 ? `${hours}:${pad2(minutes)}:${pad2(seconds)}` : `${minutes}:${pad2(seconds)}`;
}
