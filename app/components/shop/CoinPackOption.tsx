// One coin pack on the shop's plan cards: its coins, bonuses and price, why it cannot be chosen, and
// whether it covers the draw the member came for. The 初回限定 pack is featured.
import type { CoinPackView } from '#modules/payments';
import { CoinIcon } from '~/components/icons';
import { formatCoins, formatYen } from '~/lib/numbers';
import { drawOptionLabel } from '~/components/gacha/labels';
import type { CarriedDraw } from './types';

export function CoinPackOption({
  pack: p,
  checked,
  onChoose,
  choosable,
  remainingJpy,
  featured,
  draw,
  shortfall,
}: {
  pack: CoinPackView;
  checked: boolean;
  onChoose: () => void;
  choosable: boolean;
  remainingJpy: number;
  featured: boolean;
  draw: CarriedDraw | null;
  shortfall: number;
}) {
  const disabled = !choosable;
  const reason = p.unavailableReason ?? (p.priceJpy > remainingJpy ? '今月の上限を超えるため選べません' : null);
  const coversDraw = draw !== null && shortfall > 0 && !disabled && p.totalCoins >= shortfall;
  return (
    <li className={`flex ${featured ? 'col-span-2' : ''}`}>
      <label
        className={`relative flex w-full flex-col gap-1 rounded-2xl border-2 p-3 pt-4 shadow-sm transition-colors has-focus-visible:outline-3 has-focus-visible:outline-primary has-focus-visible:outline-offset-2 ${
          disabled
            ? 'cursor-not-allowed border-line bg-white opacity-60'
            : featured
              ? 'cursor-pointer border-primary-ink bg-gradient-to-br from-primary-soft to-amber-50 ring-2 ring-primary/30 hover:border-primary-dark has-checked:ring-4'
              : 'cursor-pointer border-line bg-white hover:border-primary has-checked:border-primary-ink has-checked:bg-primary-soft'
        }`}
        data-testid="coin-pack"
        data-pack-id={p.id}
        data-featured={featured || undefined}
      >
        <input
          type="radio"
          name="pack"
          value={p.id}
          required
          disabled={disabled}
          checked={checked}
          onChange={onChoose}
          className="peer sr-only"
        />
        {p.badge && <PackBadge badge={p.badge} />}
        {featured && (
          <span className="text-xs font-black text-primary-dark">はじめてのご購入1回だけ選べるお得なプラン</span>
        )}
        <span className="flex items-center gap-1 text-xl font-black leading-tight">
          <CoinIcon className="size-5 shrink-0 text-coin" />
          {formatCoins(p.paidCoins)}
          <span className="text-xs">コイン</span>
        </span>
        <span className="flex flex-wrap gap-1 text-xs font-bold">
          {p.bonusCoins > 0 && (
            <span className="rounded bg-amber-50 px-1.5 py-0.5 text-amber-900">
              +{formatCoins(p.bonusCoins)}ボーナス
            </span>
          )}
          {p.rankBonusCoins > 0 && (
            <span className="rounded bg-violet-50 px-1.5 py-0.5 text-violet-800">
              +{formatCoins(p.rankBonusCoins)}ランク
            </span>
          )}
        </span>
        {p.totalCoins !== p.paidCoins && (
          <span className="text-xs text-muted">合計 {formatCoins(p.totalCoins)}コイン</span>
        )}
        <span className="mt-auto pt-1 text-lg font-black text-primary-dark">
          {formatYen(p.priceJpy)}
          <span className="text-xs font-bold text-muted">（税込）</span>
        </span>
        {coversDraw && (
          <span className="text-xs font-bold text-emerald-800">{`${drawOptionLabel(draw.count)}に足ります`}</span>
        )}
        {reason && (
          <span className="text-xs font-bold text-muted" data-testid="pack-unavailable">
            {reason}
          </span>
        )}
        <span
          aria-hidden="true"
          className="absolute top-2 right-2 hidden size-5 items-center justify-center rounded-full bg-primary-ink text-xs text-white peer-checked:flex"
        >
          ✓
        </span>
      </label>
    </li>
  );
}

const BADGE_TONE: Record<string, string> = {
  初回限定: 'bg-primary-ink text-white',
  人気: 'bg-amber-500 text-ink',
  おすすめ: 'bg-violet-700 text-white',
};

function PackBadge({ badge }: { badge: string }) {
  return (
    <span
      className={`absolute -top-2.5 left-2 rounded-full px-2 py-0.5 text-xs font-black shadow-sm ${BADGE_TONE[badge] ?? 'bg-ink text-white'}`}
    >
      {badge}
    </span>
  );
}
