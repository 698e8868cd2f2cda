// Beside the price (decision 059): the pack's 還元率 and each tier's current odds (「S賞 残り4/5・現在0.6%」),
// from the live remaining counts. Nothing personal: the visitors' cached page shows the same (decision 048).
import { formatCoins } from '~/lib/numbers';
import { TIER_CHIP } from './labels';
import type { TierOdds } from './odds';

export function PackOdds({
  odds,
  returnRate,
  closed,
  extras,
}: {
  odds: TierOdds[];
  /**
   * The extra prizes' lines (issue 34 item 3: how each is won and its odds per lot) and a member's 個人キリ番賞
   * meter, worded by the server (modules/gacha's extraPrizeOdds and personalKiribanMeter).
   */
  extras: string[];
  /** 「82.3」 (one decimal, rounded down), or null for a pack without lots. */
  returnRate: string | null;
  closed: boolean;
}) {
  return (
    <section aria-labelledby="pack-odds-title" className="rounded-xl bg-canvas p-3 text-sm" data-testid="pack-odds">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h2 id="pack-odds-title" className="font-bold">
          還元率{' '}
          <span className="text-lg font-black" data-testid="odds-return-rate">
            {returnRate === null ? '—' : `${returnRate}%`}
          </span>
        </h2>
        <a href="#disclosure" className="text-xs font-bold text-primary-ink underline">
          排出内訳・計算式
        </a>
      </div>
      <p className="mt-1 text-xs text-muted">
        {closed ? '販売を終了したため、確率は表示していません。' : '次の1口の確率（残り口数から計算・リアルタイム）'}
      </p>
      <ul className="mt-1.5 grid grid-cols-1 gap-1 min-[360px]:grid-cols-2">
        {odds.map((tier) => (
          <li
            key={tier.id}
            className="flex items-center gap-1.5 rounded-lg bg-white px-2 py-1 text-xs"
            data-testid="tier-odds"
            data-tier-id={tier.id}
          >
            <span className={`shrink-0 rounded-full px-1.5 py-0.5 font-black ${chipOf(tier)}`}>{tier.label}</span>
            <span className="min-w-0">
              {/* On a narrow phone the line breaks after 「・」, never inside a count or the odds. */}
              <span className="whitespace-nowrap">
                残り{formatCoins(tier.left)}/{formatCoins(tier.quantity)}
                {closed ? '' : '・'}
              </span>
              {closed ? null : (
                <span className="whitespace-nowrap">
                  現在
                  <b className="text-sm text-ink" data-testid="tier-odds-value">
                    {tier.odds}
                  </b>
                </span>
              )}
            </span>
          </li>
        ))}
        {extras.map((line) => (
          <li
            key={line}
            className="rounded-lg bg-white px-2 py-1 text-xs min-[360px]:col-span-2"
            data-testid="extra-odds"
          >
            {line}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The tier's chip colour: the line-up's, by the tier's effect. */
const chipOf = (tier: TierOdds) => TIER_CHIP[tier.effect] ?? TIER_CHIP.normal;
