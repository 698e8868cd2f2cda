// キリ番賞 (decision 027): which lot numbers of a pack win an extra prize, and how far the sale is from
// the next one. Pure: the pack page computes the same from its live remaining count.

/** A pack's キリ番 as members see them: every number, the next one not yet reached and the lots to it. */
export interface KiribanProgress {
  /** Every キリ番 of the pack, ascending. */
  numbers: number[];
  /** Lots sold so far (total − remaining). */
  sold: number;
  /** The smallest キリ番 not yet reached, or null (none, or all reached). */
  next: number | null;
  /** Lots to sell until the next キリ番 is drawn (1 = the very next lot wins it), or null. */
  lotsToNext: number | null;
}

/**
 * @example kiribanProgress([{ kiribanAt: [100, 500] }], 1000, 950) // { numbers: [100, 500], sold: 50, next: 100, lotsToNext: 50 }
 */
export function kiribanProgress(
  tiers: readonly { kiribanAt?: readonly number[] | null }[],
  totalLots: number,
  remainingLots: number,
): KiribanProgress {
  const numbers = tiers.flatMap((t) => t.kiribanAt ?? []).sort((a, b) => a - b);
  const sold = Math.max(0, totalLots - remainingLots);
  const next = numbers.find((k) => k > sold) ?? null;
  return { numbers, sold, next, lotsToNext: next === null ? null : next - sold };
}
