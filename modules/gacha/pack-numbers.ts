// The pack editor's numbers before publishing (docs/decisions/030): 還元率, value ranges and margin,
// pure functions over the definition.
import type { PackDefinition } from './admin';
import { extraChancePerLot, isExtraPrize, isLotTier } from './extra-prizes';

// ── The numbers before publishing ─────────────────────────────────────────────────────────────────

/** The shop's costs the margin is measured with (settings). */
export interface PackCostRules {
  /** The payment providers' fee, percent of the sales. */
  paymentFeePercent: number;
  /** Shipping one prize (packing, postage), yen: the margin counts every prize shipped. */
  shippingCostPerPrizeYen: number;
}

export interface PackNumbers {
  totalLots: number;
  /** Coins for every lot (1 coin = 1 yen). */
  salesCoins: number;
  /** Conversion value of every prize (lots, ラストワン賞 and キリ番賞). */
  prizeValueCoins: number;
  /** 還元率: prize value ÷ sales, or null without lots. */
  returnRate: number | null;
  /** One lot's value: the smallest, the largest, the average, the median. */
  perDraw: { min: number; max: number; mean: number; median: number } | null;
  /** For each draw option: the price and what N lots are worth at least, on average and at most. */
  options: { count: number; price: number; min: number; mean: number; max: number }[];
  /** Each tier's chance per lot (an extra prize's: extraChancePerLot, null for a 個人キリ番賞) and value. */
  tiers: { key: string; label: string; quantity: number; chance: number | null; value: number; extra: boolean }[];
  margin: {
    cardCostYen: number;
    feesYen: number;
    shippingYen: number;
    marginYen: number;
    /** Margin ÷ sales, or null without sales. */
    marginRate: number | null;
    /** Tiers without a card cost: their cost is counted as 0, and the editor says so. */
    missingCost: string[];
  };
}

/**
 * The pack's numbers from its definition (pure): 還元率, the value of 1…N lots, and the margin from
 * the card costs, the payment fee and shipping every prize.
 * @example packNumbers(definition, { paymentFeePercent: 3.6, shippingCostPerPrizeYen: 300 }).returnRate
 */
export function packNumbers(def: PackDefinition, rules: PackCostRules): PackNumbers {
  const lotTiers = def.tiers.filter(isLotTier);
  const totalLots = lotTiers.reduce((s, t) => s + t.quantity, 0);
  const salesCoins = totalLots * def.pricePerDraw;
  const prizeValueCoins = def.tiers.reduce((s, t) => s + t.quantity * t.conversionValue, 0);
  // Lot values ascending, as runs (value, count), so a million lots cost nothing.
  const runs = lotTiers.map((t) => ({ value: t.conversionValue, count: t.quantity })).sort((a, b) => a.value - b.value);
  const sumOfSmallest = (n: number, list: typeof runs) => {
    let left = n;
    let sum = 0;
    for (const run of list) {
      const take = Math.min(left, run.count);
      sum += take * run.value;
      left -= take;
      if (left === 0) break;
    }
    return sum;
  };
  const lotValue = runs.reduce((s, r) => s + r.value * r.count, 0);
  const mean = totalLots ? lotValue / totalLots : 0;
  let median = 0;
  if (totalLots) {
    let seen = 0;
    for (const run of runs) {
      seen += run.count;
      if (seen >= Math.ceil(totalLots / 2)) {
        median = run.value;
        break;
      }
    }
  }
  const descending = [...runs].reverse();
  const options = (def.drawOptions ?? [1, 10, 100])
    .filter((count) => count <= totalLots)
    .map((count) => ({
      count,
      price: count * def.pricePerDraw,
      min: sumOfSmallest(count, runs),
      mean: Math.round(count * mean),
      max: sumOfSmallest(count, descending),
    }));
  const cardCostYen = def.tiers.reduce((s, t) => s + t.quantity * (t.cardCostYen ?? 0), 0);
  const feesYen = Math.round((salesCoins * rules.paymentFeePercent) / 100);
  const prizes = def.tiers.reduce((s, t) => s + t.quantity, 0);
  const shippingYen = prizes * rules.shippingCostPerPrizeYen;
  const marginYen = salesCoins - cardCostYen - feesYen - shippingYen;
  return {
    totalLots,
    salesCoins,
    prizeValueCoins,
    returnRate: salesCoins ? prizeValueCoins / salesCoins : null,
    perDraw: totalLots ? { min: runs[0]!.value, max: descending[0]!.value, mean, median } : null,
    options,
    tiers: def.tiers.map((t) => {
      const extra = isExtraPrize(t);
      return {
        key: t.key,
        label: t.label,
        quantity: t.quantity,
        chance: !totalLots ? null : extra ? extraChancePerLot(t, totalLots) : t.quantity / totalLots,
        value: t.conversionValue,
        extra,
      };
    }),
    margin: {
      cardCostYen,
      feesYen,
      shippingYen,
      marginYen,
      marginRate: salesCoins ? marginYen / salesCoins : null,
      missingCost: def.tiers.filter((t) => t.cardCostYen == null).map((t) => t.label),
    },
  };
}
