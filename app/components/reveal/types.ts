// The data a draw-result reveal (演出) needs: one entry per card won, in draw order. It is the
// draw module's prize, narrowed to what the animation shows.
import type { PrizeItem } from '#modules/draw';

/** The animation class of a prize tier, from the most to the least special. */
export type RevealEffect = PrizeItem['effect'];

/**
 * One card won in a draw, as the reveal shows it: tierLabel ('S賞', 'ラストワン賞' …), effect,
 * tierRank (1 = the pack's best tier, larger = lower; ラストワン賞 0), card name and image (a local
 * path under public/), rarity ('SAR' …), grade ('PSA10' …), the coins it converts to.
 */
export type RevealItem = Pick<
  PrizeItem,
  | 'prizeId'
  | 'tierLabel'
  | 'effect'
  | 'tierRank'
  | 'cardName'
  | 'imagePath'
  | 'rarity'
  | 'cardGrade'
  | 'conversionValue'
  | 'isLastOne'
> &
  /** The lot's position in the pack: the cards turn in this (draw) order, the best one last. */
  Partial<Pick<PrizeItem, 'position'>>;
