// A tier's current odds on the pack page (decision 059): the tier's unclaimed lots ÷ the pack's unclaimed
// lots, from the live remaining counts. Integer arithmetic; one decimal, rounded down like the 還元率 (never
// overstated), and never 「0%」 for a tier that still has lots: below 0.1 % it says 「0.1%未満」.

/** What the odds read of a tier (modules/gacha's GachaTierView). */
export interface OddsTier {
  id: string;
  label: string;
  /** The tier's look (rainbow, gold, …): the chips share the line-up's colours. */
  effect: string;
  quantity: number;
  isLastOne: boolean;
  kiribanAt?: number[] | null;
  /** Who receives it, for an extra prize (modules/gacha's words); null for a lot tier. */
  extraNote?: string | null;
}

/**
 * A tier drawn from the lots, not an extra prize on top of one: the server names each extra prize's winner
 * (`extraNote`: ラストワン賞, キリ番賞, 個人キリ番賞, ピタリ賞); a tier without that note is judged by its own fields.
 */
export const isLotTier = (tier: Pick<OddsTier, 'isLastOne' | 'kiribanAt' | 'extraNote'>) =>
  !tier.extraNote && !tier.isLastOne && !tier.kiribanAt?.length;

/**
 * The chance that the next lot is of a tier, as the page says it.
 * @example formatOdds(4, 640) === '0.6%'; formatOdds(1, 5000) === '0.1%未満'; formatOdds(0, 10) === '0%'
 */
export function formatOdds(tierLeft: number, packLeft: number): string {
  if (!(packLeft > 0) || !(tierLeft > 0)) return '0%';
  if (tierLeft >= packLeft) return '100%';
  // Tenths of a percent, rounded down.
  const tenths = Math.floor((tierLeft * 1000) / packLeft);
  if (tenths === 0) return '0.1%未満';
  return `${Math.floor(tenths / 10)}.${tenths % 10}%`;
}

export interface TierOdds {
  id: string;
  label: string;
  effect: string;
  left: number;
  quantity: number;
  /** 「0.6%」, 「0.1%未満」, 「0%」 once the tier is gone. */
  odds: string;
  /** The odds when the pack went on sale (quantity ÷ total lots), in the same words. */
  initial: string;
}

/**
 * The lot tiers' current odds, best tier first as the pack lists them.
 * @example oddsOf(pack.tiers, live.tiers, live.remaining, pack.totalLots)[0].odds === '0.6%'
 */
export function oddsOf(
  tiers: readonly OddsTier[],
  remaining: Readonly<Record<string, number>>,
  packLeft: number,
  totalLots: number,
): TierOdds[] {
  return tiers.filter(isLotTier).map((tier) => {
    const left = Math.max(0, remaining[tier.id] ?? 0);
    return {
      id: tier.id,
      label: tier.label,
      effect: tier.effect,
      left,
      quantity: tier.quantity,
      odds: formatOdds(left, packLeft),
      initial: formatOdds(tier.quantity, totalLots),
    };
  });
}
