// The pack page's counts: total, remaining and drawn lots, the remaining bar, and the pack's badges.
import { formatCoins } from '~/lib/numbers';
import { formatMemberDateTime } from '#modules/kernel/dates';
import type { PackClosed } from './PackHero';

export function PackCounts({
  totalLots,
  remaining,
  closed,
  hasLastOne,
  hasKiriban,
  perMemberLimit,
  limitLeft,
  minRankName,
  saleEndsAt,
  streaming,
}: {
  totalLots: number;
  remaining: number;
  closed: PackClosed;
  hasLastOne: boolean;
  hasKiriban: boolean;
  perMemberLimit: number | null;
  limitLeft: number | null;
  minRankName: string | null;
  saleEndsAt: string | null;
  /** The remaining count follows the live stream. */
  streaming: boolean;
}) {
  const drawn = totalLots - remaining;
  const ratio = totalLots > 0 ? remaining / totalLots : 0;
  return (
    <>
      <dl className="grid grid-cols-3 gap-2 text-center" aria-live="polite">
        {[
          ['総口数', totalLots, 'total'],
          ['残り口数', remaining, 'remaining'],
          ['消化口数', drawn, 'drawn'],
        ].map(([label, value, id]) => (
          <div key={id} className="rounded-xl bg-canvas py-2">
            <dt className="text-xs text-muted">{label}</dt>
            <dd className="text-base font-black" data-testid={`pack-${id}`}>
              {formatCoins(value as number)}
            </dd>
          </div>
        ))}
      </dl>
      <div
        className="h-2 overflow-hidden rounded-full bg-canvas"
        role="progressbar"
        aria-label="残り口数"
        aria-valuemin={0}
        aria-valuemax={totalLots}
        aria-valuenow={remaining}
      >
        <div
          className={`h-full rounded-full transition-[width] duration-500 ${ratio < 0.2 ? 'bg-red-500' : 'bg-primary'}`}
          style={{ width: `${Math.round(ratio * 100)}%` }}
        />
      </div>
      <ul className="flex flex-wrap gap-2 text-xs text-muted">
        {closed && (
          <li className="rounded-full bg-slate-800 px-2.5 py-1 font-bold text-white">
            {closed === 'sold_out' ? '完売' : '販売終了'}
          </li>
        )}
        {hasLastOne && (
          <li className="rounded-full border border-primary-ink bg-white px-2.5 py-1 font-bold text-primary-ink">
            ラストワン賞あり
          </li>
        )}
        {perMemberLimit && (
          <li className="rounded-full bg-canvas px-2.5 py-1">
            お一人様{formatCoins(perMemberLimit)}口まで
            {limitLeft !== null ? `（あと${formatCoins(limitLeft)}口）` : ''}
          </li>
        )}
        {minRankName && <li className="rounded-full bg-canvas px-2.5 py-1">{minRankName}ランク以上限定</li>}
        {saleEndsAt && (
          <li className="rounded-full bg-canvas px-2.5 py-1">販売終了 {formatMemberDateTime(saleEndsAt)}</li>
        )}
        {hasKiriban && (
          <li className="rounded-full border border-amber-600 bg-white px-2.5 py-1 font-bold text-amber-900">
            キリ番賞あり
          </li>
        )}
        {streaming && !closed && (
          <li className="rounded-full bg-emerald-50 px-2.5 py-1 text-emerald-800">残り口数をリアルタイム表示中</li>
        )}
      </ul>
    </>
  );
}
