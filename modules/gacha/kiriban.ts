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

/**
 * Whether a lot number is a ゾロ目 (all its digits the same, two digits or more: 11, 222, 3333).
 * @example isZorome(2222) === true; isZorome(7) === false; isZorome(1211) === false
 */
export function isZorome(lotNumber: number): boolean {
  return Number.isSafeInteger(lotNumber) && lotNumber >= 11 && /^(\d)\1+$/.test(String(lotNumber));
}

/**
 * The ゾロ目 of a pack of `totalLots` lots (issue 34 item 2): every ゾロ目 below the last lot, which is the
 * ラストワン賞's. A ゾロ目賞 is a キリ番賞 on these numbers (decision 027's sale numbers, committed and awarded
 * the same way); the editor fills them in when the operator types 「ゾロ目」.
 * @example zoromeNumbers(300) // [11, 22, 33, 44, 55, 66, 77, 88, 99, 111, 222]
 */
export function zoromeNumbers(totalLots: number): number[] {
  const numbers: number[] = [];
  for (let digits = 2; digits <= 7; digits++)
    for (let d = 1; d <= 9; d++) {
      const n = Number(String(d).repeat(digits));
      if (n < totalLots) numbers.push(n);
    }
  return numbers.sort((a, b) => a - b);
}

/** Whether a キリ番賞's numbers are ゾロ目 throughout (the pack page then calls it by that name). */
export const allZorome = (numbers: readonly number[]) => numbers.length >= 2 && numbers.every(isZorome);
