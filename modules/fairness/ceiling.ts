// 天井賞 (a ceiling, or pity, prize: format v4): the rule in one pure place, browser-safe and without imports,
// so the commitment (format.ts), the verifier's check 10 (ceiling-checks.ts), the shop's draw and the pack
// page's meter count a member's streak the same way. The formats: docs/formats/reveal-formats.md.
import type { PackTier } from './format';

/** The tier fields that make a 天井賞. */
export type CeilingFields = Pick<PackTier, 'ceilingAfter' | 'ceilingOf'>;

/**
 * A 天井賞 tier: one whose `ceilingAfter` is a positive number. (Then `ceilingOf` must list the lot tiers that
 * count as a hit; the terms are refused otherwise.)
 */
export function isCeilingTier(tier: CeilingFields): boolean {
  return typeof tier.ceilingAfter === 'number' && tier.ceilingAfter > 0;
}

/** Whether the pack's terms need the v4 formats (commitment v4, reveal /4): a 天井賞. */
export function hasCeiling(tiers: CeilingFields[]): boolean {
  return tiers.some(isCeilingTier);
}

/**
 * The most 天井賞 a tier can give in a pack of `lots` lots: each award uses up `after` distinct lots of one
 * member, so ⌊lots ÷ after⌋. Its committed quantity (the stock the shop holds for it).
 * @example ceilingQuantity(100, 1000) === 10
 */
export function ceilingQuantity(after: number, lots: number): number {
  return Math.floor(lots / after);
}

/**
 * One step of a member's 天井 meter: walks the lot tiers a draw gave the member, in position order, from the
 * member's streak before it (lots since their last hit or 天井賞). A lot of a tier in `hits` resets the
 * streak to 0; any other lot adds 1, and reaching `after` wins one 天井賞 and resets it to 0. Answers the
 * 天井賞 won and the streak after the draw. Check 10 recounts every draw of a reveal with it.
 * @example ceilingWalk(8, ['c', 'c', 'a', 'c'], 10, ['a', 's']) // { won: 1, streak: 0 }: the 10th miss wins
 */
export function ceilingWalk(
  streak: number,
  lotTiers: readonly (string | undefined)[],
  after: number,
  hits: ReadonlySet<string> | readonly string[],
): { won: number; streak: number } {
  if (!Number.isSafeInteger(after) || after < 1) throw new RangeError(`after must be a positive integer: ${after}`);
  if (!Number.isSafeInteger(streak) || streak < 0 || streak >= after)
    throw new RangeError(`streak must be an integer from 0 to ${after - 1}: ${streak}`);
  const isHit = (tierId: string | undefined) =>
    tierId !== undefined && (hits instanceof Set ? hits.has(tierId) : (hits as readonly string[]).includes(tierId));
  let won = 0;
  let s = streak;
  for (const tierId of lotTiers) {
    if (isHit(tierId)) s = 0;
    else if ((s += 1) === after) {
      won += 1;
      s = 0;
    }
  }
  return { won, streak: s };
}

/**
 * Why the pack's 天井賞 terms have no canonical form (English, for CommitmentInputError), or undefined: a
 * ceiling tier has a positive safe-integer `ceilingAfter` ≤ the pack's lots, a non-empty strictly ascending
 * (by id, as tiers sort) `ceilingOf` naming lot tiers of the pack, and quantity ⌊lots ÷ ceilingAfter⌋; any
 * other tier has neither field (or `ceilingAfter` 0 and `ceilingOf` []); a pack has at most one ceiling tier.
 * `isLotTier` tells a lot tier from an extra prize.
 */
export function ceilingTermsProblem(
  tiers: readonly (CeilingFields & Pick<PackTier, 'id' | 'quantity'>)[],
  lots: number,
  isLotTier: (id: string) => boolean,
): string | undefined {
  let ceilingTiers = 0;
  for (const tier of tiers) {
    const { ceilingAfter: after, ceilingOf: of } = tier;
    if (after !== undefined && !(Number.isSafeInteger(after) && after >= 0))
      return `tier ${tier.id}: ceilingAfter must be a positive integer`;
    if (of !== undefined && (!Array.isArray(of) || of.some((id) => typeof id !== 'string')))
      return `tier ${tier.id}: ceilingOf must be an array of tier ids`;
    if (!isCeilingTier(tier)) {
      if (of !== undefined && of.length > 0) return `tier ${tier.id}: ceilingOf needs a positive ceilingAfter`;
      continue;
    }
    ceilingTiers += 1;
    if (ceilingTiers > 1) return 'at most one 天井 tier per pack';
    if (after! > lots) return `tier ${tier.id}: ceilingAfter must be at most the pack's ${lots} lots`;
    if (of === undefined || of.length === 0) return `tier ${tier.id}: a 天井 tier needs ceilingOf`;
    if (!of.every((id, i) => i === 0 || of[i - 1] < id))
      return `tier ${tier.id}: ceilingOf must be ascending tier ids without duplicates`;
    if (!of.every(isLotTier)) return `tier ${tier.id}: ceilingOf must name lot tiers of the pack`;
    if (tier.quantity !== ceilingQuantity(after!, lots))
      return `tier ${tier.id}: a 天井 tier's quantity is ⌊lots ÷ ceilingAfter⌋`;
  }
  return undefined;
}
