// The reveal's rules as pure functions: which prize it lands on, which effect plays, and its timeline.
import type { RevealEffect, RevealItem } from './types';

/** Sort key: the last one beats every tier, then the lowest tierRank. */
function rankOf(item: RevealItem): number {
  return item.isLastOne ? Number.NEGATIVE_INFINITY : item.tierRank;
}

/** Index of the best item (see {@link bestItem}); -1 for an empty list. */
export function bestIndex(items: readonly RevealItem[]): number {
  let best = -1;
  for (let i = 0; i < items.length; i++) {
    if (best === -1 || rankOf(items[i]) < rankOf(items[best])) best = i;
  }
  return best;
}

/**
 * The prize the reveal lands on: the lowest tierRank wins, the last one (rank 0, isLastOne) beats
 * all, and on a tie the first in draw order wins. Throws on an empty list.
 * @example bestItem([cItem, sItem, sItem2]) === sItem
 */
export function bestItem(items: readonly RevealItem[]): RevealItem {
  const index = bestIndex(items);
  if (index === -1) throw new Error('bestItem: a draw result needs at least one item');
  return items[index];
}

/** The effect of {@link bestItem}; 'normal' for an empty list. */
export function effectFor(items: readonly RevealItem[]): RevealEffect {
  return items.length === 0 ? 'normal' : bestItem(items).effect;
}

/** Every effect, most special first, with the Japanese label and description shown to staff. */
export const REVEAL_EFFECTS: { effect: RevealEffect; label: string; description: string }[] = [
  {
    effect: 'lastone',
    label: 'ラストワン演出',
    description:
      '最後の1口を引いたときの特別演出。青→緑→赤→金と光が高まり、紫の「ラストワン賞」の帯が走ってから開封します。',
  },
  {
    effect: 'rainbow',
    label: '虹演出',
    description: '最上位賞の演出。青→緑→赤→金と光が高まり、「昇格！」とともに虹色の光が画面を横切って開封します。',
  },
  {
    effect: 'gold',
    label: '金演出',
    description: '上位賞の演出。青→緑→赤→金と光が高まり、金色の輝きとキラキラの中でカードが現れます。',
  },
  {
    effect: 'silver',
    label: '銀演出',
    description: '中位賞の演出。青→緑→銀と光が変わり、銀色の光沢が走るカードが現れます。',
  },
  {
    effect: 'normal',
    label: '通常演出',
    description: 'シンプルな開封演出。青い光の中でパックが開き、カードが現れます。',
  },
];

/** The colours of the suspense steps shown while the pack shakes (blue → green → red → gold). */
export type StepColour = 'blue' | 'green' | 'red' | 'gold' | 'silver';

export const STEP_COLOURS: Record<StepColour, string> = {
  blue: '#3b82f6',
  green: '#22c55e',
  red: '#ef4444',
  gold: '#fbbf24',
  silver: '#e2e8f0',
};

/** The light each effect bursts with (rays, aura). */
export const EFFECT_ACCENTS: Record<RevealEffect, string> = {
  lastone: '#c084fc',
  rainbow: '#f0abfc',
  gold: '#fbbf24',
  silver: '#e2e8f0',
  normal: '#60a5fa',
};

/** A CSS background that stands for each effect (swatches on the staff preview page). */
export const EFFECT_SWATCHES: Record<RevealEffect, string> = {
  lastone: 'linear-gradient(135deg, #f5d0fe, #a855f7 40%, #6b21a8 75%, #f0abfc)',
  rainbow: 'linear-gradient(135deg, #ff4d6d, #ffd23f 25%, #4ade80 50%, #38bdf8 75%, #a78bfa)',
  gold: 'linear-gradient(135deg, #fff3b0, #fbbf24 40%, #b7791f 70%, #fde68a)',
  silver: 'linear-gradient(135deg, #ffffff, #cbd5e1 40%, #94a3b8 70%, #f1f5f9)',
  normal: 'linear-gradient(135deg, #93c5fd, #3b82f6 60%, #1e3a8a)',
};

interface EffectPlan {
  steps: StepColour[];
  stepMs: number;
  /** 昇格: a final promotion beyond gold. */
  promotion: 'rainbow' | 'lastone' | null;
}

// The best tier decides how far the colour steps go; the top two are promoted beyond gold.
const PLANS: Record<RevealEffect, EffectPlan> = {
  normal: { steps: ['blue'], stepMs: 900, promotion: null },
  silver: { steps: ['blue', 'green', 'silver'], stepMs: 450, promotion: null },
  gold: { steps: ['blue', 'green', 'red', 'gold'], stepMs: 450, promotion: null },
  rainbow: { steps: ['blue', 'green', 'red', 'gold'], stepMs: 400, promotion: 'rainbow' },
  lastone: { steps: ['blue', 'green', 'red', 'gold'], stepMs: 400, promotion: 'lastone' },
};

/** The reveal's schedule in milliseconds from the start; every start time is absolute. */
export interface RevealTimeline {
  steps: StepColour[];
  promotion: 'rainbow' | 'lastone' | null;
  introMs: number;
  stepMs: number;
  promotionMs: number;
  burstMs: number;
  landMs: number;
  /** When the pack starts to shake and the first colour step lights. */
  chargeStart: number;
  /** When the promotion (昇格 / ラストワン banner) starts; equals burstStart without one. */
  promotionStart: number;
  burstStart: number;
  landStart: number;
  /** A multi-draw: when the grid's first card turns, the delay between cards, one card's turn. */
  gridStart: number;
  gridStaggerMs: number;
  gridFlipMs: number;
  /** A multi-draw: the pause before the last card (the best one, see revealOrder) turns. */
  lastPauseMs: number;
  /** When the landing frame is fully shown (a multi-draw: every card of the grid turned). */
  totalMs: number;
}

/** The pause before a multi-draw's last card, the best one, turns (it turns at once on a tap). */
export const LAST_CARD_PAUSE_MS = 500;

/** The grid of a multi-draw turns all its cards in about a second, whatever their number. */
export function gridPace(itemCount: number): { staggerMs: number; flipMs: number } {
  if (itemCount <= 1) return { staggerMs: 0, flipMs: 0 };
  return itemCount <= 10
    ? { staggerMs: 110, flipMs: 380 }
    : { staggerMs: Math.max(6, Math.floor(1000 / itemCount)), flipMs: 260 };
}

/**
 * The timeline for an effect and a number of cards: a single card lands in 2–4 seconds; a
 * multi-draw then turns every card of its grid (at most 5.5 seconds in all, skippable throughout).
 * @example revealTimeline('gold', 1).totalMs // 2850
 */
export function revealTimeline(effect: RevealEffect, itemCount: number): RevealTimeline {
  const plan = PLANS[effect];
  const introMs = 400;
  const burstMs = 450;
  const landMs = 350;
  const promotionMs = plan.promotion ? 700 : 0;
  const chargeStart = introMs;
  const promotionStart = chargeStart + plan.steps.length * plan.stepMs;
  const burstStart = promotionStart + promotionMs;
  const landStart = burstStart + burstMs;
  const gridStart = landStart + landMs;
  const pace = gridPace(itemCount);
  // Every card but the best one in a wave, a pause, then the best one turns.
  const lastPauseMs = itemCount > 1 ? LAST_CARD_PAUSE_MS : 0;
  const gridMs = itemCount > 1 ? pace.staggerMs * (itemCount - 2) + lastPauseMs + pace.flipMs : 0;
  return {
    steps: plan.steps,
    promotion: plan.promotion,
    introMs,
    stepMs: plan.stepMs,
    promotionMs,
    burstMs,
    landMs,
    chargeStart,
    promotionStart,
    burstStart,
    landStart,
    gridStart,
    gridStaggerMs: pace.staggerMs,
    gridFlipMs: pace.flipMs,
    lastPauseMs,
    totalMs: gridStart + gridMs,
  };
}

/** A card that counts as a hit in the grid (gold, rainbow, last one): it glows when it turns. */
export const isHitEffect = (effect: RevealEffect) => effect === 'gold' || effect === 'rainbow' || effect === 'lastone';

/** Rarity and grade as one line, e.g. 'SAR・PSA10'; '' when neither is known. */
export function cardDetails(item: RevealItem): string {
  return [item.rarity, item.cardGrade].filter((part): part is string => Boolean(part && part.trim())).join('・');
}

/**
 * What the live region announces when the reveal lands, in Japanese.
 * @example announcement(sItem, 1) // 'S賞 獲得！「ステラドラゴン」（SAR・PSA10）'
 */
export function announcement(best: RevealItem, itemCount: number): string {
  const details = cardDetails(best);
  const prize = `${best.tierLabel} 獲得！「${best.cardName}」${details ? `（${details}）` : ''}`;
  return itemCount > 1 ? `${itemCount}件の抽選結果。最高の賞は ${prize}` : prize;
}

/**
 * The order the cards turn in (decision 056): draw order (lot position; a prize without one, such as
 * ラストワン賞, after the others), never best-first, and the best card (see bestItem) moved last.
 * @example revealOrder([sAt3, cAt1, bAt2]) // [cAt1, bAt2, sAt3]
 */
export function revealOrder<T extends RevealItem>(items: readonly T[]): T[] {
  const best = bestIndex(items);
  if (best === -1) return [];
  const place = (item: RevealItem) => item.position ?? Number.POSITIVE_INFINITY;
  const others = items
    .map((item, index) => ({ item, index }))
    .filter(({ index }) => index !== best)
    .sort((a, b) => place(a.item) - place(b.item) || a.index - b.index)
    .map(({ item }) => item);
  return [...others, items[best]];
}

/** Roughly how many 12 px full-width characters a label takes (ASCII counts a little over half). */
function labelWidth(text: string): number {
  let width = 0;
  for (const char of text) width += char.charCodeAt(0) < 0x2000 ? 0.6 : 1;
  return width;
}

/**
 * The tier as its card's badge shows it, at 12 px at least: the whole label when it fits the card
 * ('S賞'), else without its 賞 ('キリ番'), else cut to fit; a ラストワン賞 reads 'LO' on a small tile.
 * A 100連 tile holds about 2.4 characters, a 10連 card about 4.5. The full label is in the card's name.
 * @example tierBadge({ tierLabel: 'S賞', isLastOne: false }, 'small') // 'S賞'
 */
export function tierBadge(item: Pick<RevealItem, 'tierLabel' | 'isLastOne'>, size: 'small' | 'large'): string {
  const room = size === 'small' ? 2.4 : 4.5;
  const label = item.tierLabel.trim();
  if (labelWidth(label) <= room) return label;
  if (item.isLastOne) return size === 'small' ? 'LO' : 'ラスト';
  const bare = label.replace(/賞$/, '');
  if (labelWidth(bare) <= room) return bare;
  let cut = '';
  for (const char of bare) {
    if (labelWidth(cut + char) > room) break;
    cut += char;
  }
  return cut;
}
