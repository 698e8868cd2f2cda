// Sample draw results for the staff preview page: one best prize per effect, plus lower cards for 10連.
import type { RevealEffect, RevealItem } from './types';

const card = (n: number) => `/demo/cards/card-${String(n).padStart(2, '0')}.svg`;

const BEST: Record<RevealEffect, Omit<RevealItem, 'prizeId'>> = {
  lastone: {
    tierLabel: 'ラストワン賞',
    effect: 'lastone',
    tierRank: 0,
    cardName: 'ステラドラゴン ラストワン限定',
    imagePath: card(1),
    rarity: 'SAR',
    cardGrade: 'PSA10',
    conversionValue: 50000,
    isLastOne: true,
  },
  rainbow: {
    tierLabel: 'S賞',
    effect: 'rainbow',
    tierRank: 1,
    cardName: '蒼炎のフェニックス',
    imagePath: card(2),
    rarity: 'SAR',
    cardGrade: 'PSA10',
    conversionValue: 30000,
    isLastOne: false,
  },
  gold: {
    tierLabel: 'A賞',
    effect: 'gold',
    tierRank: 2,
    cardName: '星詠みの魔導士',
    imagePath: card(3),
    rarity: 'UR',
    cardGrade: null,
    conversionValue: 8000,
    isLastOne: false,
  },
  silver: {
    tierLabel: 'B賞',
    effect: 'silver',
    tierRank: 3,
    cardName: '雷鳴のグリフォン',
    imagePath: card(4),
    rarity: 'SR',
    cardGrade: null,
    conversionValue: 1500,
    isLastOne: false,
  },
  normal: {
    tierLabel: 'C賞',
    effect: 'normal',
    tierRank: 4,
    cardName: 'ひだまりギツネ',
    imagePath: card(5),
    rarity: 'R',
    cardGrade: null,
    conversionValue: 300,
    isLastOne: false,
  },
};

const FILLER_NAMES = [
  'こもれびリス',
  '潮風のカメ',
  '月影のフクロウ',
  '若葉のウサギ',
  '小さな火竜',
  '霧の森のシカ',
  '白雪ペンギン',
  '夕焼けツバメ',
  '石垣のヤモリ',
];

/** Lower cards that can fill a multi-draw under the given best effect (never better than it). */
function filler(best: RevealEffect, index: number): Omit<RevealItem, 'prizeId'> {
  // A few B賞 under the higher effects so the flip-through climbs; C賞 otherwise.
  const silver = (best === 'lastone' || best === 'rainbow' || best === 'gold') && index % 4 === 1;
  return {
    tierLabel: silver ? 'B賞' : 'C賞',
    effect: silver ? 'silver' : 'normal',
    tierRank: silver ? 3 : 4,
    cardName: FILLER_NAMES[index % FILLER_NAMES.length],
    imagePath: card(6 + (index % 19)),
    rarity: silver ? 'SR' : 'C',
    cardGrade: null,
    conversionValue: silver ? 1500 : 100,
    isLastOne: false,
  };
}

/**
 * `count` sample items whose best prize plays `effect`. In a multi-draw the best prize sits in the
 * middle of the draw order (the reveal must find it), except for 'normal', where every card ties.
 */
export function sampleRevealItems(effect: RevealEffect, count = 1): RevealItem[] {
  const total = Math.max(1, Math.floor(count));
  const bestAt = effect === 'normal' ? 0 : Math.floor(total / 2);
  return Array.from({ length: total }, (_, i) => {
    const item = i === bestAt ? BEST[effect] : filler(effect, i);
    return { ...item, prizeId: `sample-${effect}-${i + 1}` };
  });
}
