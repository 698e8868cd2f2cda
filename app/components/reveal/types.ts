// The data a draw-result reveal (演出) needs: one entry per card won, in draw order.

/** The animation class of a prize tier, from the most to the least special. */
export type RevealEffect = 'lastone' | 'rainbow' | 'gold' | 'silver' | 'normal';

/** One card won in a draw, as the reveal shows it. */
export interface RevealItem {
  prizeId: string;
  /** 'S賞', 'A賞', 'ラストワン賞' … */
  tierLabel: string;
  /** The tier's animation class. */
  effect: RevealEffect;
  /** 1 = best tier of the pack; larger = lower. ラストワン賞 uses 0. */
  tierRank: number;
  cardName: string;
  /** A local path under public/, e.g. '/demo/cards/card-01.svg' (rendered with the shop's <Image>). */
  imagePath: string;
  /** 'SAR', 'UR' … */
  rarity: string | null;
  /** 'PSA10' … */
  cardGrade: string | null;
  /** Coins the card converts to. */
  conversionValue: number;
  isLastOne: boolean;
}
