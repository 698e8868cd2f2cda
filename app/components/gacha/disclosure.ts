// The pack page's value disclosure as pure functions: each prize's count and conversion value, and the
// 還元率 (the lots' conversion values ÷ what all the lots cost), in integers until the percentage is shown.
import { isLotTier } from './odds';

/** What the disclosure reads of a tier (modules/gacha's GachaTierView). */
export interface DisclosedTier {
  id: string;
  label: string;
  cardName: string;
  quantity: number;
  conversionValue: number;
  isLastOne: boolean;
  kiribanAt?: number[] | null;
  personalKiribanAt?: number[] | null;
  pitariOf?: string | null;
  ceilingAfter?: number | null;
  /** Who receives it, for an extra prize (modules/gacha's words); null for a lot tier. */
  extraNote?: string | null;
}

export interface PackDisclosure {
  /** Coins every lot together costs: price per draw × total lots. */
  salesCoins: number;
  /** The conversion values of all lots (each lot tier's quantity × value). */
  lotValueCoins: number;
  /**
   * The ラストワン賞, キリ番賞 and ピタリ賞: extra prizes on top of the lots (one per number, the final lot, a tier's
   * last lot). A 個人キリ番賞 and a 天井賞 are not counted: how many members reach their numbers is not known, and
   * their most would overstate the rate.
   */
  extraValueCoins: number;
  /** lotValueCoins ÷ salesCoins as a percentage with one decimal, rounded down (never overstated); null without lots. */
  returnRate: string | null;
  /** The same with the extra prizes counted in; null when the pack has none (or no lots). */
  returnRateWithExtras: string | null;
}

const isExtra = (tier: DisclosedTier) => !isLotTier(tier);

/** A ratio as a percentage with one decimal, rounded down: 123456 / 150000 → '82.3'. */
export function percentOneDecimal(numerator: number, denominator: number): string | null {
  if (!(denominator > 0)) return null;
  // Integer arithmetic (coins are integers): tenths of a percent, rounded down.
  const tenths = Math.floor((numerator * 1000) / denominator);
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
}

/**
 * The pack's 還元率 and the sums behind it.
 * @example packDisclosure(pack.tiers, 500, 300).returnRate // '82.3'
 */
export function packDisclosure(tiers: DisclosedTier[], pricePerDraw: number, totalLots: number): PackDisclosure {
  const salesCoins = pricePerDraw * totalLots;
  let lotValueCoins = 0;
  let extraValueCoins = 0;
  for (const tier of tiers) {
    if (tier.personalKiribanAt?.length || tier.ceilingAfter) continue;
    if (isExtra(tier)) extraValueCoins += tier.quantity * tier.conversionValue;
    else lotValueCoins += tier.quantity * tier.conversionValue;
  }
  const hasExtras = tiers.some(isExtra);
  return {
    salesCoins,
    lotValueCoins,
    extraValueCoins,
    returnRate: percentOneDecimal(lotValueCoins, salesCoins),
    returnRateWithExtras: hasExtras ? percentOneDecimal(lotValueCoins + extraValueCoins, salesCoins) : null,
  };
}
