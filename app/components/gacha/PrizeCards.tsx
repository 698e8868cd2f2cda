// The prizes' compact cards: grouped by tier on a result (low tiers collapsed into counts), rare tiers highlighted.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Image } from '~/components/Image';
import { formatCoins } from '~/lib/numbers';
import { formatRemainingShort, isDeadlineNear } from '#modules/kernel/dates';
import { TIER_CHIP } from './labels';
import { groupByTier, isHit } from './prize-summary';
import { PRIZE_STATUS_LABEL, type PrizeView } from './PrizeList';

/** The cards by tier, best first; low tiers of a large result are counts that open. */
export function TierGroups({
  prizes,
  card,
}: {
  prizes: PrizeView[];
  card: (prize: PrizeView, size: 'large' | 'small') => ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3">
      {groupByTier(prizes).map((group) => {
        const heading = (
          <>
            <span
              className={`rounded-full px-2.5 py-0.5 text-sm font-black ${TIER_CHIP[group.effect] ?? TIER_CHIP.normal}`}
            >
              {group.label}
            </span>
            <span className="font-black">×{group.prizes.length}</span>
            <span className="text-xs text-white/75">合計 {formatCoins(group.value)}コイン</span>
          </>
        );
        const grid = (size: 'large' | 'small') => (
          <ul
            className={`grid gap-2 ${size === 'large' ? 'grid-cols-3 sm:grid-cols-4 lg:grid-cols-6' : 'grid-cols-4 sm:grid-cols-6 lg:grid-cols-8'}`}
            aria-label={`${group.label}のカード`}
          >
            {group.prizes.map((p) => (
              <li key={p.prizeId}>{card(p, size)}</li>
            ))}
          </ul>
        );
        return group.open ? (
          <section
            key={group.tierId}
            aria-label={`${group.label} ${group.prizes.length}枚`}
            className="flex flex-col gap-2"
            data-tier-group={group.label}
          >
            <h3 className="flex items-center gap-2">{heading}</h3>
            {grid(isHit(group) ? 'large' : 'small')}
          </section>
        ) : (
          <details key={group.tierId} className="group rounded-2xl bg-white/10" data-tier-group={group.label}>
            <summary className="flex min-h-12 cursor-pointer list-none items-center gap-2 px-3 py-2 [&::-webkit-details-marker]:hidden">
              <h3 className="flex items-center gap-2">{heading}</h3>
              <span className="ml-auto text-xs font-bold text-white/85 group-open:hidden">開く ▾</span>
              <span className="ml-auto hidden text-xs font-bold text-white/85 group-open:inline">閉じる ▴</span>
            </summary>
            <div className="px-2 pb-3">{grid('small')}</div>
          </details>
        );
      })}
    </div>
  );
}

/** A compact card: it opens the card's sheet, where the choices are. A rare tier is highlighted. */
export function PrizeCard({
  prize,
  now,
  size,
  rare,
  href,
  onOpen,
}: {
  prize: PrizeView;
  now: number;
  size: 'large' | 'small';
  rare: boolean;
  href: string;
  onOpen: () => void;
}) {
  const left = prize.status === 'pending' ? formatRemainingShort(prize.decideBy, now) : '';
  return (
    <Link
      to={href}
      replace
      preventScrollReset
      onClick={(event) => {
        event.preventDefault();
        onOpen();
      }}
      className={`flex h-full flex-col overflow-hidden rounded-xl bg-white text-ink shadow-sm outline-offset-2 hover:ring-2 hover:ring-primary ${rare ? 'ring-2 ring-amber-500' : ''}`}
      data-prize-id={prize.prizeId}
      data-status={prize.status}
      data-rare={rare || undefined}
    >
      <div className="relative bg-canvas">
        <Image
          src={prize.imagePath}
          alt=""
          width={size === 'large' ? 200 : 120}
          height={size === 'large' ? 280 : 168}
          className={`mx-auto aspect-[5/7] h-auto object-contain ${size === 'large' ? 'w-4/5 py-1.5' : 'w-full p-1'}`}
        />
        <span
          className={`absolute left-1 top-1 rounded-full px-1.5 py-0.5 text-xs font-black leading-none ${TIER_CHIP[prize.effect] ?? TIER_CHIP.normal}`}
        >
          {prize.tierLabel}
        </span>
        {rare && (
          <span className="absolute right-1 top-1 rounded-full bg-amber-300 px-1.5 py-0.5 text-xs font-black leading-none text-amber-950">
            上位
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-0.5 p-1.5">
        <p className={size === 'large' ? 'line-clamp-2 text-xs font-bold leading-snug' : 'sr-only'}>{prize.cardName}</p>
        <p className="text-xs text-muted">
          <b className="text-ink">{formatCoins(prize.conversionValue)}</b>コイン
        </p>
        <p
          className={`text-xs font-bold leading-tight ${prize.status === 'kept' ? 'text-emerald-800' : prize.status === 'pending' && isDeadlineNear(prize.decideBy, now) ? 'text-red-700' : 'text-muted'}`}
          data-testid="prize-status"
        >
          {prize.status === 'pending'
            ? left
              ? `自動交換まで${left.replace('残り', '')}`
              : 'まもなく自動交換'
            : PRIZE_STATUS_LABEL[prize.status]}
        </p>
      </div>
    </Link>
  );
}
