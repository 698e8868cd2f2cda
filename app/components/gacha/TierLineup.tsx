// The pack's prize tiers: card, tier, remaining of each (live), what a card converts to, and a graded
// card's certificate number (its proof is in CertifiedPrizes).
import { Image } from '~/components/Image';
import { formatCoins } from '~/lib/numbers';
import type { GachaTierView } from '#modules/gacha';
import { TIER_CHIP } from './labels';

/** What the line-up shows of a pack's tier (modules/gacha's GachaTierView). */
export type LineupTier = Pick<
  GachaTierView,
  | 'id'
  | 'label'
  | 'effect'
  | 'cardName'
  | 'cardImagePath'
  | 'rarity'
  | 'cardGrade'
  | 'quantity'
  | 'conversionValue'
  | 'isLastOne'
  | 'kiribanAt'
  | 'extraNote'
  | 'certificate'
>;

export function TierLineup({ tiers, remaining }: { tiers: LineupTier[]; remaining: Record<string, number> }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" data-testid="tier-lineup">
      {tiers.map((tier) => {
        // (A 個人キリ番賞 or 天井賞 counts its stock less those given: 0 once all are given or the pack sold out.)
        const left = remaining[tier.id] ?? 0;
        return (
          <li
            key={tier.id}
            className="flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm"
            data-tier-id={tier.id}
          >
            <div className="relative bg-canvas">
              {/* Only the picture fades when a tier is gone: the text keeps its contrast. */}
              <Image
                src={tier.cardImagePath}
                alt={tier.cardName}
                width={240}
                height={336}
                className={`mx-auto aspect-[5/7] h-auto w-3/4 object-contain py-2 ${left === 0 ? 'opacity-40 grayscale' : ''}`}
              />
              <span
                className={`absolute left-2 top-2 rounded-full px-2 py-0.5 text-xs font-black ${TIER_CHIP[tier.effect] ?? TIER_CHIP.normal}`}
              >
                {tier.label}
              </span>
              {left === 0 && (
                <span className="absolute inset-x-0 bottom-2 mx-auto w-fit rounded-full bg-ink/80 px-3 py-0.5 text-xs font-bold text-white">
                  {tier.extraNote ? '獲得済み' : 'なくなりました'}
                </span>
              )}
            </div>
            <div className="flex flex-1 flex-col gap-1 p-3">
              <p className="line-clamp-2 text-sm font-bold leading-snug">{tier.cardName}</p>
              {(tier.rarity || tier.cardGrade) && (
                <p className="text-xs text-muted">{[tier.rarity, tier.cardGrade].filter(Boolean).join('・')}</p>
              )}
              {tier.certificate && (
                <p className="text-xs font-bold text-ink">
                  {tier.certificate.company} 鑑定番号{' '}
                  <span className="whitespace-nowrap">{tier.certificate.number}</span>
                </p>
              )}
              {tier.extraNote ? (
                <p className={`mt-auto text-xs font-bold ${tier.isLastOne ? 'text-tier-last' : 'text-amber-900'}`}>
                  {tier.extraNote}にプレゼント
                </p>
              ) : (
                <p className="mt-auto text-xs text-muted">
                  残り{' '}
                  <b className="text-base text-ink" data-testid="tier-remaining">
                    {formatCoins(left)}
                  </b>{' '}
                  / {formatCoins(tier.quantity)}
                </p>
              )}
              <p className="text-xs text-muted">交換 {formatCoins(tier.conversionValue)}コイン</p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
